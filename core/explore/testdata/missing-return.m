-- locus: verdict=fail kind=missing-return
var x: boolean;
function f(): boolean; begin if false then return true end end;
startstate begin x := f() end;
