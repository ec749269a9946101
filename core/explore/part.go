package explore

// This file implements one worker of the parallel breadth-first search
// (parallel.go): a part. A part owns the states whose hash falls in its
// partition: their visited set and their queue. In each round it expands
// its own queued states whose ids fall in the round's range and routes
// every successor, canonicalised, packed and hashed, to the owner's outbox
// (expand); then, as an owner, it takes the successors every sender routed
// to it and admits them in the order one sequential search would meet them
// (admit); at the start of the next round it queues the states it
// accepted under the global ids the coordinator gave them (commit).
//
// The exchange is bounded: an outbox holds at most plan.outbox bytes. A
// state whose successors do not fit is undone (its records and events
// taken back, its cover statement counts restored) and waits for the next
// round; the part stops short of the round's range and says where
// (reached). The coordinator admits only what every part produced below
// the lowest such point, and the records from there on stay in their
// outboxes for the next round (drop forgets the admitted ones). So the
// buffers do not grow with the model's branching, and a round cut short
// costs a shorter round and one state expanded twice: the admission
// order, and so the result, is the same. An outbox that was empty when a
// state began grows to take all of that state's successors, so that a
// round always gets on.
//
// A part touches nothing shared: the coordinator hands it its inputs and
// reads its outputs between phases. So a part can run on a goroutine or,
// in the browser, in a Web Worker of its own.

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"unsafe"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/queue"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/store"
)

// candKey orders the successors of a round as a sequential search meets
// them: by the id of the state they come from, then by seq, which numbers
// the events of one expansion: emission i (the i-th successor) is 2i+1, a
// run-time error after n emissions is 2n, a deadlock is seqDeadlock.
type candKey struct {
	parent int64
	seq    uint32
}

const seqDeadlock = math.MaxUint32

func (a candKey) less(b candKey) bool {
	return a.parent < b.parent || (a.parent == b.parent && a.seq < b.seq)
}

// emittedUpTo returns how many of the n successors of one state a
// sequential search had fired when it met the event with sequence number
// seq from that state: those numbered <= seq.
func emittedUpTo(n, seq uint32) uint32 {
	if seq == seqDeadlock {
		return n
	}
	if k := (seq + 1) / 2; k < n {
		return k
	}
	return n
}

// partEvent is a violation a part found, with where a sequential search
// meets it.
type partEvent struct {
	key  candKey
	v    *Violation // without its trace: the coordinator rebuilds it
	rule int32      // the rule fired from key.parent (-1: at that state)
	bad  []int64    // the offending state when it was never kept
	// kept: the successor was kept all the same (a cover property could
	// not be evaluated on it), so it counts among the states found.
	kept bool
}

// parentCount is how many successors the state with id parent had.
type parentCount struct {
	parent  int64
	emitted uint32
}

// accepted is a successor an owner kept, in the order of its keys.
type accepted struct {
	key  candKey
	rule uint32
	// stored: a cover property could not be evaluated on the state, so it
	// is stored but never expanded (the owner alone needs to know).
	stored bool
}

// coverHit is a cover property (cover) that the owner's accepted state
// number acc of the round satisfies.
type coverHit struct {
	acc   int32
	cover int32
}

// partStats describes a part for progress and results.
type partStats struct {
	visited store.VisitedStats
	states  int64 // held in the visited set
	bytes   int64 // visited set memory
	used    int64 // budget in use
	peak    int64 // budget peak
	queue   queue.Stats
}

// expandResult is what a part's expansion produced, with what earlier
// rounds produced beyond their ends (all in id order of the parents).
type expandResult struct {
	out     [][]byte      // per owner: candidate records
	counts  []parentCount // per state expanded, in id order
	events  []partEvent
	emitted int64 // successors of the states expanded by this call
	// reached: every state of the part with a lower id in the round's
	// range is expanded, none from reached on (hi if all are).
	reached int64
	err     error
}

