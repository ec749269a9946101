-- locus: verdict=fail kind=recursion-limit
-- Recursion past the closures' bound on nested calls: the generated code
-- stops far before it (at its own bound), and the closures report it.
var x: 0 .. 1;
    b: boolean;
function down(n: 0 .. 20000): boolean;
begin
  if n = 0 then return true; endif;
  return down(n - 1);
end;
startstate begin x := 0; b := false; end;
rule "shallow" x = 0 ==> begin b := down(50); x := 1; end;
rule "deep" x = 1 ==> begin b := down(10001); x := 0; end;
