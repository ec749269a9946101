package explore

// This file rebuilds counterexamples. The visited set stores canonical
// representatives; to show a trace a user can follow, the path is replayed
// from the concrete start state, choosing at each step a rule instance whose
// successor has the stored representative (under symmetry it may be a
// permuted instance of the one recorded).

import (
	"github.com/locus-mc/locus/core/compile"
)

type replayer struct {
	s     *searcher
	mc    *compile.Machine
	canon func([]int64)
	a, b  []int64
}

func (s *searcher) replayer() *replayer {
	n := s.m.NumSlots
	canon := newCanonicalizer(s.m, s.opts.Symmetry)
	if canon == nil {
		canon = func([]int64) {}
	}
	return &replayer{s: s, mc: s.m.NewMachine(), canon: canon, a: make([]int64, n), b: make([]int64, n)}
}

// canonEqual reports whether the canonical form of x equals want.
func (rp *replayer) canonEqual(x, want []int64) bool {
	copy(rp.b, x)
	rp.canon(rp.b)
	for i := range want {
		if rp.b[i] != want[i] {
			return false
		}
	}
	return true
}

// buildTrace returns the path to the state with index parent (nil for a
// start state), followed by the step that violated a property: rule fired
// from parent, leading to bad (a state never stored), or failing.
func (s *searcher) buildTrace(parent int64, rule int32, bad []int64) []TraceStep {
	rp := s.replayer()
	n := s.m.NumSlots
	var chain []int64
	for i := parent; i >= 0; {
		chain = append(chain, i)
		p := s.parent.Get(i)
		if p == noParent {
			break
		}
		i = int64(p)
	}
	var steps []TraceStep
	cur := make([]int64, n)
	stored := make([]int64, n)
	for k := len(chain) - 1; k >= 0; k-- {
		idx := chain[k]
		s.up.Unpack(s.table.Get(idx), stored)
		r := int(s.rule.Get(idx))
		if k == len(chain)-1 {
			// The root: a start state.
			name := s.m.Starts[r].Name
			if err, _ := rp.mc.RunStart(r); err == nil {
				copy(cur, rp.mc.State())
			} else {
				copy(cur, stored)
			}
			steps = append(steps, TraceStep{Rule: "startstate " + name, State: append([]int64(nil), cur...)})
			continue
		}
		r, next := rp.step(cur, r, stored)
		copy(cur, next)
		steps = append(steps, TraceStep{Rule: s.m.Rules[r].Name, State: append([]int64(nil), cur...)})
	}
	switch {
	case parent < 0 && rule >= 0:
		// A violation in start state number rule.
		name := s.m.Starts[rule].Name
		state := bad
		if state == nil {
			state = make([]int64, n)
			for i := range state {
				state[i] = s.m.Undef
			}
		}
		steps = append(steps, TraceStep{Rule: "startstate " + name, State: append([]int64(nil), state...)})
	case rule >= 0 && bad != nil:
		want := append([]int64(nil), bad...)
		r, next := rp.step(cur, int(rule), want)
		steps = append(steps, TraceStep{Rule: s.m.Rules[r].Name, State: append([]int64(nil), next...)})
	case rule >= 0:
		// The rule raised a run-time error: find the instance that fails
		// from the concrete state.
		r := int(rule)
		if _, err := rp.mc.Fire(cur, r); err == nil {
			for i := range s.m.Rules {
				if _, err := rp.mc.Fire(cur, i); err != nil {
					r = i
					break
				}
			}
		}
		steps = append(steps, TraceStep{Rule: s.m.Rules[r].Name + " (fails)", State: append([]int64(nil), cur...)})
	}
	return steps
}

// step finds a rule instance leading from cur to a state whose canonical
// form is want, trying the recorded rule first.
func (rp *replayer) step(cur []int64, recorded int, want []int64) (int, []int64) {
	canonWant := append([]int64(nil), want...)
	rp.canon(canonWant)
	try := func(r int) bool {
		fired, err := rp.mc.Fire(cur, r)
		if !fired || err != nil {
			return false
		}
		copy(rp.a, rp.mc.State())
		return rp.canonEqual(rp.a, canonWant)
	}
	if try(recorded) {
		return recorded, rp.a
	}
	for r := range rp.s.m.Rules {
		if r != recorded && try(r) {
			return r, rp.a
		}
	}
	// Cannot happen for a deterministic model; show the stored state.
	return recorded, want
}