// admitResult is what a part's admission produced.
type admitResult struct {
	acc    []accepted
	hits   []coverHit
	events []partEvent
	stats  partStats
	err    error
}

// Candidate records: state | table hash (8) | parent id (8) | seq (4) | rule (4).
const candExtra = 24

// candParent returns the parent id of the candidate record at byte off of
// recs (records of sb-byte states).
func candParent(recs []byte, off, sb int) int64 {
	return int64(binary.LittleEndian.Uint64(recs[off+sb+8:]))
}

// below returns the length of the prefix of recs (candidate records of
// sb-byte states, in parent order) whose parents have ids below end.
func below(recs []byte, sb int, end int64) int {
	size := sb + candExtra
	return size * sort.Search(len(recs)/size, func(i int) bool { return candParent(recs, i*size, sb) >= end })
}

// acceptedBytes is what the admission holds per accepted state besides the
// state itself.
const acceptedBytes = int(unsafe.Sizeof(accepted{}))

// exchangePart names the budget part of the exchange buffers.
const exchangePart = "parallel search exchange"

// partPlan is how a part uses its memory.
type partPlan struct {
	queue  int64 // the queue's memory share (0: no budget)
	outbox int   // bytes an outbox holds at most (but see part.growOut)
	// floor is the exchange's reservation from the start: what its
	// buffers can grow to, under a budget (0: reserved as they grow).
	floor int64
	// table is the memory for a signature table sized from the start
	// (hash compaction under a budget; 0: none, it grows).
	table int64
}

// part is one worker of the parallel search.
type part struct {
	ctx   context.Context
	idx   int
	n     int
	m     *compile.Model
	opts  Options
	sb    int
	b     *budget.Budget
	mc    *compile.Machine
	up    *compile.Unpacker
	canon func([]int64)

	visited store.Visited
	local   int64 // the next id in the part's own visited set
	// makeRoom, if set, frees memory of the budget when the visited set
	// cannot grow (as searcher.full), reporting whether it did; the parts
	// may call it at once.
	makeRoom func() bool
	front    queue.FIFO
	plan     partPlan
	rec      []byte // a popped queue record: state | global id (8)
	ahead    bool   // rec holds a popped record not expanded yet
	push     []byte // a queue record being pushed

	cur, slots []int64
	sorted     []int64 // a successor with its multisets sorted
	canonical  []int64 // a successor's canonical form
	buf        []byte  // the successor being packed
	exAlloc    int64   // bytes of the exchange buffers (outboxes, accepted states)
	exHeld     int64   // bytes of them reserved from b: max(exAlloc, plan.floor)

	// The state being expanded.
	curID   int64
	nEmit   uint32
	changed bool
	emit    compile.Emit
	// What expanding it may have to undo: the outboxes' lengths, the
	// events and the cover statement counts before it, and whether a
	// successor did not fit.
	outLens   []int
	events    int
	coverHits []int64
	overflow  bool

	er expandResult
	ar admitResult

	acc        []accepted
	accStates  []byte // the packed states of acc, back to back
	candidates int    // successors routed to the part in the round
	needSlots  bool
	hit        func(i int)
}

