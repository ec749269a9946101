package explore

// This file implements parallel breadth-first search: bfs with
// Options.Workers > 1. The states are partitioned by hash over the
// workers (parts, part.go); each owns its share of the visited set and of
// the queue, and successors travel to their owner in batches.
//
// The search gives exactly the result of the sequential bfs: the same
// states, rules fired, levels, violations and counterexamples, and the same
// ids, whatever the number of workers and however they are scheduled. It
// goes in rounds, each over a range of ids of one BFS level (ids are given
// in BFS order, so a range is a slice of the sequential search's queue):
//
//  1. every part expands the states of the range it owns, in id order,
//     and routes each successor, with its key (parent id, index among the
//     parent's events), to its owner's outbox, as long as the successors
//     fit (outboxes are bounded): the round ends where the first part
//     stopped, and what the others expanded beyond waits in their
//     outboxes;
//  2. every part admits the successors routed to it, merged by key: the
//     order in which the sequential search would meet them, so the first
//     of duplicates wins as there, assumptions and invariants are checked
//     as there, and a state is kept iff the sequential search keeps it;
//  3. the coordinator merges the parts' kept states by key, gives them the
//     next global ids in the trail (core/trail), orders the violations of
//     the round by key, and, if the search must stop at one, counts states,
//     rules and covers up to it, as the sequential search would have.
//
// Liveness needs the whole state graph and locality the level of every
// state met again; both run on one worker, with a note.
//
// Memory: the parts reserve from the run's one budget (each through a
// child that keeps its figures), so a part whose visited set grows faster
// takes what the others leave, as one set would. With exact sets a part
// owns whole index parts of the set (ownerOf), so the parts' sets grow as
// one would. The parts' queues and their exchange buffers divide the
// queue's memory share of a sequential search (less what the extra sets
// cost), and spill to storage as its queue does; a set the budget
// refuses spills the trail first (trailRoom). A signature table is sized
// per part for its share of what the sequential one would get. So a run
// that passes on one worker under a budget passes on several
// (TestParallelSpill tries the smallest such budget).

import (
	"context"
	"encoding/binary"
	"fmt"
	"sort"
	"sync"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/queue"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/store"
)

// MaxWorkers bounds Options.Workers.
const MaxWorkers = 64

// roundStates is the most states each part expands per round: rounds
// long enough that handing batches over costs little, short enough that
// the parts finish together (the outboxes' bound may end a round sooner).
const roundStates = 2048

// unbudgetedExchange is the memory of the exchange buffers of all the
// parts of a run without a budget.
const unbudgetedExchange = 8 << 20

// minOutboxRecords is the fewest successors an outbox is planned for.
const minOutboxRecords = 16

// outboxRecords, if set (by tests), makes outboxes hold that many
// successors, so that rounds end early and often.
var outboxRecords int

// planPart divides memory bytes (0: no budget) of a parallel search of n
// parts among the parts that share it (n in this process, 1 in a part of
// its own elsewhere). Their exact visited sets together hold what one
// would but for the fixed cost of each (store.ExactOverhead); the queue's
// memory share of a sequential search pays for the extra sets, and half
// of what is left goes to the exchange and half to the parts' queues,
// unless that leaves them too little to spill. A part's exchange holds
// its n outboxes and the states it accepts in a round, at most what n
// outboxes hold.
func planPart(m *compile.Model, opts Options, n int, memory int64, parts int) partPlan {
	size := m.StateBytes + candExtra
	var p partPlan
	exchange := int64(unbudgetedExchange)
	if memory > 0 {
		o := opts
		o.MemoryBytes = memory
		q := queueShare(o)
		if opts.HashBits == 0 {
			q -= int64(parts-1) * store.ExactOverhead(m.StateBits, memory)
		}
		least := int64(2 * minSegmentRecords * (m.StateBytes + 8)) // newFrontier's smallest disk share
		p.queue = max((q-q/2)/int64(parts), least)
		exchange = max(q-p.queue*int64(parts), 0)
	}
	per := exchange / int64(parts) / int64(2*n)
	p.outbox = max(int(per), minOutboxRecords*size) / size * size
	if outboxRecords > 0 {
		p.outbox = outboxRecords * size
	}
	if memory > 0 {
		p.floor = int64(n*p.outbox) + int64(n*p.outbox/size*(m.StateBytes+acceptedBytes))
	}
	return p
}

