-- A torus of 480 states where every rule is a cycle: a search that forgets
-- states must keep the right ones to terminate. The progress measure
-- decreases when a wraps around (a regress transition).
const N: 60;
var a: 0..N-1; b: 0..3; c: boolean;
--@progress a
startstate begin a := 0; b := 0; c := false; end;
rule "step" true ==> begin a := (a + 1) % N; end;
rule "turn" true ==> begin b := (b + 1) % 4; end;
rule "flip" true ==> begin c := !c; end;
