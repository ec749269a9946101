-- locus: verdict=fail kind=undefined-read
-- A literal tested before its loop fails where the body does: at j = 2,
-- the body reads u, never assigned.
var u: 0 .. 3;
    x: 0 .. 1;
startstate begin x := 0; endstartstate;
rule "step" x = 0 ==> begin x := 1; endrule;
invariant "reads u where j = 2" x = 0 | !exists j: 1 .. 2 do j != 1 & u = 1 endexists;
