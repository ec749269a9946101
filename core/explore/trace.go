package explore

// This file rebuilds counterexamples from the trail. The trail holds, for
// every kept state, its parent's id and the rule instance that led to it;
// engines keep only canonical representatives (if they keep states at
// all). So the path is replayed twice over: once on the representatives,
// firing the recorded rules, which gives the canonical state of every step
// exactly as the search saw it; and once concretely from the start state,
// choosing at each step a rule instance whose successor has that canonical
// form (under symmetry it may be a permuted instance of the recorded one),
// so that the trace is one a user can follow rule by rule.

import (
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/trail"
)

type replayer struct {
	m     *compile.Model
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
	return &replayer{m: s.m, mc: s.m.NewMachine(), canon: canon, a: make([]int64, n), b: make([]int64, n)}
}

// buildTrace returns the path to the state with id parent (none for a
// start state), followed by the step that violated a property: rule fired
// from parent, leading to bad (a state never kept), or failing.
func (s *searcher) buildTrace(parent int64, rule int32, bad []int64) []TraceStep {
	rp := s.replayer()
	n := s.m.NumSlots
	var rules []int32 // the path's: a start state's index, then rules
	if parent != trail.None {
		var err error
		if rules, err = s.trailRules(parent); err != nil {
			s.res.Notes = append(s.res.Notes, "the counterexample could not be rebuilt: "+err.Error())
			return nil
		}
	}
	var steps []TraceStep
	cur := make([]int64, n)   // the concrete state
	canon := make([]int64, n) // its canonical form, as the search saw it
	for k, r := range rules {
		if k == 0 {
			// The root: a start state.
			if err, _ := rp.mc.RunStart(int(r)); err != nil {
				return steps
			}
			copy(cur, rp.mc.State())
			copy(canon, cur)
			rp.canon(canon)
			steps = append(steps, TraceStep{Rule: "startstate " + s.m.Starts[r].Name, State: append([]int64(nil), cur...)})
			continue
		}
		// The canonical successor the search recorded.
		if fired, err := rp.mc.Fire(canon, int(r)); !fired || err != nil {
			return steps
		}
		copy(rp.a, rp.mc.State())
		rp.canon(rp.a)
		copy(canon, rp.a)
		ri, next := rp.step(cur, int(r), canon)
		copy(cur, next)
		steps = append(steps, TraceStep{Rule: s.m.Rules[ri].Name, State: append([]int64(nil), cur...)})
	}
	switch {
	case parent == trail.None && rule >= 0:
		// A violation in start state number rule: show the state it
		// produces (bad is only its canonical form), or, if it fails to
		// produce one, the all-undefined state it started from.
		name := s.m.Starts[rule].Name
		state := make([]int64, n)
		if err, _ := rp.mc.RunStart(int(rule)); err == nil {
			copy(state, rp.mc.State())
		} else {
			for i := range state {
				state[i] = s.m.Undef
			}
		}
		steps = append(steps, TraceStep{Rule: "startstate " + name, State: state})
	case rule >= 0 && bad != nil:
		want := append([]int64(nil), bad...)
		rp.canon(want)
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

// trailRules returns the rules of the path to kept state id: the start
// state's index, then the rule of each step.
func (s *searcher) trailRules(id int64) ([]int32, error) {
	if s.pathRules != nil {
		return s.pathRules(id)
	}
	path, err := s.trail.Path(id)
	if err != nil {
		return nil, err
	}
	rules := make([]int32, len(path))
	for k, id := range path {
		_, r, err := s.trail.Get(id)
		if err != nil {
			return nil, err
		}
		rules[k] = int32(r)
	}
	return rules, nil
}

// step finds a rule instance leading from cur to a state whose canonical
// form is want, trying the recorded rule first.
func (rp *replayer) step(cur []int64, recorded int, want []int64) (int, []int64) {
	try := func(r int) bool {
		fired, err := rp.mc.Fire(cur, r)
		if !fired || err != nil {
			return false
		}
		copy(rp.a, rp.mc.State())
		copy(rp.b, rp.a)
		rp.canon(rp.b)
		for i := range want {
			if rp.b[i] != want[i] {
				return false
			}
		}
		return true
	}
	if try(recorded) {
		return recorded, rp.a
	}
	for r := range rp.m.Rules {
		if r != recorded && try(r) {
			return r, rp.a
		}
	}
	// Cannot happen for a deterministic model; show the canonical state.
	return recorded, want
}
