-- Rules, rulesets, properties.
var x: 0 .. 3;
startstate begin x := 0 end;
rule x /* ERROR "a rule guard must be a boolean, not 0..3" */ ==> begin end;
invariant x /* ERROR "the condition of invariant must be a boolean, not 0..3" */;
assume "a" x /* ERROR "the condition of assume must be a boolean, not 0..3" */;
cover "c" x /* ERROR "the condition of cover must be a boolean, not 0..3" */;
liveness "l" x /* ERROR "the condition of liveness must be a boolean, not 0..3" */;
ruleset i: 0 .. 1 do
  rule begin i /* ERROR "cannot assign to i: i is a quantified variable" */ := 0 end;
  invariant x != i;
end;
alias y: x do
  rule begin y := 1 end;
end;
