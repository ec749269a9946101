-- locus: verdict=fail kind=cover states=2 rules=2 deadlock=off codegen=covered
-- A cover statement in a procedure nothing calls never holds (Rumur
-- counts every cover statement of the model).
var x: boolean;
procedure p(); begin cover "unreached" true end;
startstate begin x := false end;
rule begin x := !x end;
