-- locus: verdict=fail kind=cover
var x: boolean;
startstate begin x := false end;
rule begin x := !x end;
cover "never" x & !x;
