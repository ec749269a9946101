-- locus: verdict=fail kind=division-by-zero states=1 rules=0
-- 0 / x divides when the rule runs, even though the checker folds it to 0.
var x, y: 0 .. 1;
startstate begin x := 0; y := 0 end;
rule begin y := 0 / x end;
