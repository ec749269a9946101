-- difftest: symmetry=off deadlock=off maxerrors=1 bound=0
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
