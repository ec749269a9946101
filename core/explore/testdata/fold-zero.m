-- locus: verdict=fail kind=undefined-read states=1 rules=0
-- x * 0 still reads x when the rule runs, as Rumur evaluates it: reading
-- the undefined x is an error, though the checker folds x * 0 to 0 (which
-- Rumur allows in type bounds).
var x, y: 0 .. 1;
startstate begin y := 0 end;
rule begin y := x * 0 end;
