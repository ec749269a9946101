-- locus: verdict=pass symmetry=off states=8 rules=24
type p: scalarset(3);
var on: array [p] of boolean;
startstate begin for i: p do on[i] := false end end;
ruleset i: p do rule begin on[i] := !on[i] end end;
