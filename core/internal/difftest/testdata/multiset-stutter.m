-- difftest: symmetry=off deadlock=stuttering maxerrors=1 bound=0
var m: multiset [2] of 0 .. 1;
startstate begin undefine m; multisetadd(1, m) end;
choose i: m do rule begin multisetremove(i, m); multisetadd(1, m) end end;
