package murphi

import (
	"strings"
	"testing"
)

// TestFoldCalls: a type bound may call a pure function of constants (Rumur
// folds such bounds); the bound gets the function's value. Anything that
// is not constant is rejected with the reason.
func TestFoldCalls(t *testing.T) {
	const funcs = `var g: 0..3;
type e: enum {lo, hi};
function one(): 0..1; begin return 1; end;
function zero(): 0..1; begin return 0; end;
function fact(n: 0..10): 0..3628800; begin if n = 0 then return 1; endif; return n * fact(n - 1); end;
function sum(n: 0..100): 0..5050; var s: 0..5050; begin s := 0; for i := 1 to n do s := s + i; endfor; return s; end;
function pick(v: e): 0..9; begin switch v case lo: return 2; else return 7; endswitch; end;
function spin(): 0..1; var k: 0..1; begin k := 0; while true do k := 1 - k; endwhile; return k; end;
function readG(): 0..3; begin return g; end;
function bump(): 0..3; begin g := 1; return 1; end;
function undef(): 0..3; var u: 0..3; begin return u; end;
function wide(n: 0..3): 0..3; begin return n * 2; end;
function fails(): 0..3; begin assert false "no"; return 0; end;
`
	for _, tc := range []struct {
		bound  string
		hi     int64  // the folded upper bound, if accepted
		reason string // else part of the error
	}{
		{"one()", 1, ""},
		{"(0 << one()) + 4", 4, ""},
		{"0 * readG() + 2", 2, ""}, // folds without the call, as Rumur does
		{"false ? readG() : 3", 3, ""},
		{"fact(5)", 120, ""},
		{"sum(10)", 55, ""},
		{"pick(hi)", 7, ""},
		{"one() + fact(one() + 2)", 7, ""},
		{"1 / zero()", 0, "divides by zero"},
		{"spin()", 0, "more than 1048576 steps"},
		{"readG()", 0, "reads the state variable g"},
		{"bump()", 0, "changes the state"},
		{"undef()", 0, "u is read while undefined"},
		{"wide(2)", 0, "returns 4, outside its type 0..3"},
		{"wide(5)", 0, "parameter n of wide gets 5, outside its type 0..3"},
		{"fails()", 0, "an assertion fails"},
		{"g", 0, "reads the state variable g"},
	} {
		t.Run(tc.bound, func(t *testing.T) {
			src := funcs + "type t: 0 .. " + tc.bound + ";\nvar x: t;\nstartstate begin clear x; g := 0; end;\nrule begin x := x; end;\n"
			m, errs := ParseFile("t.m", []byte(src))
			if errs.HasErrors() {
				t.Fatal(errs)
			}
			ck, errs := Check(m)
			if tc.reason != "" {
				if !errs.HasErrors() || !strings.Contains(errs.Error(), tc.reason) {
					t.Fatalf("got %v, want an error about %q", errs, tc.reason)
				}
				return
			}
			if errs.HasErrors() {
				t.Fatal(errs)
			}
			if x := ck.Globals[1]; x.Type.Hi != tc.hi {
				t.Fatalf("x: %s, want 0..%d", x.Type, tc.hi)
			}
		})
	}
	// A constant declaration still may not call a function (Rumur's
	// const-of-function-call.m).
	if errs := frontEnd(funcs + "const N: one();\nstartstate begin g := 0; end;\n"); !errs.HasErrors() {
		t.Fatal("const N: one() accepted")
	}
}
