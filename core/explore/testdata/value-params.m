-- locus: verdict=pass states=41364 rules=355608
-- Scalar value parameters are passed as values (read from a local),
-- aliases keep their address in a local, indexes by a value of the index
-- type are not range-checked, and || and && of conditions short-circuit
-- in the translated program: each against the closures.
type P: 1 .. 3; C: enum { red, green, blue }; S: scalarset(2);
var a: array [P] of 0 .. 7; col: array [C] of boolean; c: C;
    sv: array [S] of 0 .. 2; n: 0 .. 9; u: P;
procedure bump(i: P; step: 0 .. 2; var t: array [P] of 0 .. 7);
begin
  alias e: t[i] do
    if e + step <= 7 then e := e + step; end;
    if e = 7 | e = 6 | e = 5 then col[c] := !col[c]; end;
  end;
end;
function pick(i: P; k: C): C;
begin
  if col[k] & a[i] > 2 & (k = red | k = blue) then return green; end;
  return k;
end;
startstate
begin
  clear a; clear col; c := red; clear sv; n := 0; undefine u;
end;
ruleset i: P; step: 1 .. 2 do
  alias ai: a[i] do
    rule "bump" ai < 6 ==> begin bump(i, step, a); c := pick(i, c); n := (n + 1) % 4; end;
  end;
end;
ruleset s: S do
  rule "sv" sv[s] < 2 ==> begin sv[s] := sv[s] + 1; end;
end;
ruleset i: P do
  rule "decay" a[i] > 0 ==> begin a[i] := a[i] - 1; end;
end;
