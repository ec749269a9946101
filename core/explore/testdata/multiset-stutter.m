-- locus: verdict=fail kind=deadlock states=1 rules=1 codegen=covered
-- A rule that takes an entry out of a multiset and puts the same value
-- back leaves the state as it was (a multiset is a bag, whatever entry
-- the value lands in), so the state is deadlocked.
var m: multiset [2] of 0 .. 1;
startstate begin undefine m; multisetadd(1, m) end;
choose i: m do rule begin multisetremove(i, m); multisetadd(1, m) end end;
