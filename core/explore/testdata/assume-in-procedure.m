-- locus: verdict=pass states=336 rules=1260 codegen=covered
-- Assume statements in procedures and functions that rule bodies call:
-- a failed one discards the whole transition (what the body and its
-- callees wrote before it too), wherever it sits: in a nested call, a
-- loop, a function called in an expression, a function returning a
-- record. The counts differ if any of them lets a transition through.
-- (codegen=covered: TestGeneratedSameAsClosures fails if it runs on the
-- closures.)
type val: 0 .. 7;
type pair: record a: val; b: val; end;
var x: val;
var y: val;
var p: pair;
procedure bump(var v: val; limit: val);
var room: val;
begin
  v := (v + 1) % 8; -- written before the assume: undone when it fails
  assume v <= limit;
  room := limit - v; -- a range error if it ran after a failed assume
end;
procedure twice(var v: val);
begin
  bump(v, 5);
  bump(v, 5);
  x := 0; -- not reached when the second bump's assume fails
end;
function next(v: val): val;
begin
  assume v < 6;
  return v + 1;
end;
function both(v: val): pair;
var r: pair;
begin
  r.a := v;
  assume v != 3;
  r.b := v;
  return r;
end;
startstate
begin
  x := 0;
  y := 0;
  p.a := 0;
  p.b := 0;
endstartstate;
rule "bump x" begin bump(x, 6); endrule;
rule "twice y" begin twice(y); endrule;
rule "next" begin y := (next(x) + next(y)) % 8; endrule;
rule "both" begin p := both(x); x := p.b; endrule;
rule "loop" begin for i := 0 to 2 do bump(y, 4 + i); endfor; endrule;
rule "reset" x = 6 ==> begin x := 0; y := 0; endrule;
invariant "p" p.a = p.b;
