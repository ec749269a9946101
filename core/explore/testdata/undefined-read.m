-- locus: verdict=fail kind=undefined-read
var x: 0 .. 3; y: 0 .. 3;
startstate begin x := 0 end;
rule begin x := y end;
