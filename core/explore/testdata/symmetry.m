-- locus: verdict=pass symmetry=exact states=4 rules=12
-- Three identical processes; exact symmetry keeps one state per number of
-- processes that are on.
type p: scalarset(3);
var on: array [p] of boolean;
startstate begin for i: p do on[i] := false end end;
ruleset i: p do rule begin on[i] := !on[i] end end;
