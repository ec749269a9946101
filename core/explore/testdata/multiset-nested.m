-- locus: verdict=pass states=168 rules=882 deadlock=off codegen=covered
-- Multisets inside multiset entries: the inner ones are put in order
-- before the outer one, else one state has two sorted forms (186 states).
type r: record m: multiset [2] of 0 .. 1; end;
var outer: multiset [2] of r;
    t: r;
startstate begin undefine outer; undefine t end;
ruleset v: 0 .. 1 do
  rule multisetcount(i: t.m, true) < 2 ==> begin multisetadd(v, t.m) end;
end;
rule multisetcount(i: outer, true) < 2 ==> begin multisetadd(t, outer); undefine t end;
choose i: outer do
  ruleset v: 0 .. 1 do
    rule multisetcount(j: outer[i].m, true) < 2 ==> begin multisetadd(v, outer[i].m) end;
  end;
  choose j: outer[i].m do
    rule begin multisetremove(j, outer[i].m) end;
  end;
end;
