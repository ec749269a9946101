package murphi

import (
	"strings"
	"testing"
)

// checkSrc parses and checks src, returning all error messages joined.
func checkSrc(t *testing.T, src string) string {
	t.Helper()
	m, errs := ParseFile("t.m", []byte(src))
	if !errs.HasErrors() {
		_, errs = Check(m)
	}
	var msgs []string
	for _, e := range errs.Errors() {
		msgs = append(msgs, e.Error())
	}
	return strings.Join(msgs, "\n")
}

// TestStateChangesInGuards: functions that change the state may not be
// called in guards or properties; reading through a var parameter is fine.
func TestStateChangesInGuards(t *testing.T) {
	const decls = `
type q_t: record n: 0..3; end;
var q: q_t; x: 0..3;
function empty(var q: q_t): boolean; begin return q.n = 0 end;
procedure pop(var q: q_t); begin q.n := 0 end;
function take(var q: q_t): boolean; begin pop(q); return true end;
function viaAlias(var q: q_t): boolean; begin alias m: q.n do m := 0 end; return true end;
function bump(): boolean; begin x := 1; return true end;
function check(): boolean; begin return empty(q) end;
function poke(): boolean; begin return take(q) end;
startstate begin q.n := 0; x := 0 end;
`
	for _, tc := range []struct {
		guard, want string // want: "" or a substring of the error
	}{
		{"empty(q)", ""},
		{"check()", ""},
		{"bump()", "changes the state"},
		{"take(q)", "changes the state"}, // writes through a call that writes its var parameter
		{"viaAlias(q)", "changes the state"},
		{"poke()", "changes the state"},
	} {
		got := checkSrc(t, decls+"rule "+tc.guard+" ==> begin x := 0 end;\n")
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("guard %s: got %q, want %q", tc.guard, got, tc.want)
		}
	}
}

// TestDiagnostics checks that common mistakes get located, specific messages.
func TestDiagnostics(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"var x: 0..3; rule begin x := y end;", "t.m:1:30: undefined: y"},
		{"rule begin x := 1 end; var x: 0..3;", "x is declared later, at line 1"},
		{"var x: 0..3; rule begin x = 1 end;", "use ':=' to assign"},
		{"var x: boolean; rule begin x := 1 end;", "cannot assign integer to x of type boolean"},
		{"const N: 3; rule begin N := 1 end;", "cannot assign to N: it is a constant"},
		{"type t: 3..1;", "empty range"},
		{"var x: 0..3; rule x ==> begin end;", "a rule guard must be a boolean"},
		{"var x: 0..3; rule begin for i := 0 to 3 by 0 do end end;", "the step of a loop cannot be 0"},
		{"procedure p(); begin return 1 end;", "cannot return a value from procedure p"},
		{"function f(): boolean; begin end; var x: boolean; rule begin x := f(1) end;", "takes 0 argument(s), not 1"},
		{"type e: enum {A, B}; type f: enum {B, C};", "B redeclared in this scope"},
		{"var x: 0..3; rule begin x := 09 end;", "invalid digit '9' in octal literal"},
		{"var x: 0..3; rule begin x := 1 + end;", "expected an expression"},
	} {
		got := checkSrc(t, tc.src)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s\ngot:  %q\nwant: %q", tc.src, got, tc.want)
		}
	}
}

// TestTooManyErrors: a run stops after MaxErrors errors, without panicking.
func TestTooManyErrors(t *testing.T) {
	src := "var x: 0..3;\nrule begin\n" + strings.Repeat("x := true;\n", 3*MaxErrors) + "end;\n"
	m, errs := ParseFile("t.m", []byte(src))
	if errs.HasErrors() {
		t.Fatalf("parse: %v", errs)
	}
	_, errs = Check(m)
	if n := len(errs.Errors()); n != MaxErrors {
		t.Fatalf("%d errors, want %d", n, MaxErrors)
	}
	bad := strings.Repeat("@ ", 3*MaxErrors)
	if _, errs := ParseFile("t.m", []byte(bad)); len(errs.Errors()) != MaxErrors {
		t.Fatalf("parse: %d errors, want %d", len(errs.Errors()), MaxErrors)
	}
}
