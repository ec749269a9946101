-- locus: verdict=fail kind=overflow
-- The least value times -1 overflows (its magnitude is one past the
-- largest), with -1 on the right.
const MAXI: 9223372036854775807;
var a: -1 .. 0;
var x: 0 .. 1;
startstate begin a := 0; x := 0; end;
rule "down" a = 0 ==> begin a := -1; end;
rule "mul" a = -1 ==> begin x := ((-MAXI - 1) * a) % 2; end;
