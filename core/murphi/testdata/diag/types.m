-- Type expressions: ranges, scalarsets, unions, records, arrays, multisets.
type e: enum { a, b };
type s: scalarset(2);
type t: 0 .. 3;
type r1: 3 /* ERROR "empty range 3 .. 1: the upper bound is below the lower bound" */ .. 1;
type r2: 0 .. x /* ERROR "undefined: x" */;
type r3: 0 .. true /* ERROR "the upper bound of a range must be an integer, not boolean" */;
type ss: scalarset(0 /* ERROR "scalarset size must be between 1 and 16777216, not 0" */);
type u1: union { e, e /* ERROR "e appears twice in the union" */ };
type u2: union /* ERROR "a union needs at least two member types" */ { e };
type u3: union { e, t /* ERROR "a union can only combine enum and scalarset types, not t" */ };
type rec: record f: boolean; f /* ERROR "duplicate field f in record" */ : t; end;
type arr: array [rec /* ERROR "an array index must be a boolean, enum, subrange, scalarset or union type, not rec" */] of boolean;
type ms: multiset [0 /* ERROR "multiset size must be between 1 and 16777216, not 0" */] of boolean;
type wide: array [0 /* ERROR "array index type 0..100000000 has too many values" */ .. 100000000] of boolean;
type many: array /* ERROR "has more than 1048576 scalar components" */ [0 .. 2000] of array [0 .. 2000] of boolean;
var anon: scalarset /* WARNING "an anonymous scalarset type gives no symmetry reduction" */ (2);
startstate begin end;