// partClient runs the phases of one part, on a goroutine of this process
// or elsewhere (a Web Worker); each start call is followed by its wait.
type partClient interface {
	// expand: see part.expand.
	expand(ids []int64, lo, hi int64)
	expanded() *expandResult
	// admit: see part.admit; end is the round's end (the part's own
	// records below it are the part's in[itself]).
	admit(in [][]byte, depth int, end int64)
	admitted() *admitResult
	// close releases the part and returns its cover statement counts.
	close() []int64
}

// localPart runs a part on a goroutine.
type localPart struct {
	w    *part
	work chan func()
	done chan struct{}
}

func startLocal(w *part) *localPart {
	l := &localPart{w: w, work: make(chan func()), done: make(chan struct{})}
	go func() {
		for f := range l.work {
			f()
			l.done <- struct{}{}
		}
	}()
	return l
}

func (l *localPart) expand(ids []int64, lo, hi int64) { l.work <- func() { l.w.expand(ids, lo, hi) } }
func (l *localPart) admit(in [][]byte, depth int, _ int64) {
	l.work <- func() { l.w.admit(in, depth) }
}

func (l *localPart) expanded() *expandResult {
	<-l.done
	return &l.w.er
}

func (l *localPart) admitted() *admitResult {
	<-l.done
	return &l.w.ar
}

func (l *localPart) close() []int64 {
	close(l.work)
	l.w.close()
	return l.w.mc.CoverHits
}

// parallel coordinates a parallel search.
type parallel struct {
	s      *searcher
	n      int
	parts  []partClient
	remote []bool // the part runs at the end of opts.Parts
	stats  []partStats
	ids    [][]int64 // per part: the global ids of its last accepted states
	in     [][]byte
	er     []*expandResult
	ar     []*admitResult
}

// parallelSearch runs bfs over opts.Workers parts: on goroutines, sharing
// the budget, or, with opts.Parts, part 0 here and the others at the
// transport's end (each then holds an equal share of the budget, and the
// coordinator's share holds the trail too).
func parallelSearch(ctx context.Context, m *compile.Model, opts Options) *Result {
	n := opts.Workers
	share := opts.MemoryBytes / int64(n)
	mine := opts
	if opts.Parts != nil {
		mine.MemoryBytes = share
	}
	// The coordinator's queue only hands the start states to their owners.
	s, failed := setupSearcher(ctx, m, mine, false, func(rec int, b *budget.Budget) (queue.FIFO, error) {
		return queue.NewMemory(rec, b), nil
	})
	if failed != nil {
		return failed
	}
	s.res.MemoryBudget = opts.MemoryBytes
	s.res.Workers = n
	defer s.front.Close()
	defer s.trail.Close()
	// The start states go through the sequential admission, into a set of
	// their own, then to their owners.
	starts, err := store.NewExact(m.StateBytes, s.b, state.Hash)
	if err != nil {
		return s.fail(err)
	}
	s.visited = store.ExactSet{Exact: starts}
	s.startStates()
	if s.stop {
		defer starts.Release()
		return s.finish()
	}
	plan := planPart(m, opts, n, opts.MemoryBytes, n)
	if opts.Parts != nil {
		plan = planPart(m, opts, n, share, 1)
	}
	if opts.HashBits > 0 && mine.MemoryBytes > 0 {
		// What compactCapacity gives one table, divided among the parts
		// here.
		local := n
		if opts.Parts != nil {
			local = 1
		}
		plan.table = max(s.b.Available()-queueShare(mine)-mine.MemoryBytes/16, 0) / int64(local)
	}
	p := &parallel{s: s, n: n, remote: make([]bool, n), stats: make([]partStats, n)}
	local, err := newPart(ctx, m, s.opts, 0, n, s.b.Child(), plan)
	if err != nil {
		starts.Release()
		return s.fail(err)
	}
	makeRoom := p.trailRoom()
	local.makeRoom = makeRoom
	seeds := make([][]seedRec, n)
	for {
		rec, err := s.front.Pop()
		if err != nil {
			s.incomplete(err)
			break
		}
		if rec == nil {
			break
		}
		st := append([]byte(nil), rec[:m.StateBytes]...)
		h := state.Hash(st)
		o := ownerOf(h, n, opts.HashBits == 0)
		seeds[o] = append(seeds[o], seedRec{state: st, h: h, id: int64(binary.LittleEndian.Uint64(rec[m.StateBytes:]))})
	}
	starts.Release()
	s.visited = (*partsView)(p)
	for i := 0; i < n && !s.stop; i++ {
		if opts.Parts != nil && i > 0 {
			r := newRemotePart(opts.Parts, i, n)
			p.parts = append(p.parts, r)
			p.remote[i] = true
			var err error
			if p.stats[i], err = r.seed(seeds[i]); err != nil {
				s.incomplete(err)
			}
			continue
		}
		w := local
		if i > 0 {
			if w, err = newPart(ctx, m, s.opts, i, n, s.b.Child(), plan); err != nil {
				s.incomplete(err)
				break
			}
			w.makeRoom = makeRoom
		}
		p.parts = append(p.parts, startLocal(w))
		if err := w.seedAll(seeds[i]); err != nil {
			s.incomplete(err)
		}
		p.stats[i] = w.stats()
	}
	return p.run()
}

