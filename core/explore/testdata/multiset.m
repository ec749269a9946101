-- locus: verdict=pass states=10 rules=17 deadlock=off codegen=covered
-- Multisets: order of entries never matters (multiset reduction).
type v: 0 .. 2;
var m: multiset [2] of v;
startstate begin undefine m end;
ruleset x: v do
  rule multisetcount(i: m, true) < 2 ==> begin multisetadd(x, m) end;
end;
choose i: m do
  rule m[i] = 0 ==> begin multisetremove(i, m) end;
end;
