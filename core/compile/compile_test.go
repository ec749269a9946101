package compile_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
)

// build parses, checks and compiles src.
func build(t *testing.T, src string) *compile.Model {
	t.Helper()
	ast, errs := murphi.ParseFile("t.m", []byte(src))
	if errs.HasErrors() {
		t.Fatalf("parse: %v\n%s", errs, src)
	}
	ck, errs := murphi.Check(ast)
	if errs.HasErrors() {
		t.Fatalf("check: %v\n%s", errs, src)
	}
	m, err := compile.Compile(ck)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return m
}

// leaves prints the layout: "name bits@offset" per leaf.
func leaves(m *compile.Model) string {
	var parts []string
	for _, l := range m.Leaves {
		parts = append(parts, fmt.Sprintf("%s %d@%d", l.Name, l.Bits, l.Offset))
	}
	return strings.Join(parts, ", ")
}

// TestLayout: every scalar leaf gets ceil(log2(values+1)) bits (the extra
// code is undefined), in declaration order, records field by field, arrays
// in index order, multiset entries as a presence bit and the element.
func TestLayout(t *testing.T) {
	for _, tc := range []struct {
		decls string
		want  string
		bits  int
	}{
		{"var b: boolean;", "b 2@0", 2},
		{"var x: 0 .. 2;", "x 2@0", 2},
		{"var x: 0 .. 3;", "x 3@0", 3},
		{"var x: -5 .. 10;", "x 5@0", 5},
		{"type e: enum { a, b, c }; var x: e;", "x 2@0", 2},
		{"type s: scalarset(4); var x: s;", "x 3@0", 3},
		{"type e: enum { a, b }; type s: scalarset(3); type u: union { e, s }; var x: u;", "x 3@0", 3},
		{"var r: record f: boolean; g: 0 .. 6; end;", "r.f 2@0, r.g 3@2", 5},
		{"var a: array [1 .. 3] of boolean;", "a[1] 2@0, a[2] 2@2, a[3] 2@4", 6},
		{"type e: enum { p, q }; var a: array [e] of array [boolean] of 0 .. 1;",
			"a[p][false] 2@0, a[p][true] 2@2, a[q][false] 2@4, a[q][true] 2@6", 8},
		{"var m: multiset [2] of 0 .. 2;", "m{0} 1@0, m{0} 2@1, m{1} 1@3, m{1} 2@4", 6},
		{"var x: 0 .. 1; y: 0 .. 1000;", "x 2@0, y 10@2", 12},
	} {
		m := build(t, tc.decls+"\nstartstate begin end;")
		got := leaves(m)
		// Multiset elements are named by their entry; the presence flag
		// comes first.
		if got != tc.want || m.StateBits != tc.bits || m.StateBytes != (tc.bits+7)/8 {
			t.Errorf("%s\n got  %s (%d bits, %d bytes)\n want %s (%d bits)", tc.decls, got, m.StateBits, m.StateBytes, tc.want, tc.bits)
		}
	}
}

