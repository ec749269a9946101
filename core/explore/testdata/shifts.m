-- locus: verdict=pass states=2397 rules=373932 codegen=covered
-- Shifts of values the compiler cannot fold (arith.m's are constants):
-- a negative count shifts the other way, a count of 64 or more (either
-- way) gives 0, >> is arithmetic. Every (a, k) pair is a state, and each
-- invariant holds in all of them only with exactly these semantics.
var a: -8 .. 8;
var k: -70 .. 70;
startstate
begin
  a := 0;
  k := 0;
endstartstate;
ruleset x: -8 .. 8 do
  rule "a" a != x ==> begin a := x; endrule;
endruleset;
ruleset y: -70 .. 70 do
  rule "k" k != y ==> begin k := y; endrule;
endruleset;
invariant "64 or more gives 0" (k >= 64 | k <= -64) -> ((a << k) = 0 & (a >> k) = 0);
invariant "negative counts shift the other way" (k < 0 & k > -64) -> ((a << k) = (a >> (0 - k)) & (a >> k) = (a << (0 - k)));
invariant "<< then >> gives a back" (k >= 0 & k < 60) -> (((a << k) >> k) = a);
invariant "<< 1 doubles" (a << 1) = a + a;
invariant ">> floors" (k >= 0 & k < 8) -> (((a >> k) << k) <= a & a - ((a >> k) << k) < (1 << k));
invariant ">> 63 is the sign" (a >> 63) = (a < 0 ? -1 : 0);
