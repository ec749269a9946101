-- locus: verdict=pass states=3 rules=5
-- A failed assume statement discards the transition (not counted as fired);
-- a top-level assume discards states.
var x: 0 .. 5;
startstate begin x := 0 end;
rule x < 5 ==> begin x := x + 1; assume x != 4 end;
rule x > 0 ==> begin x := x - 1 end;
assume x != 3;