// TestPackRoundTrip: packing then unpacking gives the slots back, for
// leaves of every width (up to 64 bits, across word boundaries), undefined
// included.
func TestPackRoundTrip(t *testing.T) {
	m := build(t, `
type e: enum { a, b, c }; s: scalarset(3); u: union { e, s };
var f: boolean; g: -3 .. 3; h: 0 .. 4611686018427387903; i: u;
    j: array [0 .. 9] of 0 .. 1000000; k: -9223372036854775807 .. 9223372036854775807;
    l: multiset [3] of record x: e; y: 0 .. 2; end;
startstate begin end;`)
	r := rand.New(rand.NewPCG(1, 2))
	vals := func(l compile.Leaf) int64 {
		if r.IntN(5) == 0 {
			return m.Undef
		}
		switch l.Kind {
		case compile.LeafPresent:
			return 1
		case compile.LeafUnion:
			p := l.Parts[r.IntN(len(l.Parts))]
			return p.Lo + r.Int64N(p.Hi-p.Lo+1)
		}
		if l.Count > 1<<62 {
			return l.Lo + int64(r.Uint64()%l.Count)
		}
		return l.Lo + r.Int64N(int64(l.Count))
	}
	up := m.NewUnpacker()
	buf := make([]byte, m.StateBytes)
	got := make([]int64, m.NumSlots)
	for n := 0; n < 1000; n++ {
		slots := make([]int64, m.NumSlots)
		for i, l := range m.Leaves {
			slots[i] = vals(l)
		}
		m.Pack(slots, buf)
		up.Unpack(buf, got)
		if !slices.Equal(slots, got) {
			t.Fatalf("round trip:\n %v\n %v", slots, got)
		}
	}
	// Equal states pack equal; different ones differ.
	a, b := make([]int64, m.NumSlots), make([]int64, m.NumSlots)
	for i := range a {
		a[i], b[i] = m.Undef, m.Undef
	}
	b[len(b)-1] = m.Leaves[len(b)-1].Lo
	pa, pb := make([]byte, m.StateBytes), make([]byte, m.StateBytes)
	m.Pack(a, pa)
	m.Pack(b, pb)
	if string(pa) == string(pb) {
		t.Fatal("an undefined leaf and a defined one pack alike")
	}
}

// TestSortMultisets: multiset entries sort into one order, whatever order
// they were added in.
func TestSortMultisets(t *testing.T) {
	src := `var m: multiset [3] of 0 .. 5;
startstate begin multisetadd(%s, m); multisetadd(%s, m); end;`
	var forms []string
	for _, order := range [][2]string{{"4", "1"}, {"1", "4"}} {
		m := build(t, strings.ReplaceAll(strings.Replace(strings.Replace(src, "%s", order[0], 1), "%s", order[1], 1), "%%", "%"))
		mc := m.NewMachine()
		if err, _ := mc.RunStart(0); err != nil {
			t.Fatal(err)
		}
		s := append([]int64(nil), mc.State()...)
		m.SortMultisets(s)
		forms = append(forms, m.FormatState(s))
	}
	if forms[0] != forms[1] {
		t.Fatalf("two orders, two forms:\n%s---\n%s", forms[0], forms[1])
	}
	if !strings.HasPrefix(forms[0], "m{0}:absent") {
		t.Fatalf("absent entries sort first:\n%s", forms[0])
	}
}

// start runs start state 0 of src and returns the state as leaf -> value.
func start(t *testing.T, src string) map[string]string {
	t.Helper()
	m := build(t, src)
	mc := m.NewMachine()
	if err, assumed := mc.RunStart(0); err != nil || assumed {
		t.Fatalf("start state: %v (assumed %v)\n%s", err, assumed, src)
	}
	out := map[string]string{}
	for i := range m.Leaves {
		out[m.Leaves[i].Name] = m.FormatLeaf(i, mc.State()[i])
	}
	return out
}

// stmtDecls are the variables the statement tests write.
const stmtDecls = `
type e: enum { ea, eb, ec };
     s: scalarset(2);
     u: union { e, s };
     r: record f: 0 .. 9; g: boolean; end;
var x, y: -10 .. 10;
    b: boolean;
    c: e;
    z: s;
    w: u;
    rec, rec2: r;
    arr: array [0 .. 2] of 0 .. 9;
    ms: multiset [3] of 0 .. 9;
`

