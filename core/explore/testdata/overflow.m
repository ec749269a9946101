-- locus: verdict=fail kind=overflow
var x: 0 .. 1;
startstate begin x := 0 end;
rule begin
  x := (9223372036854775807 + x + 1) % 2;
end;
