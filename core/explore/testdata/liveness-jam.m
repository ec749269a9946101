-- locus: verdict=fail kind=liveness deadlock=off codegen=covered
-- A liveness failure found on a graph logged in several slices: the
-- counterexample leads to the first state (in BFS order) that cannot reach
-- a state satisfying it.
type k: 0 .. 19;
var c: array [k] of boolean;
    stuck: boolean;
function ons(): 0 .. 20;
var n: 0 .. 20;
begin n := 0; for j: k do if c[j] then n := n + 1 end end; return n end;
startstate begin for j: k do c[j] := false end; stuck := false end;
ruleset j: k do
  rule "flip" true ==> begin if !stuck & (c[j] | ons() < 4) then c[j] := !c[j] end end;
end;
rule "jam" ons() = 4 & c[19] ==> begin stuck := true end;
liveness "first on again" c[0];
liveness "all off again" forall j: k do !c[j] end;
