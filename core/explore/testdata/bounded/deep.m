-- A long chain with a side cycle; the invariant fails 150 steps deep.
var x: 0..200; y: 0..3;
--@progress x
startstate begin x := 0; y := 0; end;
rule "inc" x < 200 ==> begin x := x + 1; end;
rule "turn" true ==> begin y := (y + 1) % 4; end;
invariant "x small" x < 150 | y != 2;
