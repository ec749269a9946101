-- locus: verdict=pass states=8 rules=8 codegen=covered
-- Several priority levels (a lower value first), a ruleset's instances at
-- one level, and a rule without a priority: only the enabled rules of the
-- lowest value fire.
var x: 0 .. 3; y: 0 .. 3; z: boolean;
startstate begin x := 0; y := 0; z := false end;
rule 5 "x up" x < 3 ==> begin x := x + 1 end;
ruleset i: 0 .. 1 do
  rule 1 "y up" y < 3 & x = i ==> begin y := y + 1 end;
end;
rule 5 "reset" x = 3 & y = 3 ==> begin x := 0; y := 0; z := !z end;
rule 9 "y down" y > 0 ==> begin y := y - 1 end;
rule "no priority" z & x = 0 ==> begin z := false end;
invariant "bounds" x <= 3;
