-- wide.m with 128 bits that never change: 4096 states, 13 levels, a state
-- of 140 bits (far more bits than levels).
var v: array [0..11] of boolean;
var pad: array [0..15] of 0..255;
startstate begin for i: 0..11 do v[i] := false; end; for i: 0..15 do pad[i] := i; end; end;
ruleset i: 0..11 do rule "set" !v[i] ==> begin v[i] := true; end; end;
rule "reset" forall i: 0..11 do v[i] end ==> begin for i: 0..11 do v[i] := false; end; end;
