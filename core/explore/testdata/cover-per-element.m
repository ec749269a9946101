-- locus: verdict=pass symmetry=exact states=2 rules=4
-- A cover per scalarset element: with symmetry reduction only canonical
-- states are seen, where the one element that is on always sits in the same
-- place; every instance is still hit, since the elements are interchangeable.
type p: scalarset(3);
var on: array [p] of boolean;
startstate begin for i: p do on[i] := false end end;
ruleset i: p do
  rule forall j: p do !on[j] end | on[i] ==> begin on[i] := !on[i] end;
  cover "element on" on[i];
end;
