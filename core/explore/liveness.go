package explore

// This file checks Rumur's liveness properties after a complete search:
// `liveness P` holds iff from every reachable state some state satisfying P
// is reachable (AG EF P). The search logs its edges; afterwards P is
// propagated backwards from the states satisfying it.

import (
	"fmt"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/store"
)

type edgeLog struct {
	from, to *store.Column
}

func newEdgeLog(b *budget.Budget) *edgeLog {
	return &edgeLog{from: store.NewColumn(b, "edges"), to: store.NewColumn(b, "edges")}
}

func (e *edgeLog) add(from, to int64) error {
	if err := e.from.Append(uint32(from)); err != nil {
		return err
	}
	return e.to.Append(uint32(to))
}

func (s *searcher) checkLiveness() {
	n := s.table.Len()
	e := s.liveness
	m := e.from.Len()
	// Reverse adjacency in compressed form: start[v] .. start[v+1] index
	// the predecessors of v.
	start := make([]uint32, n+1)
	for i := int64(0); i < m; i++ {
		start[e.to.Get(i)+1]++
	}
	for v := int64(1); v <= n; v++ {
		start[v] += start[v-1]
	}
	preds := make([]uint32, m)
	fill := append([]uint32(nil), start[:n]...)
	for i := int64(0); i < m; i++ {
		t := e.to.Get(i)
		preds[fill[t]] = e.from.Get(i)
		fill[t]++
	}
	slots := make([]int64, s.m.NumSlots)
	reach := make([]bool, n)
	var work []uint32
	for _, p := range s.m.Liveness {
		for i := range reach {
			reach[i] = false
		}
		work = work[:0]
		for v := int64(0); v < n; v++ {
			s.up.Unpack(s.table.Get(v), slots)
			ok, rerr := s.mc.Eval(p, slots)
			if rerr != nil {
				s.violation(runtimeViolation(rerr), v, -1, nil)
				return
			}
			if ok {
				reach[v] = true
				work = append(work, uint32(v))
			}
		}
		for len(work) > 0 {
			v := work[len(work)-1]
			work = work[:len(work)-1]
			for _, u := range preds[start[v]:start[v+1]] {
				if !reach[u] {
					reach[u] = true
					work = append(work, u)
				}
			}
		}
		for v := int64(0); v < n; v++ {
			if !reach[v] {
				s.violation(&Violation{Kind: "liveness", Name: p.Name, Pos: p.Pos,
					Msg: fmt.Sprintf("liveness %q fails: from the last state of this trace, no state satisfying it is reachable", p.Name)}, v, -1, nil)
				break
			}
		}
		if s.stop {
			return
		}
	}
}
