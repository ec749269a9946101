-- locus: verdict=pass codegen=covered
-- A quantifier over one value is its body, the variable bound to that
-- value: cache3's "forall n1 do forall n2 do forall home do forall addr
-- do n1 = n2 | ...", where home and addr range over one value each, has
-- n1's literals (which name home and addr) tested before n2's loop.
type pid: 1 .. 3;
     home: 1 .. 1;
     addr: enum {a0};
     phase: enum {idle, want, crit};
var s: array [pid] of array [home] of array [addr] of phase;
    lock: boolean;
    u: 0 .. 3; -- never assigned
startstate
begin
  for i: pid do s[i][1][a0] := idle; endfor;
  lock := false;
endstartstate;
ruleset i: pid do
  rule "want" s[i][1][a0] = idle ==> begin s[i][1][a0] := want; endrule;
  rule "enter" s[i][1][a0] = want & !lock ==> begin s[i][1][a0] := crit; lock := true; endrule;
  rule "leave" s[i][1][a0] = crit ==> begin s[i][1][a0] := idle; lock := false; endrule;
endruleset;
invariant "mutex, one home and address"
  forall n1: pid do forall n2: pid do forall h: home do forall a: addr do
    !(n1 != n2) | !(s[n1][h][a] = crit & s[n2][h][a] = crit)
  endforall endforall endforall endforall;
invariant "mutex, exists"
  !exists n1: pid do exists n2: pid do exists h: home do
    n1 != n2 & s[n1][h][a0] = crit & s[n2][h][a0] = crit
  endexists endexists endexists;
invariant "one value, never reached"
  forall j: pid do forall h: home do j = j | u = h endforall endforall;
invariant "each value excluded, never reached"
  !exists j: pid do exists h: home do j != 1 & j != 2 & j != 3 & u = h endexists endexists;
