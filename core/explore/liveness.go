package explore

// This file checks Rumur's liveness properties after a complete search:
// `liveness P` holds iff from every reachable state some state satisfying P
// is reachable (AG EF P). The search logs its edges by state id and, for
// each kept state, which properties it satisfies; afterwards P is
// propagated backwards from the states satisfying it.
//
// An engine that forgets states and meets one again gives it a new id, so
// one state may have several ids; each was expanded, so each has every
// outgoing transition in the graph (to some id of each successor), and
// reachability between ids is reachability between their states.

import (
	"fmt"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/store"
)

type liveGraph struct {
	b        *budget.Budget
	from, to *store.Column
	sat      [][]uint64 // per property, a bit per state id
	satBytes int64
}

// maxLiveIDs is the largest id the graph's 32-bit columns hold.
const maxLiveIDs = 1<<32 - 1

func newLiveGraph(b *budget.Budget, props int) *liveGraph {
	return &liveGraph{b: b, from: store.NewColumn(b, "liveness graph"), to: store.NewColumn(b, "liveness graph"), sat: make([][]uint64, props)}
}

func errTooManyForLiveness() error {
	return fmt.Errorf("liveness checking records state ids in 32 bits: more than %d states", int64(maxLiveIDs))
}

func (g *liveGraph) add(from, to int64) error {
	if from >= maxLiveIDs || to >= maxLiveIDs {
		return errTooManyForLiveness()
	}
	if err := g.from.Append(uint32(from)); err != nil {
		return err
	}
	return g.to.Append(uint32(to))
}

// mark records whether state id satisfies property i.
func (g *liveGraph) mark(i int, id int64, ok bool) error {
	if id >= maxLiveIDs {
		return errTooManyForLiveness()
	}
	w := int(id / 64)
	for len(g.sat[i]) <= w {
		// Grow by chunks of 4096 words (32 KiB).
		if !g.b.Reserve("liveness", 4096*8) {
			return &budget.ErrExhausted{Part: "liveness", Need: 4096 * 8, Limit: g.b.Limit()}
		}
		g.satBytes += 4096 * 8
		g.sat[i] = append(g.sat[i], make([]uint64, 4096)...)
	}
	if ok {
		g.sat[i][w] |= 1 << (id % 64)
	}
	return nil
}

func (g *liveGraph) satisfies(i int, id int64) bool {
	w := int(id / 64)
	return w < len(g.sat[i]) && g.sat[i][w]&(1<<(id%64)) != 0
}

// firstUnreaching returns the smallest id of n from which no state
// satisfying property i is reachable, or -1.
func (g *liveGraph) firstUnreaching(i int, n int64) (int64, error) {
	m := g.from.Len()
	// Reverse adjacency in compressed form: start[v] .. start[v+1] index
	// the predecessors of v.
	need := (n+1)*4 + m*4 + n + n*4
	if !g.b.Reserve("liveness", need) {
		return -1, &budget.ErrExhausted{Part: "liveness check", Need: need, Limit: g.b.Limit()}
	}
	defer g.b.Release("liveness", need)
	start := make([]uint32, n+1)
	for e := int64(0); e < m; e++ {
		start[g.to.Get(e)+1]++
	}
	for v := int64(1); v <= n; v++ {
		start[v] += start[v-1]
	}
	preds := make([]uint32, m)
	fill := append([]uint32(nil), start[:n]...)
	for e := int64(0); e < m; e++ {
		t := g.to.Get(e)
		preds[fill[t]] = g.from.Get(e)
		fill[t]++
	}
	reach := make([]bool, n)
	var work []uint32
	for v := int64(0); v < n; v++ {
		if g.satisfies(i, v) {
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
			return v, nil
		}
	}
	return -1, nil
}