// TestStatements runs each statement form and checks the state it leaves.
func TestStatements(t *testing.T) {
	const fns = `
procedure bump(var v: -10 .. 10; d: -10 .. 10); begin v := v + d end;
function fact(n: 0 .. 5): 0 .. 200; begin if n = 0 then return 1 end; return n * fact(n - 1) end;
function pair(a: 0 .. 9): r; var t: r; begin t.f := a; t.g := a > 4; return t end;
function first(): 0 .. 9; begin for i := 0 to 9 do if i * i > 10 then return i end end; return 0 end;
`
	for _, tc := range []struct {
		body string
		want string // "leaf=value" pairs
	}{
		{"x := 3; y := x + 2", "x=3 y=5"},
		{"x := -7 / 2; y := -7 % 2", "x=-3 y=-1"},     // C: truncation, sign of the dividend
		{"x := 7 % -2; y := (0 - 9) / 4", "x=1 y=-2"}, // remainder follows the dividend
		{"x := 1 << 3; y := -8 >> 1", "x=8 y=-4"},     // arithmetic shift
		{"x := 5 & 3; y := 5 | 3", "x=1 y=7"},         // bitwise on integers
		{"x := 5 ^ 3; y := ~0", "x=6 y=-1"},
		{"b := 3 < 4 & !(2 >= 5) -> false", "b=false"},
		{"b := true | (x = 0)", "b=true"}, // short-circuit: x is not read
		{"b := false; x := b ? 1 : 2", "x=2"},
		{"if false then x := 1 elsif true then x := 2 else x := 3 end", "x=2"},
		{"c := eb; switch c case ea: x := 1 case eb, ec: x := 2 else x := 3 end", "x=2"},
		{"x := 0; for i := 1 to 4 do x := x + i end", "x=10"},
		{"x := 0; for i := 10 to 1 by -3 do x := x + 1 end; y := 0; for i := 1 to 0 do y := 1 end", "x=4 y=0"},
		{"x := 0; for v: e do x := x + 1 end", "x=3"},
		{"x := 0; while x < 5 do x := x + 2 end", "x=6"},
		{"x := 0; b := exists i: 0 .. 3 do i = 2 end; y := 0", "b=true"},
		{"b := forall i: e do i != eb end", "b=false"},
		{"x := 1; alias a: x do a := a + 1 end", "x=2"},
		{"arr[0] := 0; arr[1] := 1; x := 0; alias a: arr[x] do x := 1; a := 7 end", "arr[0]=7 arr[1]=1"}, // bound when entered
		{"x := 1; bump(x, 4)", "x=5"},
		{"x := fact(4) - 20", "x=4"},
		{"rec := pair(7)", "rec.f=7 rec.g=true"},
		{"x := first()", "x=4"},
		{"clear rec; clear c; clear z; clear w; clear x", "rec.f=0 rec.g=false c=ea z=s_1 w=ea x=-10"},
		{"x := 1; undefine x; undefine rec", "x=undefined rec.f=undefined rec.g=undefined"},
		{"x := 1; x := undefined", "x=undefined"},
		{"rec.f := 1; rec2 := rec", "rec2.f=1 rec2.g=undefined"}, // aggregates copy undefined parts
		{"rec.f := 1; rec2.f := 1; b := rec = rec2", "b=true"},   // undefined compares equal to undefined
		{"c := ec; w := c; c := ea; c := w", "c=ec w=ec"},
		{"clear z; w := z; b := ismember(w, s)", "b=true w=s_1"},
		{"b := isundefined(x); y := 1", "b=true"},
		{"undefine ms; multisetadd(3, ms); multisetadd(5, ms); x := multisetcount(i: ms, ms[i] > 4)", "x=1"},
		{"undefine ms; multisetadd(3, ms); multisetadd(5, ms); multisetremovepred(i: ms, ms[i] = 3); x := multisetcount(i: ms, true)", "x=1"},
		{"x := 1; return; x := 2", "x=1"},
		{"put \"hello\"; put x; x := 4", "x=4"},
	} {
		t.Run(tc.body, func(t *testing.T) {
			got := start(t, stmtDecls+fns+"startstate begin "+tc.body+" end;")
			for _, kv := range strings.Fields(tc.want) {
				k, v, _ := strings.Cut(kv, "=")
				if got[k] != v {
					t.Errorf("%s = %s, want %s", k, got[k], v)
				}
			}
		})
	}
}

