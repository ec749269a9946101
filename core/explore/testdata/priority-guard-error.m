-- locus: verdict=fail kind=undefined-read maxerrors=5 violations=2 states=2 rules=2 deadlock=off
-- With priorities every guard runs before any rule fires. A guard that
-- fails is reported once per state and the other rules still fire
-- (resuming after it ran it again: the same error, until the error limit).
var x, y: boolean;
startstate begin x := false end;
rule 10 "reads y" y ==> begin x := true end;
rule 10 "flips" true ==> begin x := !x end;
