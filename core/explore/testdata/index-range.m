-- locus: verdict=fail kind=index-out-of-range
var a: array [0 .. 2] of boolean; i: 0 .. 5;
startstate begin clear a; i := 0 end;
rule i < 5 ==> begin i := i + 1; a[i] := true end;