// TestRuntimeErrors: each run-time error has its kind and the position of
// the construct that failed.
func TestRuntimeErrors(t *testing.T) {
	const fns = `
function down(n: 0 .. 20000): 0 .. 1; begin if n = 0 then return 0 end; return down(n - 1) end;
function none(): boolean; begin end;
procedure small(p: 0 .. 3); begin end;
`
	for _, tc := range []struct {
		body string
		at   string // the failing construct: its first occurrence in body
		kind string
		msg  string // part of the message, if given
	}{
		{"x := y + 1", "y", compile.ErrUndefinedRead, ""},
		{"clear rec; x := rec.f + rec2.f", "rec2.f", compile.ErrUndefinedRead, ""},
		{"x := 3; arr[x] := 1", "x]", compile.ErrIndex, ""},
		{"x := 11 - 2; x := x + 5", ":= x", compile.ErrRangeAssign, "value 14 is out of range for"},
		{"x := 0; y := 5 / x", "/", compile.ErrDivZero, ""},
		{"x := 0; y := 5 % x", "%", compile.ErrDivZero, ""},
		{"x := 0; for i := 0 to 3 by x do end", "i :=", compile.ErrForStepZero, ""},
		{"x := 1; y := x * 9223372036854775807 * 2", "* 2", compile.ErrOverflow, ""},
		{"x := 0; assert x = 1 \"one\"", "assert", compile.ErrAssertion, ""},
		{"error \"stop\"", "error", compile.ErrErrorStmt, ""},
		{"undefine ms; for i := 0 to 3 do multisetadd(1, ms) end", "multisetadd", compile.ErrMultisetFull, ""},
		{"x := down(15000)", "fn:down(n - 1)", compile.ErrRecursion, ""}, // the call one too deep
		{"b := none()", "none", compile.ErrNoReturn, ""},
		{"x := 5; small(x)", "x)", compile.ErrRangeParam, "value 5 is out of range for parameter p of small (0..3)"},
		{"c := ea; w := c; z := w", ":= w", compile.ErrRangeAssign, "is out of range for"}, // a union value that is not a scalarset
	} {
		t.Run(tc.body, func(t *testing.T) {
			src := stmtDecls + fns + "startstate begin\n" + tc.body + "\nend;"
			m := build(t, src)
			mc := m.NewMachine()
			err, _ := mc.RunStart(0)
			if err == nil {
				t.Fatal("no error")
			}
			line := strings.Count(stmtDecls+fns, "\n") + 2
			col := strings.Index(tc.body, tc.at) + 1
			if at, ok := strings.CutPrefix(tc.at, "fn:"); ok {
				// In a function: find it in the declarations.
				before, _, _ := strings.Cut(stmtDecls+fns, at)
				line = strings.Count(before, "\n") + 1
				col = len(before) - strings.LastIndex(before, "\n")
			}
			want := "t.m:" + fmt.Sprint(line) + ":" + fmt.Sprint(col)
			if got := m.Position(err.Pos).String(); err.Kind != tc.kind || got != want || !strings.Contains(err.Msg, tc.msg) {
				t.Fatalf("%s at %s (%s), want %s at %s (%s)", err.Kind, got, err.Msg, tc.kind, want, tc.msg)
			}
		})
	}
}

// TestLoopLimit: a loop that would hang the checker fails the rule.
func TestLoopLimit(t *testing.T) {
	m := build(t, "var x: 0 .. 1;\nstartstate begin x := 0; while true do x := 1 - x end end;")
	mc := m.NewMachine()
	mc.StepLimit = 1000
	err, _ := mc.RunStart(0)
	if err == nil || err.Kind != compile.ErrLoopLimit || m.Position(err.Pos).String() != "t.m:2:26" {
		t.Fatalf("got %v at %v", err, m.Position(err.Pos))
	}
}