// newPart returns part idx of n, which reserves from the budget b and
// uses its memory as plan says.
func newPart(ctx context.Context, m *compile.Model, opts Options, idx, n int, b *budget.Budget, plan partPlan) (*part, error) {
	w := &part{ctx: ctx, idx: idx, n: n, m: m, opts: opts, sb: m.StateBytes, b: b, plan: plan}
	w.mc = m.NewMachine()
	w.up = m.NewUnpacker()
	w.canon = newCanonicalizer(m, opts.Symmetry)
	w.cur = make([]int64, m.NumSlots)
	w.slots = make([]int64, m.NumSlots)
	w.sorted = make([]int64, m.NumSlots)
	w.canonical = make([]int64, m.NumSlots)
	w.buf = make([]byte, w.sb)
	w.rec = make([]byte, w.sb+8)
	w.push = make([]byte, w.sb+8)
	w.er.out = make([][]byte, n)
	w.outLens = make([]int, n)
	w.coverHits = make([]int64, len(w.mc.CoverHits))
	w.emit = w.onSuccessor
	w.needSlots = len(m.Assumes)+len(m.Invariants)+len(m.Covers) > 0
	w.hit = func(i int) { w.ar.hits = append(w.ar.hits, coverHit{acc: int32(len(w.acc)), cover: int32(i)}) }
	if !w.holdExchange(0) {
		return nil, &budget.ErrExhausted{Part: exchangePart, Need: plan.floor, Limit: b.Limit()}
	}
	var err error
	if opts.HashBits > 0 {
		to := store.TableOptions{SigBits: opts.HashBits, IDs: len(m.Liveness) > 0, Keep: keepFor(opts)}
		if plan.table > 0 {
			to.Capacity = store.CompactCapacity(w.sb, to, plan.table)
		}
		w.visited, err = store.NewCompact(w.sb, b, to)
	} else {
		var t *store.Exact
		t, err = store.NewExactBits(m.StateBits, b, state.Hash)
		w.visited = store.ExactSet{Exact: t}
	}
	if err != nil {
		w.releaseExchange()
		return nil, err
	}
	w.front, err = queueWithShare(w.sb+8, b, opts, plan.queue, false, fmt.Sprintf("pbfs%d-", idx))
	if err != nil {
		w.visited.Release()
		w.releaseExchange()
		return nil, err
	}
	return w, nil
}

// holdExchange sets the exchange's reservation for alloc bytes of buffers
// (at least the plan's floor); false if the budget refused, changing
// nothing.
func (w *part) holdExchange(alloc int64) bool {
	want := max(alloc, w.plan.floor)
	if want > w.exHeld {
		if !w.b.Reserve(exchangePart, want-w.exHeld) {
			return false
		}
		w.exHeld = want
	}
	w.exAlloc = alloc
	return true
}

func (w *part) releaseExchange() {
	w.b.Release(exchangePart, w.exHeld)
	w.exHeld, w.exAlloc = 0, 0
}

// ownerOf returns the part of n that owns the state with table hash h.
// Exact visited sets (exact) divide their index into parts by the hash's
// top bits (store.ExactPartOf): a part owns a range of those, so that each
// index part holds, and grows with, the very states it holds in a
// sequential search, and the parts' sets together take no more memory
// than one. Signature tables place states by the top bits too, but all
// over one table: there a multiplicative remix of h picks the owner, so
// that the bits a table uses stay uniform within a part.
func ownerOf(h uint64, n int, exact bool) int {
	if exact {
		return store.ExactPartOf(h) * n / store.ExactParts
	}
	x := (h ^ h>>31) * 0x9e3779b97f4a7c15
	return int((x >> 32) * uint64(n) >> 32)
}

// seedAll adds the part's start states.
func (w *part) seedAll(recs []seedRec) error {
	for _, r := range recs {
		if err := w.seed(r.state, r.h, r.id); err != nil {
			return err
		}
	}
	return nil
}

// seed adds a start state (packed, with its table hash and global id),
// which no part holds yet.
func (w *part) seed(s []byte, h uint64, id int64) error {
	_, _, at := w.visited.Find(s, h)
	if err := w.visited.Insert(at, s, h, w.local, 0); err != nil {
		return err
	}
	w.local++
	copy(w.push, s)
	binary.LittleEndian.PutUint64(w.push[w.sb:], uint64(id))
	return w.front.Push(w.push)
}

