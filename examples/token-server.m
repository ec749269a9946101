-- A token server with interchangeable clients (scalarset)
-- Clients get hungry, the server grants its single token to one hungry
-- client at a time, and the client gives it back. The clients are a
-- scalarset, so symmetry reduction counts states that differ only by
-- renaming clients once: compare the state count with symmetry exact,
-- heuristic and off.

const
  NCLIENTS: 4;

type
  client: scalarset(NCLIENTS);
  phase: enum { thinking, hungry, eating };

var
  st: array [client] of phase;
  busy: boolean;
  holder: client;

ruleset c: client do
  rule "get hungry"
    st[c] = thinking ==>
  begin
    st[c] := hungry;
  end;

  rule "grant"
    st[c] = hungry & !busy ==>
  begin
    st[c] := eating;
    busy := true;
    holder := c;
  end;

  rule "give back"
    st[c] = eating ==>
  begin
    st[c] := thinking;
    busy := false;
    undefine holder;
  end;
endruleset;

startstate "all thinking"
begin
  for c: client do
    st[c] := thinking;
  endfor;
  busy := false;
  undefine holder;
end;

invariant "the token has one holder"
  forall c: client do
    st[c] = eating -> (busy & holder = c)
  endforall;

invariant "one client eats at a time"
  forall c1: client do
    forall c2: client do
      (st[c1] = eating & st[c2] = eating) -> c1 = c2
    endforall
  endforall;
