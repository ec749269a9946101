-- Procedures and functions: results, arguments, var parameters, side
-- effects in guards and properties.
var x: 0 .. 3; y: 0 .. 7; bo: boolean;
procedure p(var v: 0 .. 3; w: boolean); begin v := 0 end;
function f(a: 0 .. 3): boolean; begin return a = 0 end;
function g(): boolean; begin return /* ERROR "function g must return a value" */ end;
function h(): boolean; begin return 1 /* ERROR "cannot return integer from function h, which returns boolean" */ end;
function m(): multiset /* ERROR "a function cannot return a multiset \[2\] of boolean" */ [2] of boolean; begin end;
procedure q(); begin return 1 /* ERROR "cannot return a value from procedure q; only functions return values" */ end;
procedure r(a: 0 .. 3); begin a /* ERROR "cannot assign to a: a is a value parameter \(declare it 'var' to modify it\)" */ := 1 end;
function bump(): boolean; begin x := 1; return true end;
function viaParam(var v: 0 .. 3): boolean; begin p(v, true); return true end;
startstate begin x := 0 end;
rule begin
  p(x, true);
  p(y /* ERROR "argument 1 of p has type 0..7, but var parameter v needs exactly 0..3" */, true);
  p(1 /* ERROR "argument 1 of p must be a variable, since parameter v is a var parameter" */, true);
  p(undefined /* ERROR "cannot pass 'undefined' to var parameter v" */, true);
  p(x, x /* ERROR "argument 2 of p has type 0..3, not compatible with parameter w of type boolean" */);
  p( /* ERROR "procedure p takes 2 argument\(s\), not 1" */ x);
  bo := p /* ERROR "procedure p has no result and cannot be used in an expression" */ (x, true);
  bo := f /* ERROR "function f used as a value; call it with \(\)" */;
  x /* ERROR "x is a variable, not a procedure or function" */ ();
  nothing /* ERROR "undefined: nothing" */ ();
  bo := f(undefined);
end;
rule bump /* ERROR "function bump changes the state, so it cannot be called in a rule guard" */ () ==> begin end;
rule viaParam /* ERROR "function viaParam changes the state" */ (x) ==> begin end;
invariant bump /* ERROR "function bump changes the state, so it cannot be called in" */ ();
alias b: bump /* ERROR "function bump changes the state, so it cannot be called in an alias rule's binding" */ () do
  rule begin x := 0 end;
end;
alias c: f(x) do
  rule begin x := 0 end;
end;
rule f(x) ==> begin end;
