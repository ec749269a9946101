-- locus: verdict=fail kind=undefined-read maxerrors=3 violations=2 states=1 rules=0
-- With several errors allowed, a state whose only rule fails is also
-- deadlocked, since a failing rule leads nowhere (Rumur reports both).
var x, y: boolean;
startstate begin x := false end;
rule begin x := y end;
