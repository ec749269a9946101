-- locus: verdict=pass states=6196 rules=123920 codegen=covered
-- Liveness over a graph of 124k transitions, 20 from every state: the
-- generated search logs them for the host in slices that its log holds.
type k: 0 .. 19;
var c: array [k] of boolean;
function ons(): 0 .. 20;
var n: 0 .. 20;
begin n := 0; for j: k do if c[j] then n := n + 1 end end; return n end;
startstate begin for j: k do c[j] := false end end;
ruleset j: k do
  rule "flip" true ==> begin if c[j] | ons() < 4 then c[j] := !c[j] end end;
end;
liveness "all off again" forall j: k do !c[j] end;
liveness "first on" c[0];
