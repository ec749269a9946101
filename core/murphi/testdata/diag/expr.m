-- Expressions: operand types, indexing and fields, constant folding.
type e: enum { a, b };
type s: scalarset(2);
type rt: record f: boolean; end;
var x: 0 .. 3;
    bo: boolean;
    ev: e;
    sv: s;
    r: record f: boolean; end;
    ar: array [0 .. 1] of boolean;
startstate begin x := 0 end;
rule begin
  x := bo + /* ERROR "arithmetic \(\+\) needs integers, not boolean" */ 1;
  bo := ! /* ERROR "operator ! needs a boolean, not 0..3" */ x;
  x := - /* ERROR "unary - needs an integer, not boolean" */ bo;
  bo := bo < /* ERROR "operator < compares integers, not boolean and boolean" */ bo;
  bo := sv < /* ERROR "operator < compares integers, not s and s" */ sv;
  bo := ev = /* ERROR "cannot compare e with 0..3" */ x;
  bo := bo & /* ERROR "operator & needs two booleans \(logical\) or two integers \(bitwise\), not boolean and 0..3" */ x;
  bo := bo -> /* ERROR "operator -> needs booleans, not 0..3" */ x;
  x := x ^ /* ERROR "operator \^ needs integers, not boolean" */ bo;
  x := bo ? /* ERROR "the branches of \?: have incompatible types 0..3 and boolean" */ x : bo;
  x := x /* ERROR "the condition of \?: must be a boolean, not 0..3" */ ? 1 : 2;
  bo := ar[ev /* ERROR "index of type e cannot index an array over 0..1" */];
  bo := x[ /* ERROR "cannot index x: it is a 0..3, not an array" */ 0];
  bo := r.g /* ERROR "r has no field g" */;
  bo := x. /* ERROR "x has no field f: it is a 0..3, not a record" */ f;
  bo := exists i: 0 .. 1 do isundefined(i /* ERROR "isundefined needs a variable, not a value" */) end;
  bo := isundefined(r /* ERROR "isundefined needs a variable of simple type, not record" */);
  bo := ismember /* ERROR "ismember\(x, T\) needs a simple value and an enum or scalarset type" */ (r, e);
  x := x / /* ERROR "^division by zero$" */ 0;
  x := 1 % /* ERROR "division by zero in constant expression" */ 0;
  x := 9223372036854775807 + /* ERROR "constant \+ overflows 64-bit integers" */ 1;
  bo := exists i: 0 .. 1 do i /* ERROR "the body of exists must be a boolean, not 0..1" */ end;
  bo := forall i: rt /* ERROR "cannot quantify over rt: it is not a simple ordinal type" */ do true end;
  bo := forall i: r /* ERROR "r is a variable, not a type" */ do true end;
  x := 7 /* WARNING "7 is outside x's range 0..3; this assignment fails when it runs" */;
  x := 0 * x; -- folds to 0 without an error
end;
