-- locus: verdict=fail kind=invariant
-- Two rules lead from each state to the same successor: a counterexample
-- names the first at every step, as the breadth-first search recorded it
-- (the generated search keeps no rules, and finds them again).
var x: 0 .. 3;
startstate begin x := 0 end;
rule "a" x < 3 ==> begin x := x + 1 end;
rule "b" x < 3 ==> begin x := x + 1 end;
invariant "x below 3" x < 3;
