-- 4096 states, 13 levels: the widest level holds 924 states.
var v: array [0..11] of boolean;
startstate begin for i: 0..11 do v[i] := false; end; end;
ruleset i: 0..11 do rule "set" !v[i] ==> begin v[i] := true; end; end;
rule "reset" forall i: 0..11 do v[i] end ==> begin for i: 0..11 do v[i] := false; end; end;
