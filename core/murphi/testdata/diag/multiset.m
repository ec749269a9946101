-- CMurphi multisets: elements, indices, choose.
var m: multiset [2] of 0 .. 3; x: 0 .. 3; bo: boolean;
startstate begin undefine m; x := 0 end;
rule begin
  multisetadd(true /* ERROR "cannot add boolean to a multiset of 0..3" */, m);
  multisetadd(1, x /* ERROR "multisetadd needs a multiset, not 0..3" */);
  multisetremove(x /* ERROR "multisetremove needs a choose index over that multiset" */, m);
  multisetremove(0, x /* ERROR "multisetremove needs a multiset, not 0..3" */);
  x := m[0 /* ERROR "a multiset can only be indexed by a choose variable over it" */];
  x := multisetcount(i: x /* ERROR "x is not a multiset" */, true);
  x := multisetcount(i: m, x /* ERROR "the condition of multisetcount must be a boolean, not 0..3" */);
  bo := m = /* ERROR "multisets and multiset indices cannot be compared" */ m;
  multisetremovepred(i: m, m[i] = 1);
end;
choose i: m do
  rule m[i] = 0 ==> begin i /* ERROR "cannot assign to i: i is a multiset index" */ := 0; multisetremove(i, m) end;
end;
