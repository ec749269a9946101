package ui

import (
	"reflect"
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
	// The start state has nothing "changed".
	if got := c.Vars(); got[0].Class != "" || got[1].Class != "" {
		t.Errorf("step 1 Vars() = %v, want nothing highlighted", got)
	}
	c.Go(99)
	if c.Step() != 2 || c.Rule() != "enter, i:2" {
		t.Errorf("Go(99): step %d rule %q, want the last step", c.Step(), c.Rule())
	}
	want := []TraceVar{{"pc[1]", "crit", ""}, {"pc[2]", "crit", "changed"}}
	if got := c.Vars(); !reflect.DeepEqual(got, want) {
		t.Errorf("Vars() = %v, want %v", got, want)
	}
	c.ToggleChanged()
	if got := c.Vars(); !reflect.DeepEqual(got, want[1:]) {
		t.Errorf("only changed: Vars() = %v, want %v", got, want[1:])
	}
	c.Go(-5)
	if c.Step() != 0 {
		t.Errorf("Go(-5): step %d, want 0", c.Step())
	}
	// No run, no trace: nothing to show and no panic.
	empty := &TracePanel{App: &App{}}
	if len(empty.Steps()) != 0 || empty.Step() != 0 || empty.Where() != "" || empty.Vars() != nil {
		t.Errorf("empty trace panel shows something")
	}
}

func TestVerdictPanel(t *testing.T) {
	a := failedRun()
	c := &VerdictPanel{App: a}
	if c.Verdict() != "fail" || c.Headline() != "Invariant mutex failed (m.m:9:1)" {
		t.Errorf("Verdict() = %q, Headline() = %q", c.Verdict(), c.Headline())
	}
	stats := map[string]string{}
	for _, s := range c.Stats() {
		stats[s.Key] = s.Value
	}
	if stats["states"] != "9" || stats["rules"] != "20" {
		t.Errorf("Stats() = %v", stats)
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
