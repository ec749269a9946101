-- locus: verdict=fail kind=invariant symmetry=exact codegen=covered
-- Scalarsets inside a multiset under symmetry reduction: a permutation moves
-- entries, which are sorted again; the counterexample is rebuilt through
-- representatives whose entries are in order.
type P: scalarset(3);
  M: record src: P; dst: P; end;
var net: multiset [3] of M;
    got: array [P] of 0 .. 2;
startstate begin undefine net; for p: P do got[p] := 0 end end;
ruleset s: P; d: P do
  rule "send" s != d & multisetcount(i: net, net[i].src = s) = 0 ==>
  var m: M;
  begin m.src := s; m.dst := d; multisetadd(m, net) end;
end;
choose i: net do
  rule "deliver" got[net[i].dst] < 2 ==>
  begin got[net[i].dst] := got[net[i].dst] + 1; multisetremove(i, net) end;
end;
invariant "no process receives twice while a third message is in flight"
  !(exists p: P do got[p] = 2 end & multisetcount(i: net, true) = 3);
