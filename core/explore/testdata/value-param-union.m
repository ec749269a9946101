-- locus: verdict=fail kind=range-error(assignment)
-- A union-typed value parameter assigned to a variable of one of its
-- parts is range-checked, as the closures do: c is not an E.
type E: enum { a, b }; F: enum { c, d }; U: union { E, F };
var e: E; u: U; n: 0 .. 3;
procedure store(x: U);
begin
  e := x;
end;
startstate begin e := a; u := a; n := 0; end;
rule "step" true ==> begin n := (n + 1) % 4; if n = 2 then u := c; else u := b; end; end;
rule "store" true ==> begin store(u); end;
