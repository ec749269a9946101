-- Lamport's bakery algorithm for N processes.
--
-- As in a bakery, a process that wants the critical section takes a
-- ticket, one more than the largest it sees, and waits for every process
-- holding a smaller ticket (ties go to the lower process number). While it
-- reads the others' tickets it raises choosing[i], and whoever checks it
-- waits for that to end. Tickets grow without bound in the real algorithm;
-- here they stop at MaxTicket, and a process that would pass it goes back
-- to idle and tries again later, which keeps the state space finite.
-- The processes are numbered (a ruleset over 0 .. N-1), and the ticket is
-- computed by a while loop over the others' tickets.
--
-- Expected result: pass (301,907 states, 1,509,535 rules fired).

const
  N: 5;           -- processes
  MaxTicket: 9;   -- the largest ticket handed out

type
  ticket: 0 .. MaxTicket;
  location: enum { idle, doorway, waiting, critical };

var
  choosing: array [0 .. N-1] of boolean; -- reading the others' tickets
  number: array [0 .. N-1] of ticket;    -- 0: no ticket
  pc: array [0 .. N-1] of location;
  next: array [0 .. N-1] of 0 .. N;      -- the process a waiting one checks next

ruleset i := 0 to N-1 do
  rule "enter the doorway"
    pc[i] = idle ==>
  begin
    choosing[i] := true;
    pc[i] := doorway;
  end;

  rule "take a ticket"
    pc[i] = doorway ==>
  var largest: ticket; k: 0 .. N;
  begin
    largest := 0;
    k := 0;
    while k < N do
      if number[k] > largest then largest := number[k]; end;
      k := k + 1;
    end;
    if largest < MaxTicket then
      number[i] := largest + 1;
      pc[i] := waiting;
      next[i] := 0;
    else
      pc[i] := idle; -- no ticket left: try again later
    end;
    choosing[i] := false;
  end;

  rule "check the next process"
    pc[i] = waiting & next[i] < N ==>
  var j: 0 .. N-1;
  begin
    j := next[i];
    if j = i | (!choosing[j] & (number[j] = 0 | number[j] > number[i] | (number[j] = number[i] & j > i))) then
      next[i] := next[i] + 1;
    end;
  end;

  rule "enter the critical section"
    pc[i] = waiting & next[i] = N ==>
  begin
    pc[i] := critical;
  end;

  rule "leave the critical section"
    pc[i] = critical ==>
  begin
    number[i] := 0;
    next[i] := 0;
    pc[i] := idle;
  end;
end;

startstate
begin
  for p := 0 to N-1 do
    choosing[p] := false;
    number[p] := 0;
    next[p] := 0;
    pc[p] := idle;
  end;
end;

invariant "mutual exclusion"
  forall p := 0 to N-1 do
    forall q := 0 to N-1 do
      (p != q & pc[p] = critical) -> pc[q] != critical
    end
  end;
