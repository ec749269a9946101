-- locus: verdict=fail kind=deadlock
var x: 0 .. 2;
startstate begin x := 0 end;
rule x < 2 ==> begin x := x + 1 end;
