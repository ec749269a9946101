-- A broken lock: "test, then set" in two separate steps.
--
-- Each process first reads the lock, and only in a later step takes it.
-- Between the two steps the other process can read the same free lock, so
-- both enter the critical section. Locus finds the shortest interleaving
-- that breaks mutual exclusion and shows it step by step.
--
-- Expected result: fail (invariant "mutual exclusion"), with a trace of four steps from the start state.

const
  N: 2;   -- number of processes

type
  pid: 1 .. N;
  location: enum { idle, saw_free, critical };

var
  locked: boolean;
  pc: array [pid] of location;

ruleset p: pid do
  rule "read the lock: it is free"
    pc[p] = idle & !locked ==>
  begin
    pc[p] := saw_free;       -- the bug: the lock is not taken yet
  end;

  rule "take the lock"
    pc[p] = saw_free ==>
  begin
    locked := true;
    pc[p] := critical;
  end;

  rule "release the lock"
    pc[p] = critical ==>
  begin
    locked := false;
    pc[p] := idle;
  end;
end;

startstate
begin
  locked := false;
  for p: pid do
    pc[p] := idle;
  end;
end;

invariant "mutual exclusion"
  forall p: pid do
    forall q: pid do
      (p != q) -> !(pc[p] = critical & pc[q] = critical)
    end
  end;
