-- locus: verdict=fail kind=liveness deadlock=off codegen=covered
var x: 0 .. 3;
startstate begin x := 0 end;
rule x < 3 ==> begin x := x + 1 end;
rule x = 3 ==> begin x := 3 end;
liveness "back to zero" x = 0;
