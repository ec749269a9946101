-- locus: verdict=pass states=2 rules=3 deadlock=off codegen=covered
-- An assume statement that fails in a function a guard calls leaves that
-- rule disabled, and the rules after it still fire (they were skipped).
var x: boolean;
function ok(): boolean; begin assume x; return true end;
startstate begin x := false end;
rule "needs x" ok() ==> begin x := false end;
rule "flips" true ==> begin x := !x end;