// commit queues the states accepted in the last admission under the
// global ids the coordinator gave them (in the order of w.acc; the
// coordinator may keep only a prefix).
func (w *part) commit(ids []int64) error {
	for i, id := range ids {
		if w.acc[i].stored {
			continue
		}
		copy(w.push, w.accStates[i*w.sb:(i+1)*w.sb])
		binary.LittleEndian.PutUint64(w.push[w.sb:], uint64(id))
		if err := w.front.Push(w.push); err != nil {
			return err
		}
	}
	return nil
}

// expand forgets what the coordinator admitted (the records of states
// with ids below lo), commits the last round's accepted states under ids,
// then expands the part's queued states with ids below hi (all of the
// round's range that it owns), routing their successors to the owners'
// outboxes, for as long as the outboxes have room.
func (w *part) expand(ids []int64, lo, hi int64) {
	r := &w.er
	w.drop(lo)
	r.emitted, r.reached, r.err = 0, hi, nil
	if r.err = w.commit(ids); r.err != nil {
		return
	}
	for k := 0; ; k++ {
		if !w.ahead {
			rec, err := w.front.Pop()
			if err != nil {
				r.err = err
				return
			}
			if rec == nil {
				return
			}
			copy(w.rec, rec)
			w.ahead = true
		}
		id := int64(binary.LittleEndian.Uint64(w.rec[w.sb:]))
		if id >= hi {
			return
		}
		if k&255 == 255 && w.ctx.Err() != nil {
			r.reached = id // the coordinator sees the cancellation
			return
		}
		w.curID, w.nEmit, w.changed = id, 0, false
		w.up.Unpack(w.rec[:w.sb], w.cur)
		w.begin()
		if !w.expandOne() {
			if w.overflow {
				w.undo()
				r.reached = id // expanded again in the next round
			}
			return
		}
		w.ahead = false
		r.counts = append(r.counts, parentCount{parent: id, emitted: w.nEmit})
		r.emitted += int64(w.nEmit)
	}
}

// begin notes what expanding the current state may have to undo.
func (w *part) begin() {
	for o, out := range w.er.out {
		w.outLens[o] = len(out)
	}
	w.events = len(w.er.events)
	copy(w.coverHits, w.mc.CoverHits)
	w.overflow = false
}

// undo takes back the expansion of a state whose successors did not fit.
func (w *part) undo() {
	for o := range w.er.out {
		w.er.out[o] = w.er.out[o][:w.outLens[o]]
	}
	w.er.events = w.er.events[:w.events]
	copy(w.mc.CoverHits, w.coverHits)
}

// drop forgets the records, counts and events of the states with ids
// below lo, which the coordinator has admitted; what earlier rounds
// produced beyond their ends moves to the front.
func (w *part) drop(lo int64) {
	r := &w.er
	for o, out := range r.out {
		r.out[o] = out[:copy(out, out[below(out, w.sb, lo):])]
	}
	i := sort.Search(len(r.counts), func(i int) bool { return r.counts[i].parent >= lo })
	r.counts = r.counts[:copy(r.counts, r.counts[i:])]
	i = sort.Search(len(r.events), func(i int) bool { return r.events[i].key.parent >= lo })
	r.events = r.events[:copy(r.events, r.events[i:])]
}

// expandOne fires every rule from w.cur, as the sequential loop does, and
// reports false if the part must stop: a successor did not fit
// (w.overflow) or the budget refused its outbox memory (w.er.err).
func (w *part) expandOne() bool {
	r := &w.er
	from := 0
	for {
		_, rerr, errRule := w.mc.Expand(w.cur, from, w.emit)
		if r.err != nil || w.overflow {
			return false
		}
		if rerr == nil {
			break
		}
		r.events = append(r.events, partEvent{key: candKey{w.curID, 2 * w.nEmit}, v: runtimeViolation(rerr), rule: int32(errRule)})
		from = errRule + 1
	}
	// As the sequential loop: a failed rule leads nowhere, so the state
	// may still be deadlocked; stuck means no successor was fired.
	if w.opts.Deadlock == DeadlockOff {
		return true
	}
	if (w.opts.Deadlock == DeadlockStuck && w.nEmit == 0) ||
		(w.opts.Deadlock == DeadlockStuttering && !w.changed) {
		r.events = append(r.events, partEvent{key: candKey{w.curID, seqDeadlock}, rule: -1,
			v: &Violation{Kind: "deadlock", Pos: murphi.NoPos, Msg: "deadlock: no rule leads to a different state"}})
	}
	return true
}

