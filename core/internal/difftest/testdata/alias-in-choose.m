-- difftest: symmetry=off deadlock=off maxerrors=1 bound=0
var m: multiset [2] of 0 .. 1; x: 0 .. 1;
startstate begin undefine m; multisetadd(1, m); x := 0 end;
choose i: m do
  alias v: m[i] + 0 do
    rule begin x := v end;
  end;
end;