// TestInstances: rulesets, chooses and aliases expand to one instance per
// parameter value, the first quantifier outermost, each from least to
// greatest (Rumur's order).
func TestInstances(t *testing.T) {
	m := build(t, `
type s: scalarset(2);
var x: 0 .. 3; m: multiset [2] of 0 .. 1;
startstate begin x := 0; undefine m end;
ruleset i: 0 .. 1; j: boolean do rule "r" begin x := i end end;
choose k: m do rule "c" begin multisetremove(k, m) end end;
rule begin x := 1 end;
ruleset i: s do invariant "inv" x != 3; startstate "st" begin x := 1 end end;
`)
	var names []string
	for _, r := range m.Rules {
		names = append(names, r.Name)
	}
	want := "r, i:0, j:false|r, i:0, j:true|r, i:1, j:false|r, i:1, j:true|c, k:0|c, k:1|rule (line 7)"
	if got := strings.Join(names, "|"); got != want {
		t.Errorf("rules:\n got  %s\n want %s", got, want)
	}
	var props []string
	for _, p := range m.Invariants {
		props = append(props, fmt.Sprintf("%s %v", p.Name, p.PerElement))
	}
	if got := strings.Join(props, "|"); got != "inv, i:s_1 true|inv, i:s_2 true" {
		t.Errorf("invariants: %s", got)
	}
	if len(m.Starts) != 3 || m.Starts[2].Name != "st, i:s_2" {
		t.Errorf("start states: %d, last %q", len(m.Starts), m.Starts[len(m.Starts)-1].Name)
	}
}

// expansion fires every rule from the model's first start state, as the
// engines do (resuming after each error), and lists what happened.
func expansion(t *testing.T, m *compile.Model) string {
	t.Helper()
	mc := m.NewMachine()
	if err, _ := mc.RunStart(0); err != nil {
		t.Fatal(err)
	}
	cur := append([]int64(nil), mc.State()...)
	var out []string
	from := 0
	for n := 0; n < 10; n++ {
		_, err, r := mc.Expand(cur, from, func(r int, succ []int64) bool {
			out = append(out, fmt.Sprintf("%d:%d", r, succ[0]))
			return true
		})
		if err == nil {
			return strings.Join(out, " ")
		}
		out = append(out, fmt.Sprintf("%d:%s", r, err.Kind))
		from = r + 1
	}
	t.Fatal("Expand keeps failing")
	return ""
}

// TestExpand: disabled rules do not fire, a failing rule is reported with
// its index and the expansion goes on after it, a failed assume discards
// the transition, and with priorities only the enabled rules of the least
// priority value fire, after every failing guard is reported.
func TestExpand(t *testing.T) {
	for _, tc := range []struct {
		src, want string
	}{
		{`var x: 0 .. 9; y: boolean;
startstate begin x := 1 end;
rule x = 2 ==> begin x := 3 end;
rule begin x := 4 end;
rule begin x := y ? 5 : 6 end;
rule begin assume x = 0; x := 7 end;
rule y ==> begin x := 8 end;
rule begin x := 9 end;`, "1:4 2:undefined-read 4:undefined-read 5:9"},
		{`var x: 0 .. 9; y: boolean;
startstate begin x := 1 end;
rule 5 begin x := 2 end;
rule 1 y ==> begin x := 3 end;
rule 1 begin x := 4 end;
rule 1 x = 1 ==> begin x := 5 end;
rule 1 y ==> begin x := 6 end;`, "1:undefined-read 4:undefined-read 2:4 3:5"},
	} {
		if got := expansion(t, build(t, tc.src)); got != tc.want {
			t.Errorf("%s\n got  %s\n want %s", tc.src, got, tc.want)
		}
	}
}

// TestEvalAndFire: properties evaluate on a given state; Fire replays one
// rule instance.
func TestEvalAndFire(t *testing.T) {
	m := build(t, `var x: 0 .. 3;
startstate begin x := 0 end;
rule x < 3 ==> begin x := x + 1 end;
invariant "small" x < 2;`)
	mc := m.NewMachine()
	state := []int64{2}
	if ok, err := mc.Eval(m.Invariants[0], state); ok || err != nil {
		t.Fatalf("invariant at x=2: %v %v", ok, err)
	}
	if fired, err := mc.Fire(state, 0); !fired || err != nil || mc.State()[0] != 3 {
		t.Fatalf("fire: %v %v %v", fired, err, mc.State())
	}
	if fired, _ := mc.Fire([]int64{3}, 0); fired {
		t.Fatal("fired a disabled rule")
	}
	if _, err := mc.Eval(m.Invariants[0], []int64{m.Undef}); err == nil || err.Kind != compile.ErrUndefinedRead {
		t.Fatalf("invariant on an undefined x: %v", err)
	}
}