func (w *part) onSuccessor(rule int, succ []int64) bool {
	if !w.changed {
		// As the sequential search: compared before symmetry reduction,
		// with multisets as bags.
		cmp := succ
		if len(w.m.Multisets) > 0 {
			cmp = w.sorted
			copy(cmp, succ)
			w.m.SortMultisets(cmp)
		}
		for i, v := range cmp {
			if v != w.cur[i] {
				w.changed = true
				break
			}
		}
	}
	seq := 2*w.nEmit + 1
	w.nEmit++
	// Packed from the parent's packed form (w.rec), as the sequential
	// search does: only the slots that differ are encoded.
	if w.canon != nil {
		// In a copy: the machine restores its state from the slots
		// compiled code wrote, so nothing else may change it.
		c := w.canonical
		copy(c, succ)
		w.canon(c)
		w.m.PackFrom(w.buf, w.rec[:w.sb], w.cur, c)
	} else {
		w.mc.PackSuccessor(w.buf, w.rec[:w.sb], w.cur)
	}
	h := state.Hash(w.buf)
	o := ownerOf(h, w.n, w.opts.HashBits == 0)
	out := w.er.out[o]
	size := w.sb + candExtra
	if need := len(out) + size; need > cap(out) || need > w.plan.outbox {
		if out = w.growOut(out, size, w.outLens[o] == 0); out == nil {
			return false
		}
	}
	at := len(out)
	out = out[:at+size]
	copy(out[at:], w.buf)
	binary.LittleEndian.PutUint64(out[at+w.sb:], h)
	binary.LittleEndian.PutUint64(out[at+w.sb+8:], uint64(w.curID))
	binary.LittleEndian.PutUint32(out[at+w.sb+16:], seq)
	binary.LittleEndian.PutUint32(out[at+w.sb+20:], uint32(rule))
	w.er.out[o] = out
	return true
}

// growOut gives an outbox room for size more bytes, within the plan's
// bound unless the outbox was empty when the state being expanded began
// (any); nil means it cannot: the successor does not fit (w.overflow), or
// the budget refused (w.er.err).
func (w *part) growOut(out []byte, size int, any bool) []byte {
	need := len(out) + size
	if need > w.plan.outbox && !any {
		w.overflow = true
		return nil
	}
	if need <= cap(out) {
		return out
	}
	n := min(max(2*cap(out), 64*size), w.plan.outbox)
	if n < need {
		n = max(2*cap(out), need)
	}
	grow := int64(n - cap(out))
	if !w.holdExchange(w.exAlloc + grow) {
		w.er.err = &budget.ErrExhausted{Part: exchangePart, Need: grow, Limit: w.b.Limit()}
		return nil
	}
	bigger := make([]byte, len(out), n)
	copy(bigger, out)
	return bigger
}

