-- locus: verdict=pass states=18 rules=72 deadlock=off codegen=covered
-- Nested chooses, an alias rule and a ruleset inside a choose, an invariant
-- per entry, entries moved between multisets.
var a: multiset [2] of 0 .. 2;
    b: multiset [2] of 0 .. 2;
    x: 0 .. 2;
startstate begin undefine a; undefine b; multisetadd(1, a); multisetadd(2, a); multisetadd(0, b); x := 0 end;
choose i: a do
  choose j: b do
    alias ai: a[i]; bj: b[j] do
      rule "swap" ai != bj ==> var t: 0 .. 2; begin t := ai; ai := bj; bj := t; x := t end;
    end;
  end;
  ruleset k: 0 .. 2 do
    rule "move" a[i] = k & multisetcount(c: b, true) < 2 ==> begin multisetadd(k, b); multisetremove(i, a) end;
  end;
end;
choose j: b do
  rule "back" multisetcount(c: a, true) < 2 ==> begin multisetadd(b[j], a); multisetremove(j, b) end;
  invariant "entries of b" b[j] <= 2;
end;
invariant "sizes" multisetcount(c: a, true) + multisetcount(c: b, true) = 3;
