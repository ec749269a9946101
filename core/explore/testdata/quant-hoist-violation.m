-- locus: verdict=fail kind=invariant codegen=covered
-- quant-hoist.m without the lock in enter's guard: the invariants tested
-- with literals before their loops find the first two in the critical
-- section, at the same place as the closures.
type pid: 1 .. 3;
     phase: enum {idle, want, crit};
var s: array [pid] of phase;
    lock: boolean;
    u: 0 .. 3; -- never assigned
startstate
begin
  for i: pid do s[i] := idle; endfor;
  lock := false;
endstartstate;
ruleset i: pid do
  rule "want" s[i] = idle ==> begin s[i] := want; endrule;
  rule "enter" s[i] = want
  ==> begin s[i] := crit; lock := true; endrule;
  rule "leave" s[i] = crit ==> begin s[i] := idle; lock := false; endrule;
endruleset;
invariant "mutex, forall"
  forall i: pid do forall j: pid do i != j -> !(s[i] = crit & s[j] = crit) endforall endforall;
invariant "mutex, exists"
  !exists i: pid do exists j: pid do i != j & s[i] = crit & s[j] = crit endexists endexists;
invariant "mutex, or"
  forall i: pid do forall j: pid do s[i] != crit | i = j | s[j] != crit endforall endforall;
invariant "one value" !exists j: 1 .. 1 do j != 1 & u = 1 endexists;
invariant "each value excluded" !exists j: 1 .. 2 do j != 1 & j != 2 & u = 1 endexists;
invariant "one variable" forall j: pid do j = j | u = 1 endforall;
