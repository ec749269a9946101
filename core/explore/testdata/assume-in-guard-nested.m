-- locus: verdict=pass deadlock=off codegen=covered
-- A failed assume two calls deep in a guard, inside a quantifier: the
-- rule is not enabled and the rules after it fire, a call with a passing
-- assume among them ("tick"); the same function in a body ends the rule,
-- fired, with no successor.
type idx: 0 .. 2;
var a: array [idx] of 0 .. 3;
function inner(v: 0 .. 3): boolean; begin assume v != 2; return v < 3 end;
function outer(i: idx): boolean; begin return inner(a[i]) end;
function always(): boolean; begin assume true; return true end;
startstate begin for i: idx do a[i] := 0; endfor end;
ruleset i: idx do
  rule "bump" exists j: idx do j = i & outer(j) endexists ==> begin a[i] := (a[i] + 1) % 4 end;
endruleset;
rule "tick" true ==> begin if always() then a[0] := a[0] endif end;
ruleset i: idx do
  rule "in a body" a[i] != 0 ==> begin if outer(i) then a[(i + 1) % 3] := a[i] endif end;
endruleset;
