-- locus: verdict=fail kind=deadlock maxerrors=2 violations=2
var x: 0 .. 2;
startstate begin x := 0 end;
rule x = 0 ==> begin x := 1 end;
rule x = 0 ==> begin x := 2 end;
