-- locus: verdict=fail kind=index-out-of-range states=1 rules=0
-- put locates its designator even when nothing is printed, so an index
-- out of range is an error there as anywhere (Rumur fails too).
var a: array [0 .. 1] of boolean; i: 0 .. 2;
startstate begin i := 2 end;
rule begin put a[i] end;
