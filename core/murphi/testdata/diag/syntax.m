-- Syntax errors: the parser reports each at the token where the text goes
-- wrong and recovers at the next statement or declaration.
var x: 0 .. 3;
var y /* ERROR "expected ':' after 'y' in var declaration" */ 0 .. 3;
rule begin x = /* ERROR "expected ':=' in assignment, found '=' \(use ':=' to assign\)" */ 1 end;
rule begin x := 09 /* ERROR "invalid digit '9' in octal literal 09 \(a leading 0 means octal\)" */ end;
rule begin x := 1 + end /* ERROR "expected an expression, found 'end'" */;
rule begin if x = 1 x /* ERROR "expected 'then', found identifier 'x'" */ := 2 end end;
rule begin isundefined /* ERROR "expected 'end' to close the rule" */ (x) end;
rule begin x := 99999999999999999999 /* ERROR "integer literal 99999999999999999999 is too large \(at most 64 bits\)" */ end;
startstate begin x := 0 end;
