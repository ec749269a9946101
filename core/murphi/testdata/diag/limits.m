-- Sizes Locus cannot store, and the one value a range gives up for
-- 'undefined'.
type low: - /* ERROR "range lower bound -9223372036854775808 is too small: one value is reserved for 'undefined'" */ 9223372036854775807 - 1 .. 0;
type ok: -9223372036854775807 .. 9223372036854775807;
var a: array [0 .. 1000000] of boolean;
var b /* ERROR "the state has more than 1048576 scalar components; Locus cannot store it" */ : array [0 .. 100000] of boolean;
startstate begin end;