// trailRoom returns what makes room in the budget for a part whose visited
// set cannot grow: the trail's full chunks go to storage. The parts admit
// states while the coordinator waits, so the trail is theirs then, one at
// a time. (A sequential search appends to the trail between insertions,
// so the trail's own refused chunks spill it there; here its appends come
// in bursts after the parts' insertions, and the sets meet the limit
// first.)
func (p *parallel) trailRoom() func() bool {
	var mu sync.Mutex
	t := p.s.trail
	return func() bool {
		mu.Lock()
		defer mu.Unlock()
		return spillTrail(t)
	}
}

// run searches from the seeded parts and returns the result.
func (p *parallel) run() *Result {
	s := p.s
	if s.opts.HashBits == 0 {
		s.exhaustedHint = func(error) string { return exactHint(s) }
	}
	s.extraProgress = func(pr *job.Progress) {
		for i, st := range p.stats {
			if p.remote[i] {
				pr.MemoryBytes += st.used
			}
			pr.QueueMemory += st.queue.InMemory
			pr.QueueDisk += st.queue.OnDisk
			pr.DiskBytes += st.queue.OnDisk * int64(s.m.StateBytes+8) // a part's record: state | global id
			pr.BytesWritten += st.queue.BytesWritten
			pr.BytesRead += st.queue.BytesRead
		}
	}
	p.ids = make([][]int64, p.n)
	p.in = make([][]byte, p.n)
	p.er = make([]*expandResult, p.n)
	p.ar = make([]*admitResult, p.n)
	if !s.stop {
		p.loop()
	}
	for _, c := range p.parts {
		for i, n := range c.close() {
			s.mc.CoverHits[i] += n
		}
	}
	r := s.finish()
	if r.Verdict == Fail && len(s.m.CoverStmts) > 0 {
		// The parts count the statements' hits as they expand, and may
		// have expanded states past the one where the search stopped.
		r.Notes = append(r.Notes, "the cover statements' counts may include states expanded on other workers after the search stopped at the violation (one worker counts exactly up to it)")
	}
	for i, st := range p.stats {
		r.DiskWritten += st.queue.BytesWritten
		r.DiskRead += st.queue.BytesRead
		if p.remote[i] {
			// Each part's own peak: their sum bounds the run's.
			r.PeakBytes += st.peak
		}
	}
	return r
}

// loop runs rounds until the search is done or must stop.
func (p *parallel) loop() {
	s := p.s
	level, lo, levelEnd := 0, int64(0), s.trail.Len()
	for !s.stop {
		if lo == levelEnd {
			if s.trail.Len() == levelEnd || len(s.res.LevelSizes) <= level+1 {
				return // no new state queued (only stored ones): done
			}
			level++
			levelEnd = s.trail.Len()
		}
		if s.opts.Bound > 0 && level >= s.opts.Bound {
			s.res.Reason = fmt.Sprintf("bound %d reached: states at depth %d were not expanded", s.opts.Bound, s.opts.Bound)
			return
		}
		if s.checkpoint() {
			return
		}
		hi := lo + int64(p.n)*roundStates
		if hi > levelEnd {
			hi = levelEnd
		}
		for w, c := range p.parts {
			c.expand(p.ids[w], lo, hi)
		}
		end := hi
		for w, c := range p.parts {
			p.er[w] = c.expanded()
			end = min(end, p.er[w].reached)
		}
		for w, c := range p.parts {
			for j := range p.in {
				out := p.er[j].out[w]
				p.in[j] = out[:below(out, s.m.StateBytes, end)]
			}
			c.admit(append([][]byte(nil), p.in...), level+1, end)
		}
		for w, c := range p.parts {
			p.ar[w] = c.admitted()
			p.stats[w] = p.ar[w].stats
		}
		if s.ctx.Err() != nil {
			s.checkpoint() // reports the cancellation
			return
		}
		p.settle(level+1, end)
		lo = end
	}
}

