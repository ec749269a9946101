-- locus: verdict=pass states=3 rules=3 deadlock=off
-- clear sets each leaf to its minimum; undefine makes it undefined.
type e: enum { A, B, C };
var r: record a: 3 .. 5; b: e; c: boolean; end;
    n: 0 .. 2;
startstate begin n := 0; undefine r end;
rule n = 0 ==> begin clear r; n := 1 end;
rule n = 1 ==> begin
  assert r.a = 3 & r.b = A & !r.c "clear gives minimums";
  undefine r; n := 2;
end;
rule n = 2 ==> begin
  assert isundefined(r.a) & isundefined(r.b) & isundefined(r.c) "undefine";
end;
