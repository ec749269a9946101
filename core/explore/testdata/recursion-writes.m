-- locus: verdict=fail kind=deadlock codegen=covered
-- Recursion that writes the state through a var parameter and a global,
-- called from guards and bodies: the generated code must see every write
-- (the rules write nothing themselves), and count as the closures do,
-- up to the deadlock where the sum is 6 and the total has caught up.
type val: 0 .. 7;
var a: array [0 .. 3] of val;
    total: 0 .. 28;
function sum(i: 0 .. 4): 0 .. 28;
begin
  if i = 4 then return 0; endif;
  return a[i] + sum(i + 1);
end;
procedure walk(n: 0 .. 8; var x: val);
begin
  if n = 0 then
    x := (x + 1) % 8;
  elsif n = 1 then
    total := sum(0);
  else
    walk(n - 2, x);
  endif;
end;
startstate begin for i: 0 .. 3 do a[i] := 0; endfor; total := 0; end;
ruleset i: 0 .. 3; n: 0 .. 3 do
  rule "bump" sum(0) < 6 ==> begin walk(2 * n, a[i]); end;
  rule "tally" sum(0) != total ==> begin walk(2 * n + 1, a[i]); end;
endruleset;