// settle ends a round whose successors are at depth and whose parents
// have ids below end: its violations in key order, its kept states into
// the trail in key order, its counts.
func (p *parallel) settle(depth int, end int64) {
	s := p.s
	for w := range p.parts {
		if err := p.er[w].err; err != nil {
			s.incomplete(err)
			return
		}
		if err := p.ar[w].err; err != nil {
			s.incomplete(err)
			return
		}
	}
	var events []*partEvent
	for w := range p.parts {
		for i := range p.er[w].events {
			if p.er[w].events[i].key.parent < end {
				events = append(events, &p.er[w].events[i])
			}
		}
		for i := range p.ar[w].events {
			events = append(events, &p.ar[w].events[i])
		}
	}
	sort.Slice(events, func(i, j int) bool { return events[i].key.less(events[j].key) })
	var cut *partEvent
	stored := map[candKey]bool{} // kept, never expanded: not in a level
	for _, e := range events {
		if e.kept {
			stored[e.key] = true
		}
		s.violation(e.v, e.key.parent, e.rule, e.bad)
		if s.stop {
			cut = e
			break
		}
	}
	// Merge the kept states by key into the trail.
	next := make([]int, p.n)
	kept := int64(0)
	for w := range p.ids {
		p.ids[w] = p.ids[w][:0]
	}
	for {
		w := -1
		for k := range p.parts {
			if next[k] < len(p.ar[k].acc) && (w < 0 || p.ar[k].acc[next[k]].key.less(p.ar[w].acc[next[w]].key)) {
				w = k
			}
		}
		if w < 0 {
			break
		}
		a := p.ar[w].acc[next[w]]
		if cut != nil && !a.key.less(cut.key) && !(cut.kept && a.key == cut.key) {
			break
		}
		id, err := s.trail.Append(a.key.parent, a.rule)
		if err != nil {
			s.incomplete(err)
			return
		}
		p.ids[w] = append(p.ids[w], id)
		next[w]++
		if !stored[a.key] {
			kept++
		}
	}
	for w := range p.parts {
		for _, h := range p.ar[w].hits {
			if int(h.acc) < next[w] {
				s.props.covers[h.cover]++
			}
		}
		for _, c := range p.er[w].counts {
			switch {
			case c.parent >= end:
			case cut == nil || c.parent < cut.key.parent:
				s.res.RulesFired += int64(c.emitted)
			case c.parent == cut.key.parent:
				s.res.RulesFired += int64(emittedUpTo(c.emitted, cut.key.seq))
			}
		}
	}
	if kept > 0 {
		for len(s.res.LevelSizes) <= depth {
			s.res.LevelSizes = append(s.res.LevelSizes, 0)
		}
		s.res.LevelSizes[depth] += kept
		if depth > s.res.Depth {
			s.res.Depth = depth
		}
	}
}

// partsView is the visited set the coordinator's searcher sees: the parts'
// sets together, as of the last round. Every kept state has one trail
// record, so the trail counts them (at a violation that stopped the
// search, only those the sequential search had kept by then).
type partsView parallel

func (v *partsView) Find([]byte, uint64) (bool, int64, uint64) {
	panic("explore: the parallel search admits states in its parts")
}

func (v *partsView) Insert(uint64, []byte, uint64, int64, int) error {
	panic("explore: the parallel search admits states in its parts")
}

func (v *partsView) Len() int64 { return v.s.trail.Len() }

func (v *partsView) Bytes() int64 {
	var n int64
	for _, st := range v.stats {
		n += st.bytes
	}
	return n
}

func (v *partsView) Stats() store.VisitedStats {
	out := store.VisitedStats{Inserted: v.s.trail.Len()}
	for _, st := range v.stats {
		out.Kind = st.visited.Kind
		out.Evicted += st.visited.Evicted
		out.Entries += st.visited.Entries
		out.OmissionBound += st.visited.OmissionBound // a union bound
	}
	if out.OmissionBound > 1 {
		out.OmissionBound = 1
	}
	return out
}

func (v *partsView) Release() {}
