package verify

// This file checks a counterexample the way a skeptical user would: by
// replaying it, step by step, on the model, without trusting the engine
// that produced it.

import (
	"fmt"
	"strings"

	"github.com/locus-mc/locus/core/compile"
)

// Replay checks that v's trace is a run of m: its first state is what a
// start state of that name produces, each later state is what a rule
// instance of that name produces from the state before it, and the last
// state shows the violation (an invariant that fails there, a deadlock, a
// rule that raises the run-time error). It returns nil if the trace
// replays, else what does not.
func Replay(m *compile.Model, v *Violation) error {
	if len(v.Trace) == 0 {
		return fmt.Errorf("no trace")
	}
	mc := m.NewMachine()
	var cur []int64
	for k, step := range v.Trace {
		if k == 0 {
			name := strings.TrimPrefix(step.Rule, "startstate ")
			found := false
			for i, st := range m.Starts {
				if st.Name != name {
					continue
				}
				err, assumed := mc.RunStart(i)
				if assumed {
					continue
				}
				if err != nil {
					if k == len(v.Trace)-1 && err.Kind == v.Kind {
						return nil // the start state itself fails
					}
					continue
				}
				if sameState(m, mc.State(), step.State) {
					cur = append([]int64(nil), mc.State()...)
					found = true
					break
				}
			}
			if !found {
				return fmt.Errorf("step 0: no start state %q produces the state shown", name)
			}
			continue
		}
		name, fails := strings.CutSuffix(step.Rule, " (fails)")
		matched := false
		for r, rule := range m.Rules {
			if rule.Name != name {
				continue
			}
			fired, err := mc.Fire(cur, r)
			if fails {
				if err != nil && err.Kind == v.Kind && k == len(v.Trace)-1 {
					return nil
				}
				continue
			}
			if fired && err == nil && sameState(m, mc.State(), step.State) {
				cur = append(cur[:0], mc.State()...)
				matched = true
				break
			}
		}
		if !matched {
			return fmt.Errorf("step %d: no instance of rule %q leads to the state shown", k, step.Rule)
		}
	}
	switch v.Kind {
	case "invariant":
		for _, p := range m.Invariants {
			if p.Name != v.Name {
				continue
			}
			if ok, err := mc.Eval(p, cur); err == nil && !ok {
				return nil
			}
		}
		return fmt.Errorf("invariant %q holds in the last state", v.Name)
	case "deadlock":
		for r := range m.Rules {
			fired, err := mc.Fire(cur, r)
			if err == nil && fired && !equalSlots(mc.State(), cur) {
				return fmt.Errorf("the last state is no deadlock: rule %q leads on", m.Rules[r].Name)
			}
		}
	}
	return nil
}

func sameState(m *compile.Model, slots []int64, want []VarValue) bool {
	if len(want) != len(m.Leaves) {
		return false
	}
	for i := range m.Leaves {
		if m.FormatLeaf(i, slots[i]) != want[i].Value {
			return false
		}
	}
	return true
}

func equalSlots(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
