-- locus: verdict=pass
-- Recursion whose frames (10,000 slots each, 31 deep) outgrow the frame
-- area the generated code keeps for recursion, though not the closures'
-- stack: the generated code must stop at its bound, never write past it.
var x: 0 .. 3;
procedure fill(n: 0 .. 30; var y: 0 .. 3);
var big: array [0 .. 9999] of 0 .. 3;
begin
  big[n] := y;
  if n > 0 then fill(n - 1, y); endif;
  y := (big[n] + 1) % 4;
end;
startstate begin x := 0; end;
rule "fill" begin fill(30, x); end;
