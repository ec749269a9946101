-- locus: verdict=pass states=4 rules=4 codegen=covered
-- Records and arrays that are values, not variables: function results
-- (assigned, compared, in guards, passed on, discarded) and conditional
-- expressions. Each invariant holds only if every such value is the one
-- the expression denotes.
type pair: record lo: 0 .. 3; hi: 0 .. 3; end;
type row: array [0 .. 2] of 0 .. 3;
var p: pair;
var q: pair;
var r: row;
var n: 0 .. 3;
function make(a: 0 .. 3; b: 0 .. 3): pair;
var t: pair;
begin
  t.lo := a;
  t.hi := b;
  return t;
end;
function swapped(x: pair): pair;
begin
  return make(x.hi, x.lo);
end;
function fill(v: 0 .. 3): row;
var t: row;
begin
  for i := 0 to 2 do t[i] := (v + i) % 4; endfor;
  return t;
end;
startstate
begin
  p := make(0, 1);
  q := make(1, 0);
  r := fill(0);
  n := 0;
endstartstate;
rule "step" n < 3 ==>
begin
  n := n + 1;
  p := (n % 2 = 0 ? make(n, 0) : swapped(make(n, 0)));
  q := swapped(p);
  r := fill(n);
  make(n, n); -- a result dropped
endrule;
rule "reset" swapped(p) = q & n = 3 ==>
begin
  n := 0;
  p := make(0, 1);
  q := make(1, 0);
  r := fill(0);
endrule;
invariant "make" make(p.lo, p.hi) = p;
invariant "swapped" q.lo = p.hi & q.hi = p.lo & swapped(q) = p;
invariant "conditional" n = 0 | (n % 2 = 0 -> p.lo = n & p.hi = 0) & (n % 2 = 1 -> p.lo = 0 & p.hi = n);
invariant "fill" forall i := 0 to 2 do r[i] = (n + i) % 4 endforall & fill(n) = r;
invariant "conditional record" (n = 0 ? p : q) = (n = 0 ? make(0, 1) : swapped(p));
