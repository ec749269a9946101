-- locus: verdict=pass states=3 rules=3 deadlock=stuck
var x: 0 .. 2;
startstate begin x := 0 end;
rule begin if x < 2 then x := x + 1 end end;
