-- difftest: symmetry=off deadlock=stuttering maxerrors=1 bound=0
-- A recursive function is inlined once at its first call site, and its
-- first recursive call compiled its body as a procedure: that rebound its
-- parameters to the procedure's frame for the rest of the inlined body,
-- whose arguments (n - 1, a) then read the caller's frame at the wrong
-- slots whenever the caller's frame held something before them (a rule's
-- local variable, an alias of a value). Locus failed R2 and R3 with
-- "value -1 is out of range for parameter n".
type r: 0 .. 2;
var v: r;
var w: r;
function rec(n: 0 .. 600; a: r): r;
begin
  if n = 0 then return a; endif;
  return rec(n - 1, a);
end;
startstate
begin
  v := 2;
  w := 0;
endstartstate;
rule "R1"
begin
  v := (v + 1) % 3;
endrule;
rule "R2"
var x: r;
begin
  x := v;
  w := rec(2, x);
endrule;
rule "R3"
begin
  alias e: 1 - w do
    v := rec(1, 0);
  endalias;
endrule;
