-- locus: verdict=pass states=4 rules=4
type s: scalarset(2); e: enum { E1, E2 }; u: union { s, e };
var x: u; k: 0 .. 3;
startstate begin x := E1; k := 0 end;
rule begin
  k := (k + 1) % 4;
  if k = 1 then x := E2 elsif k = 2 then
    for i: s do x := i end
  else x := E1 end;
  assert ismember(x, e) | ismember(x, s) "member";
end;
