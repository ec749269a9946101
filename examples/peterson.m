-- Peterson's mutual-exclusion algorithm for two processes.
--
-- Each process announces interest with flag[i], then politely gives the
-- turn to the other one and waits while the other is interested and it is
-- the other's turn. The invariant says both are never in the critical
-- section together; Locus checks it in every reachable state.
--
-- Expected result: pass (20 states, 34 rules fired).

type
  pid: 0 .. 1;
  location: enum { idle, want, waiting, critical };

var
  flag: array [pid] of boolean;   -- "I want to enter"
  turn: pid;                      -- who yields when both want in
  pc: array [pid] of location;    -- where each process is

ruleset i: pid do
  rule "announce interest"
    pc[i] = idle ==>
  begin
    flag[i] := true;
    pc[i] := want;
  end;

  rule "give the turn away"
    pc[i] = want ==>
  begin
    turn := 1 - i;
    pc[i] := waiting;
  end;

  rule "enter the critical section"
    pc[i] = waiting & (!flag[1 - i] | turn = i) ==>
  begin
    pc[i] := critical;
  end;

  rule "leave the critical section"
    pc[i] = critical ==>
  begin
    flag[i] := false;
    pc[i] := idle;
  end;
end;

startstate
begin
  for i: pid do
    flag[i] := false;
    pc[i] := idle;
  end;
  turn := 0;
end;

invariant "mutual exclusion"
  !(pc[0] = critical & pc[1] = critical);
