-- locus: verdict=pass states=4 rules=4 codegen=covered
-- Loops whose bounds are computed from an enclosing loop's variable, with
-- a procedure call (its own loop) inside: the generated code bounds their
-- iterations by the bounds' ranges (i + 1 .. 9 runs at most 9 times), not
-- by the per-loop limit, which would put the rule past the step limit and
-- on the closures. The counts are the loops' sums.
type small: 0 .. 9;
var count: 0 .. 255;
var round: 0 .. 3;
procedure add(var c: 0 .. 255; k: small);
begin
  for m := 0 to 19 do
    if m = k then c := (c + 1) % 256; endif;
  endfor;
end;
startstate
begin
  count := 0;
  round := 0;
endstartstate;
rule "pairs" round < 3 ==>
begin
  for i := 0 to 9 do
    for j := i + 1 to 9 do
      add(count, j);
    endfor;
  endfor;
  for i := 0 to 9 do
    for j := i - 1 to i + 1 do
      if j >= 0 & j <= 9 then add(count, j); endif;
    endfor;
    for j := 9 - i to 9 by 2 do
      add(count, 9 - j);
    endfor;
  endfor;
  round := round + 1;
endrule;
rule "again" round = 3 ==> begin round := 0; count := 0; endrule;
invariant "the sums" round = 0 -> count = 0;
invariant "per round" round > 0 -> count = (round * 103) % 256;
