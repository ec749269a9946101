-- locus: verdict=pass states=2 rules=2 deadlock=off codegen=covered
-- Inside a choose, an alias rule's bindings are evaluated only for
-- entries that are present: an absent entry has no rule instance, so
-- reading it is no error.
var m: multiset [2] of 0 .. 1; x: 0 .. 1;
startstate begin undefine m; multisetadd(1, m); x := 0 end;
choose i: m do
  alias v: m[i] + 0 do
    rule begin x := v end;
  end;
end;
