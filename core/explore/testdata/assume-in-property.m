-- locus: verdict=fail kind=assertion
-- An assume statement that fails in a function a property calls is an
-- error (Rumur's), located at the statement.
var x: 0 .. 3;
function ok(v: 0 .. 3): boolean; begin assume v < 3; return true end;
function fine(v: 0 .. 3): boolean; begin assume v <= 3; return v >= 0 end;
startstate begin x := 0 end;
rule "up" x < 3 ==> begin x := x + 1 end;
rule "down" x > 0 ==> begin x := x - 1 end;
invariant "fine" fine(x);
invariant "ok" ok(x);
