-- A literal above 2^63-1 makes every integer of the model unsigned 64-bit.
const BIG: 18446744073709551614;
type r: 0 .. BIG;
type full: 0 /* ERROR "range 0 .. 18446744073709551615 has 2\^64 values" */ .. 18446744073709551615;
var x: r;
startstate begin x := 0 end;
rule begin x := - /* ERROR "negative values are not allowed: this model uses unsigned 64-bit integers" */ 1 end;
rule begin x := BIG /* WARNING "18446744073709551615 is outside x's range r; this assignment fails when it runs" */ + 1 end;
