-- locus: verdict=pass states=13440 rules=147840
-- Switches whose case values are constants branch through a table (a
-- br_table; a jump table in the translated program): a value listed twice
-- (its first case wins), values outside the table's span and between its
-- cases (the else, or nothing without one), negative values, returns from
-- inside cases, an enum, a switch nested in a case, one with too few
-- values for a table and one with a value that is not a constant (both
-- chains): each against the closures, and each against the same choice
-- written with ifs (an invariant and an assert).
type V: -3 .. 12; E: enum { e0, e1, e2, e3, e4, e5, e6, e7, e8, e9 };
var v: V; e: E; w: 0 .. 20; k: 0 .. 3;

function classify(x: V): 0 .. 5;
begin
  switch x
  case -3, 0: return 1;
  case 1, 2, 0: return 2;
  case 5, 7, 9: if x = 7 then return 3; end; return 4;
  end;
  return 0;
end;

function classifyIf(x: V): 0 .. 5;
begin
  if x = -3 | x = 0 then return 1;
  elsif x = 1 | x = 2 then return 2;
  elsif x = 7 then return 3;
  elsif x = 5 | x = 9 then return 4;
  end;
  return 0;
end;

procedure stepIf(var t: 0 .. 20; x: E);
begin
  if x = e0 | x = e9 then t := (t + 1) % 21;
  elsif x = e1 | x = e2 | x = e3 then
    t := (t + 2) % 21;
    if t <= 4 then t := t + 5; elsif t = 10 | t = 11 then t := 0; end;
  elsif x = e5 then t := 20 - t;
  else t := t / 2;
  end;
end;

procedure step(var t: 0 .. 20; x: E);
begin
  switch x
  case e0, e9: t := (t + 1) % 21;
  case e1, e2, e3:
    t := (t + 2) % 21;
    switch t
    case 0, 1, 2, 3, 4: t := t + 5;
    case 10, 11: t := 0;
    else t := t + 0;
    end;
  case e5: t := 20 - t;
  else t := t / 2;
  end;
end;

startstate begin v := -3; e := e0; w := 0; k := 0; end;

rule "v" true ==>
begin
  v := (v = 12) ? -3 : v + 1;
  w := (w + classify(v)) % 21;
end;

ruleset x: E do
  rule "e" e != x ==>
  var t: 0 .. 20;
  begin
    t := w; stepIf(t, x);
    e := x; step(w, x);
    assert w = t "step and stepIf agree";
  end;
end;

rule "k" true ==>
begin
  switch w
  case k, 3: k := (k = 3) ? 0 : k + 1;
  case 4, 5, 6, 7: k := 0;
  end;
  switch v
  case -3, 12: w := w % 7;
  end;
end;

invariant "classify and classifyIf agree"
  forall x: V do classify(x) = classifyIf(x) end;
