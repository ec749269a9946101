-- locus: verdict=pass states=2 rules=4
-- A rule whose assume statement fails after it wrote a variable leaves the
-- state as it was for the rules after it: "y from x" reads x = 0, so y and
-- x stay 0 (the generated code, which keeps one working copy of the state
-- for all the rules, must put it back).
var x: 0 .. 3; y: 0 .. 3; z: boolean;
startstate begin x := 0; y := 0; z := false end;
rule "x up once y is" x < 3 ==> begin x := x + 1; assume y != 0 end;
rule "y from x" y = 0 ==> begin y := x end;
rule "flip" true ==> begin z := !z end;
