-- locus: verdict=pass states=20 rules=48 codegen=covered
-- Quantifiers whose body has literals that name none of their variables
-- (s[i] = crit in exists j: i != j & s[i] = crit & s[j] = crit): the
-- generated code tests those once, before the loop, where some iteration
-- is sure to reach them in the body. Where none is (a range of one value,
-- each value excluded, a variable compared with itself), the literal
-- reads an undefined variable and must not be tested.
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
  rule "enter" s[i] = want & !exists j: pid do j != i & lock & s[j] = crit endexists
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
