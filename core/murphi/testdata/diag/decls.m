-- Names and declarations: redeclarations, uses before declarations,
-- constants that are not constant, names of the wrong kind.
const N: 3;
const K: N * 2;
type t: 0 .. N;
var x: t;
var x /* ERROR "x redeclared in this scope" */ : boolean;
var y: u /* ERROR "undefined type: u" */;
const C: x /* ERROR "the value of constant C is not a constant expression" */;
type e: enum { a, b };
type f: enum { b /* ERROR "b redeclared in this scope" */, c };
var z: N /* ERROR "N is a constant, not a type" */;
const D: e /* ERROR "type e used as a value" */;
startstate begin x := 0 end;
rule begin w /* ERROR "undefined: w \(w is declared later, at line 16" */ := 1 end;
var w: 0 .. 1;
rule begin v /* ERROR "^undefined: v$" */ := 1 end;
procedure p(); var x: boolean; begin x := true end; -- a local shadows a global
procedure q(a: boolean; a /* ERROR "a redeclared in this scope" */ : boolean); begin end;
