-- locus: verdict=fail maxerrors=10 codegen=covered
-- Fewer errors than allowed: the search runs to its end and reports
-- every one, invariants and the deadlock, in the order met (breadth-first:
-- the state (1,1) twice, then the deadlock at (2,2)).
var x: 0 .. 2;
    y: 0 .. 2;
startstate begin x := 0; y := 0; end;
rule "x" x < 2 ==> begin x := x + 1; end;
rule "y" y < 2 ==> begin y := y + 1; end;
invariant "not (1,1)" !(x = 1 & y = 1);
