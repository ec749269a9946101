-- locus: verdict=pass states=68921 rules=270763
-- Wide and shallow with large states: the BFS queue is big next to the
-- visited set (TestQueueSpill runs it under a budget below its needs).
type val: 0..40; slot: 1..40;
var x: val; y: val; z: val;
    payload: array [slot] of 0..255;
startstate
begin
  x := 0; y := 0; z := 0;
  for j: slot do payload[j] := j * 5; endfor;
end;
ruleset v: val do
  rule "set x" x = 0 ==> begin x := v; end;
  rule "set y" y = 0 ==> begin y := v; end;
  rule "set z" z = 0 ==> begin z := v; end;
endruleset;
rule "start over" x != 0 & y != 0 & z != 0 ==> begin x := 0; y := 0; z := 0; end;
