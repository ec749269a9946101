-- locus: verdict=pass codegen=covered
-- Loops over a few constant values are unrolled in generated code (the
-- variable a constant in each copy of the body): a loop variable aliased
-- and passed to a function, a return from inside nested unrolled loops,
-- a quantifier's early exit from inside them, a loop over no value.
const N: 3;
type pid: 1 .. N;
var a: array [pid] of 0 .. 3;
    b: array [pid] of boolean;
    c: 0 .. 9;

function first(v: 0 .. 3): 0 .. 4;
begin
  for i: pid do
    for j: 0 .. 1 do
      if a[i] = v & j = 1 then return i; endif;
    endfor;
  endfor;
  return 4;
end;

function count(v: 0 .. 3; k: pid): 0 .. 3;
var n: 0 .. 3;
begin
  n := 0;
  for i: pid do
    if a[i] = v & i != k then n := n + 1; endif;
  endfor;
  return n;
end;

startstate
begin
  for i: pid do a[i] := 0; b[i] := false; endfor;
  c := 0;
endstartstate;

ruleset i: pid do
  rule "bump" a[i] < 3 ==>
  begin
    a[i] := a[i] + 1;
    for j: pid do
      alias x: j do
        if x != i then b[x] := !b[x]; endif;
      endalias;
    endfor;
    for k := 5 to 4 do c := 9; endfor;
    c := first(a[i]) + count(a[i], i);
  endrule;
  rule "reset" a[i] = 3 ==> begin a[i] := 0; endrule;
endruleset;

invariant "first finds one" forall v: 0 .. 3 do (exists i: pid do a[i] = v endexists) -> first(v) <= N endforall;
invariant "counts agree" forall i: pid do count(a[i], i) <= N - 1 endforall;
invariant "c small" c <= 7;
