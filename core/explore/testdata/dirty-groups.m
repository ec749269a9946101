-- locus: verdict=pass states=512 rules=1536
-- A record of ten slots written whole at a computed index, and through a
-- variable parameter, so that the write spans two of the generated code's
-- dirty groups (eight slots each): a change to the record's last field
-- must be seen as well as one to its first.
type rec: record a: 0 .. 3; b, c, d, e, f, g, h, i: boolean; j: 0 .. 3; end;
var arr: array[0 .. 1] of rec;
    k: 0 .. 1;

procedure bump(var r: rec);
begin
  r.j := (r.j + 1) % 4;
end;

startstate begin clear arr; k := 0 end;
rule "next" true ==> begin k := 1 - k end;
rule "copy" true ==>
var t: rec;
begin
  t := arr[k];
  t.a := (t.a + 1) % 4;
  t.j := (t.j + 1) % 4;
  arr[k] := t;
end;
rule "bump" true ==> begin bump(arr[k]) end;
