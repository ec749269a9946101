package murphi

// Hostile and degenerate input: nesting and chains far past any real model,
// oversized text, empty models, byte-order marks, and many syntax errors at
// once. Big inputs are generated here, never committed.

import (
	"fmt"
	"strings"
	"testing"
)

// frontEnd parses and, if that succeeds, checks src.
func frontEnd(src string) ErrorList {
	m, errs := ParseFile("t.m", []byte(src))
	if errs.HasErrors() {
		return errs
	}
	_, errs = Check(m)
	return errs
}

// nested builds a model whose rule nests one construct n levels deep.
type nestShape struct {
	name string
	// decls and body (inside a rule's begin ... end) for nesting n.
	model func(n int) string
}

func rep(s string, n int) string { return strings.Repeat(s, n) }

var nestShapes = []nestShape{
	{"chain of +", func(n int) string {
		return "var x: 0..1;\nstartstate begin x := 0; end;\nrule begin x := x" + rep(" + 0", n) + "; end;\n"
	}},
	{"chain of &", func(n int) string {
		return "var b: boolean;\nstartstate begin b := true; end;\nrule begin b := b" + rep(" & b", n) + "; end;\n"
	}},
	{"chain of ->", func(n int) string {
		return "var b: boolean;\nstartstate begin b := true; end;\nrule begin b := " + rep("b -> ", n) + "b; end;\n"
	}},
	{"parentheses", func(n int) string {
		return "var x: 0..1;\nstartstate begin x := 0; end;\nrule begin x := " + rep("(", n) + "x" + rep(")", n) + "; end;\n"
	}},
	{"unary minus", func(n int) string {
		return "var x: 0..1;\nstartstate begin x := 0; end;\nrule begin x := " + rep("- ", 2*(n/2)) + "x; end;\n"
	}},
	{"conditional", func(n int) string {
		return "var x: 0..1;\nstartstate begin x := 0; end;\nrule begin x := " + rep("x = 0 ? 1 : ", n) + "0; end;\n"
	}},
	{"index chain", func(n int) string {
		return "var a: array[0..1] of 0..1;\nstartstate begin a[0] := 0; a[1] := 0; end;\nrule begin a[0] := " + rep("a[", n) + "0" + rep("]", n) + "; end;\n"
	}},
	{"calls", func(n int) string {
		return "var x: 0..1;\nfunction f(y: 0..1): 0..1; begin return y; end;\nstartstate begin x := 0; end;\nrule begin x := " + rep("f(", n) + "x" + rep(")", n) + "; end;\n"
	}},
	{"if statements", func(n int) string {
		return "var x: 0..1;\nstartstate begin x := 0; end;\nrule begin " + rep("if x = 0 then ", n) + "x := 1;" + rep(" endif;", n) + " end;\n"
	}},
	{"array types", func(n int) string {
		return "var x: " + rep("array[0..0] of ", n) + "boolean;\nstartstate begin clear x; end;\nrule begin clear x; end;\n"
	}},
	{"rulesets", func(n int) string {
		return "var x: 0..1;\nstartstate begin x := 0; end;\n" + rep("ruleset i: 0..0 do ", n) + "rule begin x := 1 - x; end;" + rep(" end;", n) + "\n"
	}},
}

// TestNestingLimit: up to a depth well inside MaxNesting every shape is
// accepted; past it, and a million levels deep, each gets one located
// "too deeply nested" error instead of exhausting the stack.
func TestNestingLimit(t *testing.T) {
	for _, sh := range nestShapes {
		t.Run(sh.name, func(t *testing.T) {
			// Parentheses and rulesets cost the parser several levels each.
			if errs := frontEnd(sh.model(MaxNesting / 4)); errs.HasErrors() {
				t.Fatalf("depth %d: %v", MaxNesting/4, errs)
			}
			for _, n := range []int{MaxNesting + 1, 100_000, 1_000_000} {
				src := sh.model(n)
				if len(src) > MaxSourceBytes {
					continue // refused for its size instead
				}
				errs := frontEnd(src).Errors()
				if len(errs) != 1 || !strings.Contains(errs[0].Msg, "too deeply nested") {
					t.Fatalf("depth %d: got %v, want one 'too deeply nested' error", n, errs)
				}
				if errs[0].Pos.Line < 1 || errs[0].Pos.Col < 1 {
					t.Fatalf("depth %d: unlocated error %v", n, errs[0])
				}
			}
		})
	}
}

// TestChainsUpToTheLimit: a flat chain is accepted right up to the limit
// its statement and rule leave it.
func TestChainsUpToTheLimit(t *testing.T) {
	model := func(n int) string {
		return "var x: 0..1;\nstartstate begin x := 0; end;\nrule begin x := x" + rep(" + 0", n) + "; end;\n"
	}
	// rule > assignment > chain: the chain gets MaxNesting-2 levels, its
	// n operators and the leaf below them.
	ok := MaxNesting - 3
	if errs := frontEnd(model(ok)); errs.HasErrors() {
		t.Fatalf("%d operators: %v", ok, errs)
	}
	if errs := frontEnd(model(ok + 1)); !errs.HasErrors() {
		t.Fatalf("%d operators accepted", ok+1)
	}
}

