-- locus: verdict=pass states=2 rules=2 deadlock=off codegen=covered
-- Properties declared inside a choose exist, as its rules do, only while
-- their entry is present: an invariant holds for an absent entry (reading
-- it was an error), and a cover counts the present ones.
var m: multiset [2] of boolean; x: boolean;
startstate begin undefine m; multisetadd(true, m); x := false end;
rule begin x := !x end;
choose i: m do
  invariant "present entries are true" m[i];
  cover "a true entry" m[i];
end;
