-- locus: verdict=fail kind=deadlock
-- A state whose only successor is itself is deadlocked (stuttering).
var x: 0 .. 2;
startstate begin x := 0 end;
rule begin if x < 2 then x := x + 1 end end;
