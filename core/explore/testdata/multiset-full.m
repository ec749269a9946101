-- locus: verdict=fail kind=multiset-full states=3 rules=2 deadlock=off
-- multisetadd into a full multiset is a run-time error.
var m: multiset [2] of boolean;
startstate begin undefine m end;
rule "add" true ==> begin multisetadd(true, m) end;
