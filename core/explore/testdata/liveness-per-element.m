-- locus: verdict=pass symmetry=exact states=8 rules=24 codegen=covered
-- A liveness property per scalarset element turns symmetry reduction off
-- (8 states, not the 4 orbits): the reduced graph does not preserve it.
type p: scalarset(3);
var on: array [p] of boolean;
startstate begin for i: p do on[i] := false end end;
ruleset i: p do
  rule begin on[i] := !on[i] end;
  liveness "element can turn on" on[i];
end;
