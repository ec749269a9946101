package verify

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/job"
)

func readExample(t *testing.T, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func TestWriteTraceCMurphi(t *testing.T) {
	res := Check(context.Background(), "broken-mutex.m", readExample(t, "broken-mutex.m"), Options{})
	if res.Violation == nil {
		t.Fatalf("no violation: %+v", res)
	}
	for _, tc := range []struct {
		full bool
		want []string
	}{
		{false, []string{
			"The following is the error trace for the error:\n\n\tInvariant \"mutual exclusion\" failed.\n\n",
			"Startstate (line 43) fired.\nlocked:false\npc[1]:idle\npc[2]:idle\n----------\n\n",
			"Rule read the lock: it is free, p:1 fired.\npc[1]:saw_free\n----------\n\n",
			"Rule take the lock, p:2 fired.\nThe last state of the trace (in full) is:\nlocked:true\npc[1]:critical\npc[2]:critical\n----------\n\nEnd of the error trace.\n",
		}},
		{true, []string{"Rule read the lock: it is free, p:1 fired.\nlocked:false\npc[1]:saw_free\npc[2]:idle\n----------\n\n"}},
	} {
		var b bytes.Buffer
		if err := WriteTraceCMurphi(&b, *res.Violation, tc.full); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("full=%v: output lacks %q:\n%s", tc.full, w, b.String())
			}
		}
	}
}

func TestTraceStepPositions(t *testing.T) {
	res := Check(context.Background(), "broken-mutex.m", readExample(t, "broken-mutex.m"), Options{})
	for i, st := range res.Violation.Trace {
		if !strings.HasPrefix(st.Pos, "broken-mutex.m:") {
			t.Errorf("step %d (%s) has position %q", i, st.Rule, st.Pos)
		}
	}
}

func TestSimulationReachesTheViolation(t *testing.T) {
	src := readExample(t, "broken-mutex.m")
	want := Check(context.Background(), "broken-mutex.m", src, Options{}).Violation
	sim, diags := NewSimulation("broken-mutex.m", src, Options{})
	if sim == nil {
		t.Fatal(diags)
	}
	if len(sim.Starts()) != 1 {
		t.Fatalf("starts: %+v", sim.Starts())
	}
	st, v := sim.Start(0)
	if v != nil {
		t.Fatal(v)
	}
	// Follow the checker's counterexample, rule by rule, choosing among
	// the enabled rules the one with the same name.
	for i, step := range want.Trace[1:] {
		if len(st.Violations) > 0 {
			t.Fatalf("step %d: violation before the end: %+v", i+1, st.Violations)
		}
		k := -1
		for j, c := range st.Choices {
			if c.Name == step.Rule {
				k = j
			}
		}
		if k < 0 {
			t.Fatalf("step %d: %q is not among the enabled rules %+v", i+1, step.Rule, st.Choices)
		}
		if st, v = sim.Next(st, k); v != nil {
			t.Fatal(v)
		}
		for j, vv := range step.State {
			if st.Values[j] != vv.Value {
				t.Errorf("step %d: %s = %s, the checker's trace has %s", i+1, vv.Name, st.Values[j], vv.Value)
			}
		}
	}
	if len(st.Violations) != 1 || st.Violations[0].Kind != "invariant" || st.Violations[0].Name != want.Name {
		t.Fatalf("violations at the end: %+v", st.Violations)
	}
}

