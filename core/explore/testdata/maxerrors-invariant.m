-- locus: verdict=fail kind=invariant maxerrors=4 violations=4 codegen=covered
-- Several errors allowed: states failing the invariant are reported and
-- not kept, so one met again from another state is reported again, and
-- the search stops at the fourth report.
var x: 0 .. 3;
    y: 0 .. 3;
startstate begin x := 0; y := 0; end;
rule "x" x < 3 ==> begin x := x + 1; end;
rule "y" y < 3 ==> begin y := y + 1; end;
invariant "not three" x + y != 3;
