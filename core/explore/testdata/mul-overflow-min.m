-- locus: verdict=fail kind=overflow
-- -1 times the least value overflows, with the least value on the right.
const MAXI: 9223372036854775807;
var a: -1 .. 0;
var x: 0 .. 1;
startstate begin a := 0; x := 0; end;
rule "down" a = 0 ==> begin a := -1; end;
rule "mul" a = -1 ==> begin x := (a * (-MAXI - 1)) % 2; end;
