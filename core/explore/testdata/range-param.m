-- locus: verdict=fail kind=range-error(parameter)
var x: 0 .. 10;
procedure p(v: 0 .. 5); begin end;
startstate begin x := 0 end;
rule x < 10 ==> begin x := x + 1; p(x) end;
