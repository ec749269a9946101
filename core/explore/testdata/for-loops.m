-- locus: verdict=pass states=2 rules=2
var x: boolean;
startstate begin x := true end;
rule
  var n: 0 .. 100;
begin
  n := 0;
  for i := 0 to -125 by -10 do n := n + 1 end;
  assert n = 13 "descending loop runs 13 times";
  n := 0;
  for i := 5 to 9 do n := n + i end;
  assert n = 35 "ascending loop";
  n := 0;
  for i := 3 to 1 do n := n + 1 end;
  assert n = 0 "empty loop";
  n := 0;
  while n < 7 do n := n + 2 end;
  assert n = 8 "while";
  x := !x;
end;
