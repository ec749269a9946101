-- locus: verdict=fail kind=range-error(assignment)
var x: 0 .. 3;
startstate begin x := 0 end;
rule begin x := x + 1 end;
