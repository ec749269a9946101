-- locus: verdict=fail kind=undefined-read maxerrors=2 violations=2 states=1 rules=0 deadlock=off
-- A state whose cover property fails to evaluate is stored but not
-- expanded (Rumur does not queue it), even when the search goes on; the
-- cover then never held.
var x, y: boolean;
startstate begin x := false end;
rule begin x := !x end;
cover "y" y;
