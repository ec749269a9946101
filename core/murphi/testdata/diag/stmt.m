-- Statements: assignment targets, conditions, loops, switch, alias, return.
const N: 2;
type e: enum { a, b };
var x: 0 .. 3;
    bo: boolean;
    r: record f: boolean; end;
startstate begin x := 0 end;
rule begin
  x := /* ERROR "cannot assign boolean to x of type 0..3" */ bo;
  N /* ERROR "cannot assign to N: it is a constant" */ := 1;
  for i: e do i /* ERROR "cannot assign to i: i is a quantified variable \(read-only\)" */ := a end;
  if x /* ERROR "an if condition must be a boolean, not 0..3" */ then end;
  if bo then elsif x /* ERROR "an if condition must be a boolean, not 0..3" */ then end;
  while x /* ERROR "a while condition must be a boolean, not 0..3" */ do end;
  switch r /* ERROR "cannot switch on record" */ else end;
  switch x case a /* ERROR "case label of type e does not match switch value of type 0..3" */ : end;
  for i := 0 to bo /* ERROR "loop bounds must be integers, not boolean" */ do end;
  for i := 0 to 3 by bo /* ERROR "the step must be an integer, not boolean" */ do end;
  for i := 0 to 3 by 0 /* ERROR "the step of a loop cannot be 0" */ do end;
  for i := 3 to 0 by 1 /* ERROR "the step 1 goes the wrong way from 3 to 0: the loop would never end" */ do end;
  alias v: x + 1 do v /* ERROR "cannot assign to v: alias v names a value, not a variable" */ := 2 end;
  alias w: x do w := 2 end;
  alias v: x + 1 do clear v /* ERROR "cannot clear v: alias v names a value, not a variable" */ end;
  undefine N /* ERROR "cannot undefine N: it is a constant" */;
  assert x /* ERROR "the condition of assert must be a boolean, not 0..3" */;
  assume x /* ERROR "the condition of assume must be a boolean, not 0..3" */;
  put x;
  return x /* ERROR "cannot return a value from a rule; only functions return values" */;
end;
