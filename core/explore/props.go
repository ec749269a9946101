package explore

// This file holds the property checks every engine shares: assumptions and
// invariants when a state is first seen, covers when it is kept, the
// liveness graph, and the end-of-run verdicts on covers and liveness.

import (
	"fmt"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/trail"
)

type props struct {
	s      *searcher
	covers []int64
	// live logs the graph for liveness properties (nil without them):
	// edges by state id, and per property the ids of the states that
	// satisfy it.
	live *liveGraph
	hit  func(i int) // counts cover i (made once: no allocation per state)
}

func newProps(s *searcher) *props {
	p := &props{s: s, covers: make([]int64, len(s.m.Covers))}
	p.hit = func(i int) { p.covers[i]++ }
	if len(s.m.Liveness) > 0 {
		p.live = newLiveGraph(s.b, len(s.m.Liveness))
	}
	return p
}

// admissible checks a state seen for the first time: a state violating an
// assumption is discarded silently, one violating an invariant is reported
// and discarded (Rumur's order). It reports whether the search must stop
// and whether the state is discarded.
func (p *props) admissible(slots []int64, parent int64, rule uint32) (stop, discard bool) {
	s := p.s
	v, discard := admissibility(s.mc, s.m, slots)
	if v != nil {
		s.violation(v, parent, int32(rule), slots)
		return s.stop, true
	}
	return false, discard
}

// admissibility decides, with no side effect, whether a state seen for the
// first time is discarded, and the violation to report for it, if any: a
// failed assumption discards it silently, a failed invariant (or a
// run-time error evaluating either) is reported.
func admissibility(mc *compile.Machine, m *compile.Model, slots []int64) (v *Violation, discard bool) {
	if q, rerr := firstFalse(mc, m.Assumes, slots); rerr != nil {
		return runtimeViolation(rerr), true
	} else if q != nil {
		return nil, true
	}
	if q, rerr := firstFalse(mc, m.Invariants, slots); rerr != nil {
		return runtimeViolation(rerr), true
	} else if q != nil {
		return &Violation{Kind: "invariant", Name: q.Name, Pos: q.Pos,
			Msg: fmt.Sprintf("invariant %q failed", q.Name)}, true
	}
	return nil, false
}

// firstFalse returns the first of props that does not hold in slots, or
// the run-time error evaluating one raised.
func firstFalse(mc *compile.Machine, props []*compile.Property, slots []int64) (*compile.Property, *compile.RuntimeError) {
	for _, q := range props {
		ok, rerr := mc.Eval(q, slots)
		if rerr != nil {
			return nil, rerr
		}
		if !ok {
			return q, nil
		}
	}
	return nil, nil
}

// coversHeld calls hit for every cover property slots satisfies, in order,
// and returns the run-time error that stopped the evaluation, if any.
func coversHeld(mc *compile.Machine, m *compile.Model, slots []int64, hit func(i int)) *compile.RuntimeError {
	for i, c := range m.Covers {
		ok, rerr := mc.Eval(c, slots)
		if rerr != nil {
			return rerr
		}
		if ok {
			hit(i)
		}
	}
	return nil
}

// kept counts the covers a newly kept state (with id) satisfies and notes
// which liveness properties it satisfies. It reports whether the state
// must not be expanded: evaluating one raised a run-time error (Rumur then
// does not queue it) or the search must stop.
func (p *props) kept(id int64, slots []int64, parent int64, rule uint32) bool {
	s := p.s
	if rerr := coversHeld(s.mc, s.m, slots, p.hit); rerr != nil {
		s.violation(runtimeViolation(rerr), parent, int32(rule), slots)
		return true
	}
	if p.live == nil {
		return false
	}
	for i, q := range s.m.Liveness {
		ok, rerr := s.mc.Eval(q, slots)
		if rerr != nil {
			s.violation(runtimeViolation(rerr), parent, int32(rule), slots)
			return true
		}
		if err := p.live.mark(i, id, ok); err != nil {
			s.incomplete(err)
			return true
		}
	}
	return false
}

// logEdge records the transition parent -> id when liveness needs the
// graph; it reports whether the search must stop (no memory for it).
func (p *props) logEdge(parent, id int64) bool {
	if p.live == nil || parent == trail.None {
		return false
	}
	if id < 0 {
		// The visited set keeps no ids: the graph cannot be built.
		p.s.incomplete(fmt.Errorf("liveness properties need the id of every state, which this visited set does not keep"))
		return true
	}
	if err := p.live.add(parent, id); err != nil {
		p.s.incomplete(err)
		return true
	}
	return false
}

// finish reports covers never satisfied and liveness failures once the
// search is over; complete says whether it visited every reachable state
// (otherwise neither can be decided).
func (p *props) finish(complete bool) {
	s := p.s
	r := s.res
	// A cover counts per declaration, summed over its instances, and per
	// statement, over the rules that run it (Rumur keeps one counter per
	// cover); it fails if it never held. Under symmetry reduction, too,
	// such a sum is what the reduced graph preserves.
	type cover struct {
		name string
		pos  murphi.Pos
		n    int64
	}
	var covers []cover
	decl := map[murphi.Pos]int{}
	for i, c := range s.m.Covers {
		k, ok := decl[c.Pos]
		if !ok {
			k = len(covers)
			decl[c.Pos] = k
			covers = append(covers, cover{name: c.DeclName, pos: c.Pos})
		}
		covers[k].n += p.covers[i]
	}
	for i, c := range s.m.CoverStmts {
		covers = append(covers, cover{name: c.Name, pos: c.Pos, n: s.mc.CoverHits[i]})
	}
	for _, c := range covers {
		r.Covers = append(r.Covers, CoverCount{Name: c.name, Count: c.n})
	}
	if !complete {
		return
	}
	for _, c := range covers {
		if c.n > 0 || len(r.Violations) >= s.maxErrors {
			continue
		}
		r.Violations = append(r.Violations, &Violation{Kind: "cover", Name: c.name, Pos: c.pos,
			Msg: fmt.Sprintf("cover %q is never satisfied", c.name)})
	}
	if p.live != nil && len(r.Violations) < s.maxErrors {
		p.checkLiveness()
	}
}

// checkLiveness decides every liveness property on the logged graph.
func (p *props) checkLiveness() {
	s := p.s
	n := s.statesSoFar()
	for i, q := range s.m.Liveness {
		bad, err := p.live.firstUnreaching(i, n)
		if err != nil {
			s.incomplete(err)
			return
		}
		if bad >= 0 {
			s.violation(&Violation{Kind: "liveness", Name: q.Name, Pos: q.Pos,
				Msg: fmt.Sprintf("liveness %q fails: from the last state of this trace, no state satisfying it is reachable", q.Name)}, bad, -1, nil)
			if s.stop {
				return
			}
		}
	}
}
