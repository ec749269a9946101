-- locus: verdict=fail kind=error-statement
var x: boolean;
startstate begin error "boom" end;
rule begin x := !x end;
