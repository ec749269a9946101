-- locus: verdict=fail kind=loop-limit scale=work
-- Recursion whose loops together pass the closures' step limit (2^26
-- loop iterations and calls per rule): the generated code counts them as
-- it goes and stops before, and the closures report it.
var x: 0 .. 1;
    b: boolean;
function spin(n: 0 .. 100): boolean;
begin
  for i := 1 to 1000000 do endfor;
  if n = 0 then return true; endif;
  return spin(n - 1);
end;
startstate begin x := 0; b := false; end;
rule "few" x = 0 ==> begin b := spin(3); x := 1; end;
rule "many" x = 1 ==> begin b := spin(80); x := 0; end;
