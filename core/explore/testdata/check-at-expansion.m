-- locus: verdict=fail codegen=covered
-- Generated code checks invariants when it expands a state, not when it
-- finds it (wasmgen's CheckAtExpansion). Here x = 2 is found deadlocked
-- while x = 3, found before (by x = 1, in the same batch), is not yet
-- expanded: its invariant fails, and the closures, which check it when
-- they find it, stop there. The deadlock must not be reported. (Depth-
-- first engines meet the deadlock first: the header names no kind.)
var x: 0 .. 3;
startstate x := 0; endstartstate;
rule "one" x = 0 ==> x := 1; endrule;
rule "two" x = 0 ==> x := 2; endrule;
rule "three" x = 1 ==> x := 3; endrule;
invariant "not three" x != 3;
