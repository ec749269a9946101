-- locus: verdict=fail kind=deadlock deadlock=stuck states=1 rules=0
-- Stuck deadlock: the only enabled rule fails an assume statement, so no
-- rule fires; Rumur reports the deadlock (counting enabled rules missed it).
var x: boolean;
startstate begin x := false end;
rule begin assume x; x := true end;
