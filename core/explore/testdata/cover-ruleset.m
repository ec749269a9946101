-- locus: verdict=pass states=2 rules=4 deadlock=off codegen=covered
-- A cover counts per declaration and per statement, over every instance
-- of its ruleset (Rumur keeps one counter each): here each holds for one
-- parameter value only, and neither fails.
var x: boolean;
startstate begin x := false end;
ruleset i: boolean do
  rule begin cover "stmt" i; x := !x end;
  cover "prop" x = i;
end;
