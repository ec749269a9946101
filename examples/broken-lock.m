-- A broken lock: look first, grab later
-- Each process checks that the lock is free and only then, in a separate
-- step, takes it. Both can see it free before either takes it, so both end
-- up in the critical section. Run it to get a counterexample and step
-- through it to see how.

type
  pid: 1..2;
  label: enum { idle, saw_free, critical };

var
  pc: array [pid] of label;
  locked: boolean;

ruleset i: pid do
  rule "look"
    pc[i] = idle & !locked ==>
  begin
    pc[i] := saw_free;
  end;

  rule "grab"
    pc[i] = saw_free ==>
  begin
    locked := true;
    pc[i] := critical;
  end;

  rule "release"
    pc[i] = critical ==>
  begin
    locked := false;
    pc[i] := idle;
  end;
endruleset;

startstate "unlocked"
begin
  for i: pid do
    pc[i] := idle;
  endfor;
  locked := false;
end;

invariant "mutual exclusion"
  forall i: pid do
    forall j: pid do
      i != j -> !(pc[i] = critical & pc[j] = critical)
    endforall
  endforall;