// admit takes the candidates every sender routed to this part (in[j] from
// sender j, each in key order) and admits them in key order: merged by the
// id of the state they come from (those of one state are contiguous in
// one sender's records), so that the first of duplicates, the states kept
// and the violations are those of a sequential search.
func (w *part) admit(in [][]byte, depth int) {
	// (in holds only records below the round's end: a part's own records
	// from there on wait in its outbox.)
	r := &w.ar
	w.acc, w.accStates = w.acc[:0], w.accStates[:0]
	r.hits, r.events, r.err = r.hits[:0], r.events[:0], nil
	size := w.sb + candExtra
	w.candidates = 0
	for _, recs := range in {
		w.candidates += len(recs) / size
	}
	pos := make([]int, len(in))
	parentAt := func(j int) int64 {
		return int64(binary.LittleEndian.Uint64(in[j][pos[j]+w.sb+8:]))
	}
	for r.err == nil {
		j, best := -1, int64(0)
		for k := range in {
			if pos[k] < len(in[k]) {
				if p := parentAt(k); j < 0 || p < best {
					j, best = k, p
				}
			}
		}
		if j < 0 {
			break
		}
		for pos[j] < len(in[j]) && parentAt(j) == best && r.err == nil {
			w.candidate(in[j][pos[j]:pos[j]+size], depth)
			pos[j] += size
		}
	}
	r.acc = w.acc
	r.stats = w.stats()
}

// candidate admits one successor record: the sequential engine's admit,
// with the trail and the queue left to commit.
func (w *part) candidate(rec []byte, depth int) {
	r := &w.ar
	s := rec[:w.sb]
	h := binary.LittleEndian.Uint64(rec[w.sb:])
	key := candKey{int64(binary.LittleEndian.Uint64(rec[w.sb+8:])), binary.LittleEndian.Uint32(rec[w.sb+16:])}
	rule := binary.LittleEndian.Uint32(rec[w.sb+20:])
	found, _, at := w.visited.Find(s, h)
	if found {
		return
	}
	if w.needSlots {
		w.up.Unpack(s, w.slots)
	}
	if v, discard := admissibility(w.mc, w.m, w.slots); discard {
		if v != nil {
			r.events = append(r.events, partEvent{key: key, v: v, rule: int32(rule), bad: append([]int64(nil), w.slots...)})
		}
		return
	}
	for {
		err := w.visited.Insert(at, s, h, w.local, depth)
		if err == nil {
			break
		}
		if !isExhausted(err) || w.makeRoom == nil || !w.makeRoom() {
			r.err = err
			return
		}
		_, _, at = w.visited.Find(s, h)
	}
	w.local++
	if len(w.accStates)+w.sb > cap(w.accStates) && !w.growAccepted() {
		return
	}
	stored := false
	if rerr := coversHeld(w.mc, w.m, w.slots, w.hit); rerr != nil {
		r.events = append(r.events, partEvent{key: key, v: runtimeViolation(rerr), rule: int32(rule), bad: append([]int64(nil), w.slots...), kept: true})
		stored = true
	}
	w.acc = append(w.acc, accepted{key: key, rule: rule, stored: stored})
	w.accStates = append(w.accStates, s...)
}

// growAccepted doubles the room for accepted states, up to the round's
// number of candidates; false means the budget refused (w.ar.err says so).
func (w *part) growAccepted() bool {
	recs := min(max(2*cap(w.acc), 1024), w.candidates)
	if recs <= cap(w.acc) {
		w.ar.err = fmt.Errorf("parallel search: more states accepted than the %d candidates of the round", w.candidates)
		return false
	}
	grow := int64(recs-cap(w.acc)) * int64(w.sb+acceptedBytes)
	if !w.holdExchange(w.exAlloc + grow) {
		w.ar.err = &budget.ErrExhausted{Part: exchangePart, Need: grow, Limit: w.b.Limit()}
		return false
	}
	acc := make([]accepted, len(w.acc), recs)
	copy(acc, w.acc)
	states := make([]byte, len(w.accStates), recs*w.sb)
	copy(states, w.accStates)
	w.acc, w.accStates = acc, states
	return true
}

func (w *part) stats() partStats {
	return partStats{visited: w.visited.Stats(), states: w.visited.Len(), bytes: w.visited.Bytes(),
		used: w.b.Used(), peak: w.b.Peak(), queue: w.front.Stats()}
}

// close releases everything the part holds.
func (w *part) close() {
	w.visited.Release()
	w.front.Close()
	w.releaseExchange()
}