func TestHeight(t *testing.T) {
	m, errs := ParseFile("t.m", []byte("var x: 0..1;\nrule begin x := (x + 1) * 2; end;\n"))
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	// rule > assign > * > ( ) > + > x
	if h, over := Height(m.Decls[1], 6); h != 6 || over != nil {
		t.Fatalf("Height = %d, %v; want 6, nil", h, over)
	}
	if _, over := Height(m.Decls[1], 5); over == nil {
		t.Fatal("no node past depth 5")
	}
}

func TestSourceTooLarge(t *testing.T) {
	src := "var x: boolean;\nstartstate begin x := true; end;\nrule begin x := !x; end;\n"
	big := src + rep("-- padding\n", (MaxSourceBytes-len(src))/11+1)
	if len(big) <= MaxSourceBytes {
		t.Fatalf("test input is only %d bytes", len(big))
	}
	errs := frontEnd(big)
	if len(errs) != 1 || !strings.Contains(errs[0].Msg, "too large") || errs[0].Pos.Line != 1 {
		t.Fatalf("got %v, want one 'too large' error at line 1", errs)
	}
	if errs := frontEnd(big[:MaxSourceBytes]); errs.HasErrors() {
		t.Fatalf("a model of exactly %d bytes: %v", MaxSourceBytes, errs)
	}
}

// TestNoStartState: an empty model, or one without a startstate, is an
// error located in the file (as the Murphi manual says), not a pass over
// zero states.
func TestNoStartState(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
		line, col       int
	}{
		{"empty file", "", "the model is empty", 1, 1},
		{"only comments", "-- nothing here\n/* or here */\n", "the model is empty", 3, 1},
		{"only a byte-order mark", "\uFEFF", "the model is empty", 1, 1},
		{"no startstate", "var x: boolean;\nrule begin x := !x; end;\n", "no startstate", 3, 1},
		{"startstate in a ruleset counts", "var x: boolean;\nruleset b: boolean do startstate begin x := b; end; end;\nrule begin x := !x; end;\n", "", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := frontEnd(tc.src).Errors()
			if tc.want == "" {
				if len(errs) > 0 {
					t.Fatalf("unexpected errors: %v", errs)
				}
				return
			}
			if len(errs) != 1 || !strings.Contains(errs[0].Msg, tc.want) {
				t.Fatalf("got %v, want %q", errs, tc.want)
			}
			if p := errs[0].Pos; p.Line != tc.line || p.Col != tc.col {
				t.Fatalf("at %d:%d, want %d:%d", p.Line, p.Col, tc.line, tc.col)
			}
		})
	}
}

// TestByteOrderMark: a UTF-8 BOM is skipped, and columns on the first line
// do not count it.
func TestByteOrderMark(t *testing.T) {
	const model = "var x: boolean;\nstartstate begin x := true; end;\nrule begin x := !x; end;\n"
	if errs := frontEnd("\uFEFF" + model); errs.HasErrors() {
		t.Fatalf("with a BOM: %v", errs)
	}
	errs := frontEnd("\uFEFFvar x: bogus;\n" + model[len("var x: boolean;\n"):]).Errors()
	if len(errs) == 0 || errs[0].Pos.Line != 1 || errs[0].Pos.Col != 8 {
		t.Fatalf("got %v, want an error at 1:8", errs)
	}
	// A BOM anywhere else is not white space.
	if errs := frontEnd("var x: boolean;\uFEFF\n" + model[len("var x: boolean;\n"):]); !errs.HasErrors() {
		t.Fatal("a BOM after the start was accepted")
	}
}

// TestManySyntaxErrors: the parser recovers at statement, rule and
// declaration boundaries and reports every independent mistake in one run,
// each once.
func TestManySyntaxErrors(t *testing.T) {
	src := `var x: 0..3;
var b: boolean;
startstate begin x := 0; b := false; end;
rule "missing then" x = 0 ==> begin if x = 1 x := 2; endif; end;
rule "fine" x = 1 ==> begin x := 2; end;
rule "bad expression" x = 2 ==> begin x := (x + ; end;
rule "missing arrow" b begin b := false; end;
invariant "dangling operator" x <= 3 &;
rule "missing semicolon" begin x := 1 b := true; end;
rule "assignment with =" begin x = 1; end;
`
	want := []string{
		"4:46: expected 'then'",
		"6:49: expected an expression",
		"7:24: expected '==>'",
		"8:39: expected an expression",
		"9:39: expected ';' between statements",
		"10:34: expected ':=' in assignment",
	}
	_, errs := ParseFile("t.m", []byte(src))
	var got []string
	for _, e := range errs.Errors() {
		got = append(got, fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg))
	}
	if len(got) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d: got %q, want prefix %q", i, got[i], want[i])
		}
	}
}
