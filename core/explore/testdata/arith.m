-- locus: verdict=pass states=2 rules=2
-- C semantics: / truncates toward zero, % takes the dividend's sign;
-- shifts are total (negative shifts the other way, >= 64 gives 0).
var x: boolean;
startstate begin x := false end;
rule begin
  assert -7 / 2 = -3 "div truncates";
  assert -7 % 2 = -1 "mod sign";
  assert 7 % -2 = 1 "mod sign 2";
  assert (1 << 3) = 8 & (8 >> 2) = 2 & (-3 >> 1) = -2 "shifts";
  assert (1 << -1) = 0 & (4 << -1) = 2 & (1 << 64) = 0 "total shifts";
  assert (6 & 3) = 2 & (6 | 3) = 7 & (6 ^ 3) = 5 & ~0 = -1 "bitwise";
  assert 0x10 = 16 & 010 = 8 "literals";
  assert (true ? 1 : 2) = 1 "ternary";
  x := !x;
end;
