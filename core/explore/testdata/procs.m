-- locus: verdict=pass states=5 rules=5
-- var parameters, value parameters, recursion, record results, aliases.
type pair: record a: 0 .. 100; b: 0 .. 100; end;
var x: 0 .. 3; p: pair;
function fib(n: 0 .. 10): 0 .. 100;
begin
  if n < 2 then return n end;
  return fib(n - 1) + fib(n - 2);
end;
procedure bump(var v: 0 .. 3); begin v := (v + 1) % 4 end;
function mk(a, b: 0 .. 100): pair;
  var r: pair;
begin r.a := a; r.b := b; return r end;
startstate begin x := 0; p := mk(0, 0) end;
rule begin
  assert fib(10) = 55 "recursion";
  alias q: p do q := mk(fib(x + 3), x) end;
  assert p.a = fib(x + 3) & p.b = x "record result through alias";
  bump(x);
end;
