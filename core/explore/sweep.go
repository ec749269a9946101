package explore

// This file registers the sweep-line method combined with state caching
// (§4.4 of the state-caching paper; Kristensen and Mailund, "A generalised
// sweep-line method for safety properties", FME 2002). The model gives a
// progress measure ψ ("--@progress EXPR"). Open states are expanded in
// order of ψ; a closed state with ψ below the smallest ψ of the open states
// cannot be met again except through a regress transition (one that lowers
// ψ), so it may be deleted. The new destination of a regress transition is
// kept for good (persistent) and becomes a root of the next sweep, which
// explores from it; the search ends after a sweep that found no new such
// state. Within a sweep, states of equal ψ may still cycle, which the
// TD-tree of state caching detects (the tree becomes a forest: states
// deleted by the sweep leave it), so the cache may hold fewer states than
// the largest class of equal ψ. Deletion is lazy: the sweep deletes when
// the cache is full and ψ has advanced since it last did.

import (
	"context"
	"fmt"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/store"
)

func init() {
	register(job.EngineInfo{
		Name:  "cache-sweep",
		Title: "Sweep-line with state caching (fixed memory, exact; needs a progress measure)",
		Help: "Expands states in order of the model's progress measure (a line \"--@progress EXPR\" in the model) and deletes " +
			"states that the search has left behind, plus state caching within each progress value. States reached by a transition " +
			"that lowers the measure are kept and explored again in a further sweep, so any measure is correct; one that rarely " +
			"decreases saves the most memory. A pass is exact.",
		UsesStorage: true, ProgressMeasure: true, Randomized: true,
		Params: []job.ParamInfo{cacheParam, strategyParam(store.Degree), strataParam, revisitParam},
	}, runSweep)
}

func runSweep(ctx context.Context, m *compile.Model, opts Options) *Result {
	var heap *progressHeap
	c, failed := newCaching(ctx, m, opts, cachingTree, true, func(capacity int64, b *budget.Budget) (openSet, error) {
		h, err := newProgressHeap(b, capacity)
		heap = h
		return h, err
	})
	if failed != nil {
		return failed
	}
	c.sl = &sweepLine{c: c, heap: heap}
	heap.t = c.t
	c.sl.sweeps = 1
	if m.Progress == nil {
		c.s.res.Notes = append(c.s.res.Notes, "the model has no progress measure (a line \"--@progress EXPR\", EXPR an integer, enumeration or boolean "+
			"expression over the state variables that tends to grow as the system runs): every state had progress 0, so this was plain state caching")
	}
	return c.run()
}

// sweepLine is the sweep-line state of one run.
type sweepLine struct {
	c    *caching
	heap *progressHeap

	roots      []int32 // the next sweep's roots
	rootsRes   int64
	persistent int64
	sweeps     int
	swept      int64 // states deleted because the sweep left them behind
	regress    int64 // regress transitions to new states
	alpha      int64 // the smallest open progress when the sweep last deleted
	collected  bool
}

// measure evaluates ψ on a state; a run-time error in it ends the run.
func (sl *sweepLine) measure(slots []int64) (int64, bool) {
	s := sl.c.s
	if s.m.Progress == nil {
		return 0, true
	}
	v, rerr := s.mc.Measure(s.m.Progress, slots)
	if rerr != nil {
		s.res.Verdict = Error
		s.res.Reason = fmt.Sprintf("the progress measure at %s could not be evaluated in a reachable state: %s", s.m.Position(s.m.Progress.Pos), rerr.Msg)
		s.stop = true
		return 0, false
	}
	return v, true
}

// collect deletes the closed states the sweep has left behind, if the
// smallest open progress has advanced since it last did; it reports
// whether it freed any.
func (sl *sweepLine) collect() bool {
	e, ok := sl.heap.current()
	if !ok {
		return false
	}
	alpha := sl.c.t.Progress(entryNode(e))
	if sl.collected && alpha <= sl.alpha {
		return false
	}
	sl.collected, sl.alpha = true, alpha
	t := sl.c.t
	k := t.Sweep(func(n int32) bool { return !t.IsPersistent(n) && t.Progress(n) < alpha })
	sl.swept += k
	return k > 0
}

