-- locus: verdict=fail kind=runtime-for-step-zero
var s: 0 .. 1;
startstate begin s := 0 end;
rule begin for i := 0 to 3 by s do end end;
