-- locus: verdict=pass codegen=covered
-- A loop to MaxInt64 over three values, which generated code unrolls:
-- its values counted, not compared with the last (v <= MaxInt64 always
-- holds, and the generator never ended).
var x: 0 .. 3;
startstate x := 0; endstartstate;
rule "r" x < 3 ==>
var n: 0 .. 5;
begin
  n := 0;
  for i := 9223372036854775805 to 9223372036854775807 do
    if i > 9223372036854775806 then n := n + 2; else n := n + 1; endif;
  endfor;
  x := n - 1;
endrule;
rule "s" x = 3 ==> begin x := 0; endrule;
