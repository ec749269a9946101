-- locus: verdict=fail kind=undefined-read
-- A scalar value parameter passed as its value may be undefined: reading
-- it is an error, as in the closures.
type P: 1 .. 3;
var n: 0 .. 9; u: P;
procedure readu(x: P; y: P);
begin
  n := y + 1;
  if x > 1 then n := 0; end;
end;
startstate begin n := 0; undefine u; end;
rule "count" n < 3 ==> begin n := n + 1; end;
rule "read undefined" n = 3 ==> begin readu(u, 2); end;
