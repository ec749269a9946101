package verify

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/job"
)

// TestReplay: the counterexample of every engine replays; a trace with a
// wrong value, a wrong rule or a missing last step does not.
func TestReplay(t *testing.T) {
	src, err := os.ReadFile("../../examples/broken-mutex.m")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := Compile("broken-mutex.m", src)
	for _, e := range Engines() {
		res := Check(context.Background(), "broken-mutex.m", src, Options{Options: job.Options{Algorithm: e.Name, MemoryBytes: 16 << 20}})
		if res.Verdict != Fail || res.Violation == nil {
			t.Fatalf("%s: verdict %s", e.Name, res.Verdict)
		}
		v := res.Violation
		if err := Replay(m, v); err != nil {
			t.Fatalf("%s: the counterexample does not replay: %v", e.Name, err)
		}
		if e.Name != "bfs" {
			continue
		}
		last := len(v.Trace) - 1
		tamper := func(what string, f func(*Violation)) {
			w := *v
			w.Trace = append([]TraceStep(nil), v.Trace...)
			for i := range w.Trace {
				w.Trace[i].State = append([]VarValue(nil), v.Trace[i].State...)
			}
			f(&w)
			if err := Replay(m, &w); err == nil {
				t.Errorf("a trace with %s replays", what)
			}
		}
		tamper("a changed value", func(w *Violation) {
			s := w.Trace[1].State
			for i := range s {
				if s[i].Value != w.Trace[0].State[i].Value {
					s[i].Value = w.Trace[0].State[i].Value
					return
				}
			}
		})
		tamper("a wrong rule", func(w *Violation) { w.Trace[last].Rule = "no such rule" })
		tamper("the last step missing", func(w *Violation) { w.Trace = w.Trace[:last] })
		tamper("another start state", func(w *Violation) { w.Trace[0].Rule = "startstate nonesuch" })
		if !strings.HasPrefix(v.Trace[0].Rule, "startstate") {
			t.Errorf("first step %q", v.Trace[0].Rule)
		}
	}
}
