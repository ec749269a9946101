-- locus: verdict=pass codegen=covered
-- Products at the edges of 64-bit arithmetic that do not overflow: with
-- -1 on either side, with the largest values, and one that is exactly
-- the least value. Generated code must compute them, not give up.
const MAXI: 9223372036854775807;
type small: -2 .. 2;
var a: small;
var b: small;
var p: -4 .. 4;
var m: boolean;
startstate begin a := -2; b := -2; p := 4; m := true; end;
ruleset i: small; j: small do
  rule "mul" begin a := i; b := j; p := i * j; end;
endruleset;
rule "edges" a = -1 ==>
begin
  m := (a * MAXI = -MAXI) & (MAXI * a = -MAXI) & ((-MAXI) * a = MAXI) & (a * a = 1)
     & ((a + 3) * ((-MAXI - 1) / 2) = -MAXI - 1) & (((-MAXI - 1) / 2) * (a + 3) = -MAXI - 1)
     & ((a + 1) * (-MAXI - 1) = 0) & (a * 0 = 0);
  assert m "a product at the edge";
end;
