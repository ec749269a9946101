-- locus: verdict=pass states=3900 rules=28660 deadlock=off codegen=covered
-- Multiset statements and expressions: multisetadd (in a procedure, of a
-- record), multisetremove in a choose, multisetremovepred, multisetcount in
-- guards and an invariant, multisets in an array indexed by a ruleset
-- parameter, a whole multiset copied and cleared.
type v: 0 .. 2;
  node: 1 .. 2;
  msg: record src: node; val: v; end;
var net: array [node] of multiset [3] of msg;
    copy: multiset [3] of msg;
    total: 0 .. 5;

procedure send(var m: multiset [3] of msg; s: node; x: v);
var e: msg;
begin e.src := s; e.val := x; multisetadd(e, m) end;

startstate begin undefine net; undefine copy; total := 0 end;

ruleset n: node; x: v do
  rule "send" multisetcount(i: net[n], true) < 2 & total < 5 ==>
  begin send(net[n], n, x); total := total + 1 end;
end;

ruleset n: node do
  choose i: net[n] do
    rule "recv" net[n][i].val != 0 ==>
    begin
      if net[n][i].val = 2 then multisetremove(i, net[n]) else net[n][i].val := 0 end;
    end;
  end;
  rule "drop zeros" multisetcount(j: net[n], net[n][j].val = 0) > 0 ==>
  begin multisetremovepred(j: net[n], net[n][j].val = 0) end;
  rule "snapshot" true ==> begin copy := net[n] end;
end;

rule "clear copy" multisetcount(k: copy, true) > 0 ==> begin clear copy end;

invariant "bounded" forall n: node do multisetcount(i: net[n], true) <= 2 end;