// defer_ keeps node, the new destination of a regress transition, for the
// next sweep; it reports whether the search goes on.
func (sl *sweepLine) defer_(node int32) bool {
	t := sl.c.t
	t.SetPersistent(node)
	sl.persistent++
	sl.regress++
	if len(sl.roots) == cap(sl.roots) {
		n := 2*cap(sl.roots) + 64
		size := int64(n) * 4
		if !sl.c.s.b.Reserve("sweep roots", size-sl.rootsRes) {
			sl.c.s.incomplete(&budget.ErrExhausted{Part: "sweep-line roots", Need: size - sl.rootsRes, Limit: sl.c.s.b.Limit()})
			return false
		}
		sl.rootsRes = size
		r := make([]int32, len(sl.roots), n)
		copy(r, sl.roots)
		sl.roots = r
	}
	sl.roots = append(sl.roots, node)
	return true
}

// nextSweep starts a sweep from the roots the last one deferred; it
// reports false when there are none (the search is complete).
func (sl *sweepLine) nextSweep() bool {
	if len(sl.roots) == 0 {
		return false
	}
	sl.sweeps++
	sl.collected = false
	t := sl.c.t
	for _, n := range sl.roots {
		t.SetPred(n, store.NoNode)
		t.AddRef(n)
		if _, err := sl.heap.add(newEntry(n)); err != nil {
			sl.c.s.incomplete(err)
			return false
		}
		sl.c.stack++
	}
	sl.roots = sl.roots[:0]
	return true
}

func (sl *sweepLine) report(r *Result) {
	sl.c.s.b.Release("sweep roots", sl.rootsRes)
	sl.rootsRes = 0
	r.Notes = append(r.Notes, fmt.Sprintf("sweep-line: %d sweep(s), %d persistent state(s) (start states and new destinations of %d regress transition(s)), %d state(s) deleted behind the sweep",
		sl.sweeps, sl.persistent, sl.regress, sl.swept))
}

// progressHeap is the sweep-line's open set: a binary heap of open
// entries, smallest progress first, then first generated (ids grow with
// insertions), so that each class is searched breadth-first in the order
// of a queue (which keeps the TD-tree small: a state's children are
// expanded one after the other).
type progressHeap struct {
	b    *budget.Budget
	t    *store.Nodes
	h    []uint64
	held int64
}

func newProgressHeap(b *budget.Budget, capacity int64) (*progressHeap, error) {
	size := (capacity + 16) * 8
	if !b.Reserve("open set", size) {
		return nil, &budget.ErrExhausted{Part: "open set", Need: size, Limit: b.Limit()}
	}
	return &progressHeap{b: b, h: make([]uint64, 0, capacity+16), held: size}, nil
}

func (q *progressHeap) less(a, b uint64) bool {
	na, nb := entryNode(a), entryNode(b)
	pa, pb := q.t.Progress(na), q.t.Progress(nb)
	if pa != pb {
		return pa < pb
	}
	return q.t.ID(na) < q.t.ID(nb)
}

func (q *progressHeap) current() (uint64, bool) {
	if len(q.h) == 0 {
		return 0, false
	}
	return q.h[0], true
}

// setCurrent keeps the key: only the rule iterator and flags change.
func (q *progressHeap) setCurrent(e uint64) { q.h[0] = e }

func (q *progressHeap) addRoot(e uint64) error {
	_, err := q.add(e)
	return err
}

func (q *progressHeap) add(e uint64) (bool, error) {
	if len(q.h) == cap(q.h) {
		return false, &budget.ErrExhausted{Part: "open set", Need: 8, Limit: q.b.Limit()}
	}
	q.h = append(q.h, e)
	for i := len(q.h) - 1; i > 0; {
		p := (i - 1) / 2
		if !q.less(q.h[i], q.h[p]) {
			break
		}
		q.h[i], q.h[p] = q.h[p], q.h[i]
		i = p
	}
	return false, nil
}

func (q *progressHeap) close() {
	n := len(q.h) - 1
	q.h[0] = q.h[n]
	q.h = q.h[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && q.less(q.h[r], q.h[l]) {
			m = r
		}
		if !q.less(q.h[m], q.h[i]) {
			return
		}
		q.h[i], q.h[m] = q.h[m], q.h[i]
		i = m
	}
}

func (q *progressHeap) depth() int64 { return int64(len(q.h)) }

func (q *progressHeap) release() {
	q.b.Release("open set", q.held)
	q.held = 0
	q.h = nil
}
