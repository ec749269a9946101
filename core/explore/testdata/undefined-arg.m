-- locus: verdict=pass states=2 rules=2
-- Passing CMurphi's `undefined` gives an undefined parameter, even when an
-- earlier call left a value in the same frame slot.
var x: boolean;
procedure p(a: 0 .. 3; expectUndefined: boolean);
begin
  assert isundefined(a) = expectUndefined "parameter state";
end;
startstate begin x := false end;
rule begin
  p(2, false);
  p(undefined, true);
  x := !x;
end;