func TestSimulationDeadlockAndErrors(t *testing.T) {
	const src = `var x: 0..3;
startstate begin x := 0; end;
rule "up" x < 2 ==> begin x := x + 1; end;
rule "stay" x = 2 ==> begin x := 2; end;
rule "boom" x = 1 ==> begin x := 5; end;
`
	for _, tc := range []struct {
		deadlock string
		at2      bool // deadlock at x = 2
	}{{"stuttering", true}, {"stuck", false}, {"off", false}} {
		t.Run(tc.deadlock, func(t *testing.T) {
			sim, diags := NewSimulation("d.m", []byte(src), Options{Options: job.Options{Deadlock: tc.deadlock}})
			if sim == nil {
				t.Fatal(diags)
			}
			st, _ := sim.Start(0)
			st, _ = sim.Next(st, 0) // up: x = 1
			names := []string{}
			for _, c := range st.Choices {
				names = append(names, c.Name)
			}
			if strings.Join(names, ",") != "up,boom" {
				t.Fatalf("choices at x=1: %v", names)
			}
			if st.Choices[1].Error == "" {
				t.Fatalf("boom should raise an error: %+v", st.Choices[1])
			}
			if _, v := sim.Next(st, 1); v == nil || v.Kind != "range-error(assignment)" {
				t.Fatalf("boom: %+v", v)
			}
			st, _ = sim.Next(st, 0) // up: x = 2
			if st.Deadlock != tc.at2 {
				t.Fatalf("deadlock at x=2 = %v, want %v (choices %+v)", st.Deadlock, tc.at2, st.Choices)
			}
			if len(st.Choices) != 1 || !st.Choices[0].Same {
				t.Fatalf("at x=2 only stay, leading back: %+v", st.Choices)
			}
		})
	}
}

// toggles is a small symmetric model: 4 states under symmetry reduction, 8
// without.
const toggles = `type id: scalarset(3);
var on: array [id] of boolean;
startstate begin for i: id do on[i] := false; end; end;
ruleset i: id do rule "toggle" true ==> begin on[i] := !on[i]; end; end;
`

func TestGraphMatchesTheChecker(t *testing.T) {
	for _, tc := range []struct {
		file, symmetry string
	}{{"peterson.m", ""}, {"toggles.m", "exact"}, {"toggles.m", "off"}, {"broken-mutex.m", ""}} {
		t.Run(tc.file+"/"+tc.symmetry, func(t *testing.T) {
			src := []byte(toggles)
			if tc.file != "toggles.m" {
				src = readExample(t, tc.file)
			}
			res := Check(context.Background(), tc.file, src, Options{Options: job.Options{Symmetry: tc.symmetry}})
			g, diags := BuildGraph(context.Background(), tc.file, src, Options{Options: job.Options{Symmetry: tc.symmetry}}, 0)
			if g == nil {
				t.Fatal(diags)
			}
			if g.Truncated {
				t.Fatalf("truncated at %d nodes", len(g.Nodes))
			}
			if res.Verdict == Pass {
				if int64(len(g.Nodes)) != *res.States || int64(len(g.Edges)) != res.RulesFired {
					t.Fatalf("graph %d nodes %d edges; checker %d states %d rules fired", len(g.Nodes), len(g.Edges), *res.States, res.RulesFired)
				}
				if g.Violation != nil {
					t.Fatalf("violation in a passing model: %+v", g.Violation)
				}
				return
			}
			if g.Violation == nil || g.Violation.Kind != res.Violation.Kind {
				t.Fatalf("graph violation %+v, checker %+v", g.Violation, res.Violation)
			}
			if len(g.Path) != len(res.Violation.Trace) {
				t.Fatalf("path of %d nodes, trace of %d steps", len(g.Path), len(res.Violation.Trace))
			}
			last := g.Path[len(g.Path)-1]
			if g.Nodes[last].Kind != "invariant" {
				t.Fatalf("last node kind %q", g.Nodes[last].Kind)
			}
			for i, n := range g.Path {
				if got, want := g.StepName(n), res.Violation.Trace[i].Rule; got != want {
					t.Errorf("path step %d: %q, trace %q", i, got, want)
				}
			}
			if got := g.State(last); strings.Join(got, ",") != "true,critical,critical" {
				t.Errorf("last state %v", got)
			}
		})
	}
}

func TestGraphCap(t *testing.T) {
	g, _ := BuildGraph(context.Background(), "toggles.m", []byte(toggles), Options{Options: job.Options{Symmetry: "off"}}, 5)
	if !g.Truncated || len(g.Nodes) != 5 {
		t.Fatalf("truncated %v with %d nodes", g.Truncated, len(g.Nodes))
	}
	for _, e := range g.Edges {
		if e.To >= 5 || e.From >= 5 {
			t.Fatalf("edge to a node past the cap: %+v", e)
		}
	}
}
