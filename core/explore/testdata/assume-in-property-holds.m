-- locus: verdict=pass states=4 rules=6 codegen=covered
-- An assume statement that holds in a function a property calls.
var x: 0 .. 3;
function ok(v: 0 .. 3): boolean; begin assume v < 3; return true end;
function fine(v: 0 .. 3): boolean; begin assume v <= 3; return v >= 0 end;
startstate begin x := 0 end;
rule "up" x < 3 ==> begin x := x + 1 end;
rule "down" x > 0 ==> begin x := x - 1 end;
invariant "fine" fine(x);
