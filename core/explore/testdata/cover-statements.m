-- locus: verdict=fail kind=invariant codegen=covered
-- Cover statements in rules' bodies (before and after an assume that
-- fails), in functions a guard and an invariant call, in a start state,
-- and in the guard of a last rule that never fires (after each state's
-- last successor): counted as the closures count them, up to the
-- violation (the generated search counts each successor's hits when it
-- admits it).
var x: 0 .. 7; y: 0 .. 3;
function small(v: 0 .. 7): boolean;
begin cover "guard function" v < 2; return v < 6 end;
function bounded(v: 0 .. 7): boolean;
begin cover "invariant function" v = 3; return v < 7 end;
function never(v: 0 .. 7): boolean;
begin cover "last guard" v >= 0; return false end;
startstate begin x := 0; y := 0; cover "start" true end;
rule "up" small(x) ==> begin cover "up ran" y = 0; x := x + 1 end;
rule "y" y < 3 ==> begin y := y + 1; assume x != 2; cover "after assume" true end;
rule "down" x > 0 ==> begin cover "down ran" true; x := x - 1 end;
rule "idle" true ==> begin cover "idle" x = y end;
rule "never" never(x) ==> begin x := 0 end;
invariant "x below 7" bounded(x);
invariant "not both" !(x = 5 & y = 3);
