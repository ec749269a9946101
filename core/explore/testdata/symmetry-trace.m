-- locus: verdict=fail kind=invariant symmetry=exact codegen=covered
-- Each process points at another, one at a time, and the invariant says
-- some process still points nowhere. The graphs of pointers are the states
-- (one per orbit), and cycles among them give colourings that cannot tell
-- the processes apart: the generated reduction enumerates candidates as
-- the Reducer does. The counterexample is rebuilt from canonical states
-- (each step's rule found again under reduction).
const N: 4;
type p: scalarset(N);
var next: array [p] of p;
    steps: 0..N;
startstate begin undefine next; steps := 0; end;
ruleset i: p; j: p do
  rule "point" isundefined(next[i]) & i != j ==> begin next[i] := j; steps := steps + 1; end;
end;
invariant "someone points nowhere" exists i: p do isundefined(next[i]) end;
