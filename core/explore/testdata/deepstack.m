-- locus: verdict=pass states=80004 rules=400016
-- A long chain (x) with a four-way choice (y) at each step: depth-first
-- search keeps about three pending states per level on its stack, so the
-- stack grows nearly as large as the visited set (the DFS spill test).
var x: 0..20000;
var y: 0..3;
startstate begin x := 0; y := 0; end;
rule "step" x < 20000 ==> begin x := x + 1; end;
ruleset k: 0..3 do
  rule "choose" true ==> begin y := k; end;
endruleset;
