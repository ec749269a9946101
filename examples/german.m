-- Steven German's cache-coherence protocol, a classic verification
-- benchmark, with the caches as a scalarset.
--
-- A home node keeps a directory of which caches share the line and whether
-- one holds it exclusively. Caches ask for shared or exclusive access over
-- channel 1; the home invalidates other copies over channel 2 (acks come
-- back on channel 3) before granting exclusive access. Because the caches
-- are interchangeable, `node` is a scalarset and Locus explores one
-- representative of every group of states that differ only by renaming
-- the caches (try --symmetry off to see the difference).
--
-- Expected result: pass.

const
  NODES: 3;

type
  node: scalarset(NODES);
  cache_state: enum { invalid, shared, exclusive };
  message: enum { empty, req_shared, req_exclusive, invalidate, inv_ack, grant_shared, grant_exclusive };

  cache: record
    state: cache_state;
  end;

var
  caches: array [node] of cache;
  chan1: array [node] of message;   -- requests: cache -> home
  chan2: array [node] of message;   -- invalidations and grants: home -> cache
  chan3: array [node] of message;   -- invalidation acks: cache -> home

  sharers: array [node] of boolean; -- the directory
  exclusive_granted: boolean;
  current_command: message;         -- the request being served
  current_client: node;
  invalidate_list: array [node] of boolean;

ruleset i: node do

  rule "request shared access"
    caches[i].state = invalid & chan1[i] = empty ==>
  begin
    chan1[i] := req_shared;
  end;

  rule "request exclusive access"
    (caches[i].state = invalid | caches[i].state = shared) & chan1[i] = empty ==>
  begin
    chan1[i] := req_exclusive;
  end;

  rule "home picks a request"
    current_command = empty & chan1[i] != empty ==>
  begin
    current_command := chan1[i];
    chan1[i] := empty;
    current_client := i;
    for j: node do
      invalidate_list[j] := sharers[j];
    end;
  end;

  rule "home sends an invalidation"
    invalidate_list[i] & chan2[i] = empty &
    (current_command = req_exclusive | (current_command = req_shared & exclusive_granted)) ==>
  begin
    chan2[i] := invalidate;
    invalidate_list[i] := false;
  end;

  rule "cache acknowledges an invalidation"
    chan2[i] = invalidate & chan3[i] = empty ==>
  begin
    chan2[i] := empty;
    chan3[i] := inv_ack;
    caches[i].state := invalid;
  end;

  rule "home receives an acknowledgement"
    current_command != empty & chan3[i] = inv_ack ==>
  begin
    chan3[i] := empty;
    sharers[i] := false;
    exclusive_granted := false;
  end;

  rule "home grants shared access"
    current_command = req_shared & current_client = i & !exclusive_granted & chan2[i] = empty ==>
  begin
    sharers[i] := true;
    current_command := empty;
    chan2[i] := grant_shared;
  end;

  rule "home grants exclusive access"
    current_command = req_exclusive & current_client = i & chan2[i] = empty &
    (forall j: node do !sharers[j] end) ==>
  begin
    sharers[i] := true;
    exclusive_granted := true;
    current_command := empty;
    chan2[i] := grant_exclusive;
  end;

  rule "cache receives shared access"
    chan2[i] = grant_shared ==>
  begin
    caches[i].state := shared;
    chan2[i] := empty;
  end;

  rule "cache receives exclusive access"
    chan2[i] = grant_exclusive ==>
  begin
    caches[i].state := exclusive;
    chan2[i] := empty;
  end;

end;

startstate
begin
  for i: node do
    caches[i].state := invalid;
    chan1[i] := empty;
    chan2[i] := empty;
    chan3[i] := empty;
    sharers[i] := false;
    invalidate_list[i] := false;
  end;
  exclusive_granted := false;
  current_command := empty;
  undefine current_client;
end;

invariant "at most one exclusive copy"
  forall i: node do
    forall j: node do
      (i != j & caches[i].state = exclusive) -> caches[j].state = invalid
    end
  end;

invariant "an exclusive copy is recorded in the directory"
  forall i: node do
    caches[i].state = exclusive -> (exclusive_granted & sharers[i])
  end;
