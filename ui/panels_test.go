package ui

import (
	"testing"

	"github.com/locus-mc/locus/wasm/protocol"
)

func failedRun() *App {
	n := int64(9)
	st := func(a, b string) []protocol.VarValue {
		return []protocol.VarValue{{Name: "pc[1]", Value: a}, {Name: "pc[2]", Value: b}}
	}
	return &App{Run: &Run{Status: "done", Options: protocol.Options{Algorithm: "bfs"}, Result: &protocol.Result{
		Verdict: protocol.Fail, States: &n, RulesFired: 20, Algorithm: "bfs",
		Violation: &protocol.Violation{Kind: "invariant", Name: "mutex", Message: "Invariant mutex failed", Pos: "m.m:9:1",
			Trace: []protocol.TraceStep{
				{Rule: "Startstate", State: st("idle", "idle")},
				{Rule: "enter, i:1", State: st("crit", "idle"), Changed: []int{0}},
				{Rule: "enter, i:2", State: st("crit", "crit"), Changed: []int{1}},
			}},
	}}}
}

func TestTracePanel(t *testing.T) {
	a := failedRun()
	c := &TracePanel{App: a}
	if got := c.Where(); got != "Step 1 of 3" {
		t.Errorf("Where() = %q", got)
	}
	if got := c.Kind(); got != "An invariant is false: “mutex”" {
		t.Errorf("Kind() = %q", got)
	}
	a.Run.Step = 99 // clamped
	if c.Step() != 2 || c.Rule() != "enter, i:2" || c.Where() != "Step 3 of 3" {
		t.Errorf("step %d rule %q, want the last step", c.Step(), c.Rule())
	}
	// No run, no trace: nothing to show and no panic.
	empty := &TracePanel{App: &App{}}
	if len(empty.Steps()) != 0 || empty.Step() != 0 || empty.Where() != "" || empty.Kind() != "" || empty.HasExports() {
		t.Errorf("empty trace panel shows something")
	}
}

func TestKindWords(t *testing.T) {
	for kind, want := range map[string]string{
		"loop-limit":       "A rule ran too long (a loop that does not end?)",
		"invariant":        "An invariant is false",
		"some-new-kind":    "Some new kind",
		"division-by-zero": "Division by zero",
	} {
		if got := KindWords(kind); got != want {
			t.Errorf("KindWords(%q) = %q, want %q", kind, got, want)
		}
	}
}

func TestOptionsSummaryUsesMenuWords(t *testing.T) {
	c := &VerdictPanel{App: failedRun()}
	c.App.Engines = []protocol.EngineInfo{{Name: "bfs", Title: "Breadth-first search"}}
	c.App.Run.Result.Symmetry, c.App.Run.Result.Deadlock = "exact", "stuttering"
	for _, s := range c.Stats() {
		if s.Key == "options" && s.Value != "Breadth-first search; symmetry reduction: Exact; deadlock: No rule changes the state" {
			t.Errorf("options = %q", s.Value)
		}
	}
}

func TestModelNames(t *testing.T) {
	list := []ModelInfo{{ID: "a", Name: "untitled.m"}, {ID: "b", Name: "untitled-2.m"}, {ID: "c", Name: "p.m"}}
	for _, tc := range []struct{ in, except, want string }{
		{"untitled.m", "", "untitled-3.m"},
		{"p.m", "c", "p.m"},
		{"p.m", "", "p-2.m"},
		{"new.m", "", "new.m"},
	} {
		if got := uniqueName(tc.in, list, tc.except); got != tc.want {
			t.Errorf("uniqueName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for in, want := range map[string]string{"foo": "foo.m", "dir/x.M": "x.M", "  ": "untitled.m", `C:\a\b.m`: "b.m"} {
		if got := modelName(in); got != want {
			t.Errorf("modelName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLessons(t *testing.T) {
	got := lessons([]Example{{File: "a.m", Lesson: "X"}, {File: "b.m", Lesson: "Y"}, {File: "c.m", Lesson: "X"}, {File: "d.m"}})
	if len(got) != 3 || got[0].Name != "X" || len(got[0].Examples) != 2 || got[2].Name != "Examples" {
		t.Errorf("lessons = %+v", got)
	}
}

func TestVerdictPanel(t *testing.T) {
	a := failedRun()
	c := &VerdictPanel{App: a}
	if c.Verdict() != "fail" || c.Headline() != "An invariant is false: “mutex” (m.m:9:1)" {
		t.Errorf("Verdict() = %q, Headline() = %q", c.Verdict(), c.Headline())
	}
	stats := map[string]string{}
	for _, s := range c.Stats() {
		stats[s.Key] = s.Value
	}
	if stats["states"] != "9" || stats["rules"] != "20" {
		t.Errorf("Stats() = %v", stats)
	}
	if stats["code"] != "the engine's compiled closures" {
		t.Errorf("code = %q", stats["code"])
	}
	a.Run.Result.Workers = 3
	for _, s := range c.Stats() {
		if s.Key == "code" && s.Value != "the engine's compiled closures, on 3 Workers" {
			t.Errorf("closures on 3 Workers = %q", s.Value)
		}
	}
	a.Run.Result.CodeGen = "browser"
	for _, s := range c.Stats() {
		if s.Key == "code" && s.Value != "WebAssembly generated for this model (browser), on 3 Workers" {
			t.Errorf("generated code on 3 Workers = %q", s.Value)
		}
	}
	a.Run.Result.Workers = 1
	for _, s := range c.Stats() {
		if s.Key == "code" && s.Value != "WebAssembly generated for this model (browser)" {
			t.Errorf("generated code = %q", s.Value)
		}
	}

	a.Run = &Run{Status: "cancelled", Progress: &protocol.Progress{States: 1234, RulesFired: 5000, Seconds: 2}}
	if c.Verdict() != "incomplete" || c.Stats()[0].Value != "1,234" {
		t.Errorf("cancelled: Verdict() = %q, Stats() = %v", c.Verdict(), c.Stats())
	}
	a.Run = &Run{Status: "failed", Error: "the engine stopped"}
	if c.Verdict() != "error" || c.Headline() != "The engine stopped without a result: the engine stopped" {
		t.Errorf("failed: Verdict() = %q, Headline() = %q", c.Verdict(), c.Headline())
	}
	a.Run = &Run{Status: "done", Result: &protocol.Result{Verdict: "error", Reason: "engine not built yet"}}
	if c.Headline() != "Engine not built yet" || len(c.Stats()) != 0 {
		t.Errorf("error result: Headline() = %q, Stats() = %v", c.Headline(), c.Stats())
	}
}

func TestSentence(t *testing.T) {
	for in, want := range map[string]string{"": "", "this link": "This link", "Already": "Already", "42 things": "42 things"} {
		if got := sentence(in); got != want {
			t.Errorf("sentence(%q) = %q, want %q", in, got, want)
		}
	}
}
