-- locus: verdict=pass states=2 rules=2 codegen=covered
-- CMurphi priorities: only enabled rules of the lowest priority value fire.
var x: boolean;
startstate begin x := false end;
rule 10 "low" true ==> begin x := !x end;
rule 50 "never fires" true ==> begin error "priority ignored" end;
