-- Peterson's mutual exclusion for two processes
-- Each process raises its flag, gives the turn away, and enters its critical
-- section only if the other is not interested or it is its turn. The
-- invariant says the two are never in the critical section together: run it
-- and it passes.

type
  pid: 1..2;
  label: enum { idle, want, waiting, critical };

var
  pc: array [pid] of label;
  flag: array [pid] of boolean;
  turn: pid;

ruleset i: pid do
  rule "raise flag"
    pc[i] = idle ==>
  begin
    flag[i] := true;
    pc[i] := want;
  end;

  rule "give turn away"
    pc[i] = want ==>
  begin
    turn := 3 - i;
    pc[i] := waiting;
  end;

  rule "enter"
    pc[i] = waiting & (!flag[3 - i] | turn = i) ==>
  begin
    pc[i] := critical;
  end;

  rule "leave"
    pc[i] = critical ==>
  begin
    flag[i] := false;
    pc[i] := idle;
  end;
endruleset;

startstate "both idle"
begin
  for i: pid do
    pc[i] := idle;
    flag[i] := false;
  endfor;
  turn := 1;
end;

invariant "mutual exclusion"
  !(pc[1] = critical & pc[2] = critical);
