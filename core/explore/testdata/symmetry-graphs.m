-- locus: verdict=pass symmetry=exact states=47 rules=1117 codegen=covered
-- Every process points at another or nowhere, and may point elsewhere at
-- any time: the states are the partial functions without fixed points on
-- five processes, one per orbit. Cycles of three, four and five processes
-- leave colours that cannot tell them apart, so the reduction enumerates
-- candidate labelings; generated code must keep the Reducer's
-- representatives (TestGeneratedSameAsClosures).
const N: 5;
type p: scalarset(N);
var next: array [p] of p;
startstate begin undefine next; end;
ruleset i: p; j: p do
  rule "point" i != j ==> begin next[i] := j; end;
end;
ruleset i: p do
  rule "let go" !isundefined(next[i]) ==> begin undefine next[i]; end;
end;
