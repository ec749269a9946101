-- The Needham-Schroeder public-key protocol, and Lowe's attack on it.
--
-- Alice (A) starts a session with someone; Bob (B) answers whoever writes
-- to him. Each message is encrypted for its receiver's public key:
--   1. A -> X: {Na, A}X      2. X -> A: {Na, Nb}A      3. A -> X: {Nb}X
-- An intruder (I) is also a legitimate user: it sees every message, reads
-- those encrypted for it, replays the others and makes new ones from the
-- nonces it has learnt. The invariant says: when Bob finishes a session
-- believing he talked to Alice, Alice did start a session with Bob. Locus
-- finds Lowe's man-in-the-middle attack (1995). To fix the protocol, as
-- Lowe did, add the responder's name to message 2 and let Alice check it.
--
-- Written for Locus (original model).
--
-- Expected result: fail (invariant "Bob really talked to Alice").

type
  agent: enum { A, B, I };
  nonce: enum { NA, NB, NI };         -- made by A, by B, by the intruder
  kind: enum { M1, M2, M3 };
  message: record
    k: kind;
    dest: agent;                        -- encrypted for this agent's key
    n1: nonce;
    n2: nonce;                        -- used by message 2 only
    who: agent;                       -- used by message 1 only
  end;

var
  net: message;                       -- the message on the network
  busy: boolean;                      -- whether there is one
  aStage: enum { aIdle, aWaiting, aDone };
  aPeer: agent;                       -- whom Alice thinks she talks to
  bStage: enum { bIdle, bWaiting, bDone };
  bPeer: agent;                       -- whom Bob thinks he talks to
  knows: array [nonce] of boolean;    -- nonces the intruder has learnt
  kept: message;                      -- a message the intruder cannot read, kept to replay
  hasKept: boolean;

procedure send(k: kind; dest: agent; n1: nonce; n2: nonce; who: agent);
begin
  net.k := k; net.dest := dest; net.n1 := n1; net.n2 := n2; net.who := who;
  busy := true;
end;

ruleset p: agent do
  rule "Alice starts a session"
    aStage = aIdle & p != A & !busy ==>
  begin
    aPeer := p;
    send(M1, p, NA, NI, A);
    aStage := aWaiting;
  end;
end;

rule "Bob answers message 1"
  busy & net.k = M1 & net.dest = B & bStage = bIdle ==>
begin
  bPeer := net.who;
  send(M2, net.who, net.n1, NB, A);
  bStage := bWaiting;
end;

rule "Alice answers message 2"
  busy & net.k = M2 & net.dest = A & aStage = aWaiting & net.n1 = NA ==>
begin
  send(M3, aPeer, net.n2, NI, A);
  aStage := aDone;
end;

rule "Bob accepts message 3"
  busy & net.k = M3 & net.dest = B & bStage = bWaiting & net.n1 = NB ==>
begin
  busy := false;
  bStage := bDone;
end;

rule "the intruder intercepts"
  busy ==>
begin
  if net.dest = I then
    knows[net.n1] := true;
    if net.k = M2 then knows[net.n2] := true; endif;
  else
    kept := net;
    hasKept := true;
  endif;
  busy := false;
end;

rule "the intruder replays the kept message"
  hasKept & !busy ==>
begin
  net := kept;
  busy := true;
end;

ruleset dest: agent; x: nonce; w: agent do
  rule "the intruder sends a message 1"
    !busy & dest != I & knows[x] ==>
  begin
    send(M1, dest, x, NI, w);
  end;
end;

ruleset dest: agent; x: nonce do
  rule "the intruder sends a message 3"
    !busy & dest != I & knows[x] ==>
  begin
    send(M3, dest, x, NI, A);
  end;
end;

startstate
begin
  busy := false;
  send(M1, A, NI, NI, A);
  busy := false;
  aStage := aIdle; aPeer := A;
  bStage := bIdle; bPeer := B;
  for n: nonce do knows[n] := false; end;
  knows[NI] := true;
  kept := net;
  hasKept := false;
end;

invariant "Bob really talked to Alice"
  (bStage = bDone & bPeer = A) -> aPeer = B;
