package explore

// This file implements the search loop every engine runs: pop a state from
// the frontier (a FIFO for breadth-first engines, a LIFO for depth-first),
// fire its enabled rules, and admit each successor: canonicalise, look it
// up in the visited set, check the properties, give it an id in the trail,
// and queue it. Engines differ in the visited set they plug in and in the
// hooks they set (what to do when the set is full, when to give up).

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/queue"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/store"
	"github.com/locus-mc/locus/core/trail"
	"github.com/locus-mc/locus/storagefs"
)

type searcher struct {
	ctx  context.Context
	m    *compile.Model
	opts Options
	lifo bool

	b       *budget.Budget
	mc      *compile.Machine
	up      *compile.Unpacker
	visited store.Visited
	trail   *trail.Trail
	front   queue.FIFO
	canon   func([]int64)

	rec     []byte // record being pushed: state | id (8) | depth (4)
	cur     []int64
	curPack []byte // cur packed
	// canonSlots holds the canonical form of a state (canon works on a
	// copy: the machine tracks what compiled code writes in its state).
	canonSlots []int64
	curID      int64
	depth      int // depth of the state being expanded
	changed    bool
	fired      int     // successors of the state being expanded
	sorted     []int64 // a successor with its multisets sorted
	emit       compile.Emit

	res       *Result
	maxErrors int
	stop      bool
	started   time.Time
	nextCheck time.Time
	expanded  int64

	// BFS level accounting: states left to expand in this level, states
	// queued for the next, the level being expanded.
	levelLeft, nextLevel int64
	level                int

	props    *props
	locality *localityStats
	// unsure is set by engines that may end without having visited every
	// state although nothing stopped them (rbfs): covers and liveness are
	// then not decided.
	unsure bool

	// Engine hooks, all optional.
	// full is called when the visited set refuses an insertion for lack
	// of memory; it reports whether it made room (the insertion is then
	// retried) and otherwise the run ends incomplete.
	full func(err error) bool
	// levelDone is called by breadth-first engines when a level has been
	// expanded; it reports whether the search must stop.
	levelDone func() bool
	// inserted is called for every state inserted into the visited set.
	inserted func(h uint64)
	// phase names the engine's current mode in progress samples.
	phase func() string
	// extraProgress adds engine figures to a progress sample.
	extraProgress func(*job.Progress)
	// countStates, if set, counts the states found so far where the
	// trail does not (the generated search keeps its own).
	countStates func() int64
	// exhaustedHint adds advice to the reason of a run that ran out of
	// memory.
	exhaustedHint func(err error) string
	// enqueue, if set, takes the record (state | id | depth) of every
	// state the visited set accepted, with its parent and rule, instead of
	// the frontier: the engine checks these candidates later and calls
	// queueKept for the survivors (disk-based BFS).
	enqueue func(rec []byte, at uint64, parent int64, rule uint32) error
	// checkLater leaves props.admissible to the engine, which calls it for
	// the survivors of its check only (never with liveness properties: a
	// discarded candidate must not have an id in their graph).
	checkLater bool
	// afterExpand is called after every state taken from the frontier,
	// expanded or not (a bound); it reports whether the search must stop.
	afterExpand func() bool
	// resumed skips the start states: the engine restored the frontier
	// from a checkpoint.
	resumed bool
	// beforeViolation is called before a violation found while expanding
	// a state is recorded: an engine holding unchecked candidates (found
	// earlier in breadth-first order) checks them first.
	beforeViolation func()
	// pathRules, if set, gives the rules of the path to a kept state (the
	// start state's index first) in place of the trail: for an engine
	// whose own store keeps the path but not its rules.
	pathRules func(id int64) ([]int32, error)
}

func (s *searcher) recSize() int { return s.m.StateBytes + 12 }

// newSearcher prepares a search of m; the engine then sets s.visited (and
// its hooks) and calls s.run. An error result means the run could not start.
func newSearcher(ctx context.Context, m *compile.Model, opts Options, lifo bool) (*searcher, *Result) {
	return setupSearcher(ctx, m, opts, lifo, func(rec int, b *budget.Budget) (queue.FIFO, error) {
		return newFrontier(rec, b, opts, lifo, "")
	})
}

// setupSearcher is newSearcher with the engine's own frontier: engines with
// their own open set (state caching, RBFS) give an in-memory queue they
// never push to.
// symmetryOffForLiveness says why m must be searched without symmetry
// reduction, or "": a liveness property per scalarset element is not
// preserved by the quotient graph, so the full one is explored.
func symmetryOffForLiveness(m *compile.Model) string {
	for _, p := range m.Liveness {
		if p.PerElement {
			return fmt.Sprintf("liveness property %q depends on a scalarset ruleset parameter, and the reduced graph does not preserve it", p.Name)
		}
	}
	return ""
}

func setupSearcher(ctx context.Context, m *compile.Model, opts Options, lifo bool, frontier func(rec int, b *budget.Budget) (queue.FIFO, error)) (*searcher, *Result) {
	s := &searcher{ctx: ctx, m: m, opts: opts, lifo: lifo, started: time.Now()}
	s.res = &Result{StatesExact: true, MemoryBudget: opts.MemoryBytes, Workers: 1}
	s.maxErrors = opts.MaxErrors
	if s.maxErrors <= 0 {
		s.maxErrors = 1
	}
	if s.opts.ProgressEvery <= 0 {
		s.opts.ProgressEvery = 100 * time.Millisecond
	}
	if why := symmetryOffForLiveness(m); opts.Symmetry != SymmetryOff && why != "" {
		s.opts.Symmetry = SymmetryOff
		s.res.SymmetryOffReason = why
	}
	s.b = budget.New(opts.MemoryBytes)
	s.mc = m.NewMachine()
	s.up = m.NewUnpacker()
	s.canon = newCanonicalizer(m, s.opts.Symmetry)
	rules := len(m.Rules)
	if len(m.Starts) > rules {
		rules = len(m.Starts)
	}
	if !opts.Resume {
		// A resumed run restores its trail and frontier from the
		// checkpoint instead.
		var err error
		s.trail, err = trail.New(s.b, opts.FS, "trail-", rules)
		if err != nil {
			return nil, s.fail(err)
		}
		s.front, err = frontier(s.recSize(), s.b)
		if err != nil {
			s.trail.Close()
			return nil, s.fail(err)
		}
	}
	s.rec = make([]byte, s.recSize())
	s.cur = make([]int64, m.NumSlots)
	s.curPack = make([]byte, m.StateBytes)
	s.canonSlots = make([]int64, m.NumSlots)
	s.sorted = make([]int64, m.NumSlots)
	s.props = newProps(s)
	s.emit = s.onSuccessor
	s.nextCheck = s.started.Add(s.opts.ProgressEvery)
	return s, nil
}

// fail ends a run that could not start or go on because of err.
func (s *searcher) fail(err error) *Result {
	s.incomplete(err)
	s.res.Elapsed = time.Since(s.started)
	return s.res
}

// isExhausted reports whether err is a refused memory reservation or a
// full disk: reasons to end incomplete rather than in error.
func isExhausted(err error) bool {
	var ex *budget.ErrExhausted
	return errors.As(err, &ex) || errors.Is(err, storagefs.ErrQuotaExceeded)
}

// incomplete ends the run because a resource ran out (or with an error).
func (s *searcher) incomplete(err error) {
	// Storage the browser evicted (or the user cleared) mid-run is a
	// resource gone, like a full quota: the run is incomplete, not broken.
	if isExhausted(err) || errors.Is(err, storagefs.ErrStoreGone) {
		s.res.Verdict = Incomplete
		s.res.ranOut = true
		s.res.Reason = fmt.Sprintf("%s after %d states", err.Error(), s.statesSoFar())
		if s.exhaustedHint != nil {
			s.res.Reason += s.exhaustedHint(err)
		}
	} else {
		s.res.Verdict = Error
		s.res.Reason = err.Error()
	}
	s.stop = true
}

func (s *searcher) statesSoFar() int64 {
	if s.countStates != nil {
		return s.countStates()
	}
	if s.trail == nil {
		return 0
	}
	return s.trail.Len()
}

// run searches from the start states and returns the result.
func (s *searcher) run() *Result {
	defer s.front.Close()
	defer s.trail.Close()
	defer func() {
		if s.visited != nil {
			s.visited.Release()
		}
	}()
	if !s.resumed {
		s.startStates()
	}
	if !s.stop {
		s.loop()
	}
	return s.finish()
}

func (s *searcher) startStates() {
	if s.runStarts(func(slots []int64, i int) bool { return s.admit(slots, trail.None, uint32(i), 0) }) {
		return
	}
	s.levelLeft, s.nextLevel = s.nextLevel, 0
}

// runStarts runs every start state and passes the state each makes to take
// (the machine's own state: canonicalise in a copy). A start state that
// fails is reported, one that fails an assumption skipped. take and
// runStarts report whether the search must stop.
func (s *searcher) runStarts(take func(slots []int64, start int) bool) bool {
	for i := range s.m.Starts {
		rerr, assumed := s.mc.RunStart(i)
		if assumed {
			continue
		}
		if rerr != nil {
			s.violation(runtimeViolation(rerr), trail.None, int32(i), nil)
			if s.stop {
				return true
			}
			continue
		}
		if take(s.mc.State(), i) {
			return true
		}
	}
	return false
}

// admit handles a state reached at depth from the state with id parent by
// rule (a start state's number when parent is trail.None). It reports
// whether the search must stop.
func (s *searcher) admit(slots []int64, parent int64, rule uint32, depth int) bool {
	slots = s.pack(slots, parent >= 0)
	buf := s.rec[:s.m.StateBytes]
	h := state.Hash(buf)
	found, old, at := s.visited.Find(buf, h)
	if found {
		if s.locality != nil && parent != trail.None {
			if old == s.curID {
				s.locality.selfLoop()
			} else {
				s.locality.edge(s.depth, s.levelOf(old))
			}
		}
		return s.props.logEdge(parent, old)
	}
	id, kept, stop := s.keep(slots, buf, h, at, parent, rule, depth)
	if !kept {
		return stop
	}
	return s.push(id, depth)
}

// queueKept counts a kept state (covers, liveness marks, level sizes) and
// queues it for expansion; it reports whether the search must stop. rec
// holds its packed form. Engines that check candidates later (enqueue)
// call it once a candidate is known to be new.
func (s *searcher) queueKept(id int64, slots []int64, parent int64, rule uint32, depth int) bool {
	if kept, stop := s.counted(id, slots, parent, rule, depth); !kept {
		return stop
	}
	return s.push(id, depth)
}

// counted marks a kept state's covers and liveness and counts it in its
// level; kept is false if it is stored but not to be expanded.
func (s *searcher) counted(id int64, slots []int64, parent int64, rule uint32, depth int) (kept, stop bool) {
	if s.props.kept(id, slots, parent, rule) {
		return false, s.stop // stored, not expanded
	}
	for len(s.res.LevelSizes) <= depth {
		s.res.LevelSizes = append(s.res.LevelSizes, 0)
	}
	s.res.LevelSizes[depth]++
	if depth > s.res.Depth {
		s.res.Depth = depth
	}
	return true, false
}

// push queues the state packed in s.rec with its id and depth.
func (s *searcher) push(id int64, depth int) bool {
	binary.LittleEndian.PutUint64(s.rec[s.m.StateBytes:], uint64(id))
	binary.LittleEndian.PutUint32(s.rec[s.m.StateBytes+8:], uint32(depth))
	if err := s.front.Push(s.rec); err != nil {
		s.incomplete(err)
		return true
	}
	s.nextLevel++
	return false
}

// pack writes the packed canonical form of slots into s.rec and returns
// the canonical slots; the machine's working state is left alone (it is
// canonicalized in a copy). A successor of cur is packed from cur's packed
// form, encoding only what the rule wrote.
func (s *searcher) pack(slots []int64, successor bool) []int64 {
	buf := s.rec[:s.m.StateBytes]
	if s.canon == nil {
		if successor {
			s.mc.PackSuccessor(buf, s.curPack, s.cur)
		} else {
			s.m.Pack(slots, buf)
		}
		return slots
	}
	canon := s.canonSlots
	copy(canon, slots)
	s.canon(canon)
	if successor {
		s.m.PackFrom(buf, s.curPack, s.cur, canon)
	} else {
		s.m.Pack(canon, buf)
	}
	return canon
}

// canonical returns the canonical form of slots (a copy when symmetry
// reduction changes it: the machine's working state must only change
// through compiled code, which it restores from), its packed form (in
// s.rec) and its table hash, all valid until the next call. Engines with
// their own loops use it; the BFS/DFS loop packs incrementally (pack).
func (s *searcher) canonical(slots []int64) ([]int64, []byte, uint64) {
	if s.canon != nil {
		canon := s.canonSlots
		copy(canon, slots)
		s.canon(canon)
		slots = canon
	}
	buf := s.rec[:s.m.StateBytes]
	s.m.Pack(slots, buf)
	return slots, buf, state.Hash(buf)
}

// keep handles a canonical state (slots, packed as buf with hash h) that
// the visited set did not find (at is where Find said to insert it): the
// checks of a state seen for the first time, the insertion, its trail
// record and its marks. It returns the state's id and whether it was kept
// (assumptions and invariants may discard it; a full set that the engine
// cannot make room in ends the search), and whether the search must stop.
// Engines with their own loops call it for every state they keep, so that
// every engine checks in the same order and records one trail entry per
// kept state.
func (s *searcher) keep(slots []int64, buf []byte, h, at uint64, parent int64, rule uint32, depth int) (id int64, kept, stop bool) {
	// Rumur's order: a state violating an assumption is discarded silently;
	// one violating an invariant is reported and not stored. An engine
	// that checks candidates later may check them there (checkLater).
	if !s.checkLater {
		if stop, discard := s.props.admissible(slots, parent, rule); stop || discard {
			return -1, false, stop
		}
	}
	id = s.trail.Len()
	for {
		err := s.visited.Insert(at, buf, h, id, depth)
		if err == nil {
			break
		}
		if !isExhausted(err) || s.full == nil || !s.full(err) {
			s.incomplete(err)
			return -1, false, true
		}
		// The engine made room (or changed the set): look again.
		found, old, where := s.visited.Find(buf, h)
		if found {
			return -1, false, s.props.logEdge(parent, old)
		}
		at = where
	}
	if s.inserted != nil {
		s.inserted(h)
	}
	for {
		_, err := s.trail.Append(parent, rule)
		if err == nil {
			break
		}
		// The trail's growth may be what fills the budget: the engine
		// makes room as for the set (auto compacts it, bfs spills).
		if !isExhausted(err) || s.full == nil || !s.full(err) {
			s.incomplete(err)
			return -1, false, true
		}
	}
	if s.opts.Observe != nil {
		s.opts.Observe(buf)
	}
	if s.locality != nil && parent != trail.None {
		s.locality.edge(s.depth, depth)
	}
	if s.props.logEdge(parent, id) {
		return id, false, true
	}
	if s.enqueue != nil {
		// The engine checks and counts it later (queueKept).
		binary.LittleEndian.PutUint64(s.rec[s.m.StateBytes:], uint64(id))
		binary.LittleEndian.PutUint32(s.rec[s.m.StateBytes+8:], uint32(depth))
		if err := s.enqueue(s.rec, at, parent, rule); err != nil {
			s.incomplete(err)
			return id, false, true
		}
		return id, false, false
	}
	kept, stop = s.counted(id, slots, parent, rule, depth)
	return id, kept, stop
}

// levelOf returns the BFS level of the state with id: ids are given in BFS
// order, so the level sizes tell it (most states met again are recent, so
// the search starts from the last level).
func (s *searcher) levelOf(id int64) int {
	first := s.trail.Len()
	for l := len(s.res.LevelSizes) - 1; l >= 0; l-- {
		first -= s.res.LevelSizes[l]
		if id >= first {
			return l
		}
	}
	return 0
}

func (s *searcher) onSuccessor(rule int, succ []int64) bool {
	s.countSuccessor(succ)
	return !s.admit(succ, s.curID, uint32(rule), s.depth+1)
}

// countSuccessor counts a rule fired from the state being expanded (s.cur)
// and notes whether it led to a different state (s.changed): every engine
// calls it for every successor, so all decide deadlocks alike.
func (s *searcher) countSuccessor(succ []int64) {
	s.res.RulesFired++
	s.fired++
	if s.changed {
		return
	}
	// The successor is compared before symmetry reduction (as Rumur
	// and CMurphi do), but a multiset is a bag: entries that only
	// moved are the same state.
	if len(s.m.Multisets) == 0 {
		s.changed = s.mc.Differs(s.cur) // (only the slots the rule wrote)
		return
	}
	cmp := s.sorted
	copy(cmp, succ)
	s.m.SortMultisets(cmp)
	for i, v := range cmp {
		if v != s.cur[i] {
			s.changed = true
			return
		}
	}
}

// deadlocked reports a deadlock of the state being expanded if it is one,
// given whether any rule fired from it and whether one led to a different
// state.
func (s *searcher) deadlocked(fired, changed bool) {
	// A rule that failed leads nowhere, so the state may still be
	// deadlocked (Rumur reports both when it keeps going after errors).
	// Stuck: no rule fired. A rule whose body failed an assume
	// statement leads nowhere (Rumur counts it so too).
	if (s.opts.Deadlock == DeadlockStuck && !fired) ||
		(s.opts.Deadlock == DeadlockStuttering && !changed) {
		s.violation(&Violation{Kind: "deadlock", Pos: murphi.NoPos, Msg: "deadlock: no rule leads to a different state"}, s.curID, -1, nil)
	}
}

func (s *searcher) loop() {
	sb := s.m.StateBytes
	for !s.stop {
		if !s.lifo && s.levelLeft == 0 {
			// A BFS level is done.
			if s.levelDone != nil && s.levelDone() {
				return
			}
			if s.nextLevel == 0 && s.front.Len() == 0 {
				return
			}
		}
		rec, err := s.front.Pop()
		if err != nil {
			s.incomplete(err)
			return
		}
		if rec == nil {
			return
		}
		s.curID = int64(binary.LittleEndian.Uint64(rec[sb:]))
		s.depth = int(binary.LittleEndian.Uint32(rec[sb+8:]))
		if !s.lifo {
			if s.levelLeft == 0 {
				s.level++
				s.levelLeft, s.nextLevel = s.nextLevel, 0
			}
			s.levelLeft--
			s.depth = s.level
		}
		s.up.UnpackNext(rec[:sb], s.cur) // (s.cur is only written here)
		copy(s.curPack, rec[:sb])
		s.expanded++
		if s.expanded&255 == 0 && s.checkpoint() {
			return
		}
		s.expand()
		if s.stop || (s.afterExpand != nil && s.afterExpand()) {
			return
		}
	}
}

// expand fires the rules of the current state and checks it for deadlock.
func (s *searcher) expand() {
	if s.opts.Bound > 0 && s.depth >= s.opts.Bound {
		s.res.Reason = fmt.Sprintf("bound %d reached: states at depth %d were not expanded", s.opts.Bound, s.opts.Bound)
		return
	}
	if s.locality != nil {
		s.locality.begin()
	}
	if s.fireAll(s.emit) {
		return
	}
	if s.locality != nil {
		s.locality.end()
	}
	s.deadlocked(s.fired > 0, s.changed)
}

// fireAll fires every enabled rule of the state being expanded (s.cur),
// passing each successor to emit; a rule that fails is reported and the
// next one fires (until the violation limit stops the search). It counts
// from zero the rules fired and whether one changed the state, and reports
// whether the search must stop.
func (s *searcher) fireAll(emit compile.Emit) bool {
	s.changed = false
	s.fired = 0
	from := 0
	for {
		_, rerr, errRule := s.mc.Expand(s.cur, from, emit)
		if s.stop {
			return true
		}
		if rerr == nil {
			return false
		}
		s.violation(runtimeViolation(rerr), s.curID, int32(errRule), nil)
		if s.stop {
			return true
		}
		from = errRule + 1
	}
}

// checkpoint reports progress and checks for cancellation; it reports
// whether the search must stop.
func (s *searcher) checkpoint() bool {
	select {
	case <-s.ctx.Done():
		s.res.Verdict = Incomplete
		s.res.Reason = fmt.Sprintf("cancelled after %d states", s.statesSoFar())
		s.stop = true
		return true
	default:
	}
	now := time.Now()
	if now.Before(s.nextCheck) {
		return false
	}
	s.nextCheck = now.Add(s.opts.ProgressEvery)
	if s.opts.Progress != nil {
		s.opts.Progress(s.progress(now))
	}
	return false
}

func (s *searcher) progress(now time.Time) job.Progress {
	level := len(s.res.LevelSizes) - 1
	if level < 0 {
		level = 0
	}
	qs := s.front.Stats()
	tw, tr := s.trail.IO()
	vs := s.visited.Stats()
	p := job.Progress{
		Seconds:       now.Sub(s.started).Seconds(),
		States:        s.visited.Len(),
		StatesVisited: vs.Inserted,
		RulesFired:    s.res.RulesFired,
		Level:         level,
		QueueMemory:   qs.InMemory,
		QueueDisk:     qs.OnDisk,
		MemoryBytes:   s.b.Used(),
		MemoryBudget:  s.b.Limit(),
		BytesWritten:  qs.BytesWritten + tw,
		BytesRead:     qs.BytesRead + tr,
		DiskBytes:     qs.OnDisk*int64(s.front.RecordSize()) + s.trail.DiskBytes(),
		TrailBytes:    s.trail.MemoryBytes() + s.trail.DiskBytes(),
	}
	if vs.Inserted > 0 {
		p.CollisionRate = float64(vs.Evicted) / float64(vs.Inserted)
	}
	if s.phase != nil {
		p.Phase = s.phase()
	}
	if p.Seconds > 0 {
		p.StatesPerSec = float64(p.StatesVisited) / p.Seconds
	}
	if s.extraProgress != nil {
		s.extraProgress(&p)
	}
	return p
}

func (s *searcher) finish() *Result {
	r := s.res
	vs := s.visited.Stats()
	r.States = s.visited.Len()
	r.StatesVisited = vs.Inserted
	if vs.Inserted > 0 {
		r.CollisionRate = float64(vs.Evicted) / float64(vs.Inserted)
	}
	r.OmissionBound = vs.OmissionBound
	r.PeakBytes = s.b.Peak()
	r.VisitedBytes = s.visited.Bytes()
	qs := s.front.Stats()
	tw, tr := s.trail.IO()
	r.DiskWritten, r.DiskRead = qs.BytesWritten+tw, qs.BytesRead+tr
	complete := !s.stop && r.Verdict == Pass && r.Reason == "" && !s.unsure
	s.props.finish(complete)
	if len(r.Violations) > 0 {
		r.Verdict = Fail
	} else if r.Verdict == Pass && r.Reason != "" {
		r.Verdict = Incomplete // the bound cut the search short
	}
	if r.Guarantee == "" {
		switch {
		case r.Verdict != Pass:
			r.Guarantee = job.GuaranteeNotComplete
		case vs.OmissionBound > 0:
			r.Guarantee = job.GuaranteeOmissionBound
		default:
			r.Guarantee = job.GuaranteeExact
		}
	}
	if s.locality != nil && complete {
		r.Locality = s.locality.result()
	}
	r.Elapsed = time.Since(s.started)
	return r
}

// violation records v, found when firing rule from the state with id parent
// (or at that state, if rule < 0); bad is the offending state when it was
// never stored (a failed invariant), else nil.
func (s *searcher) violation(v *Violation, parent int64, rule int32, bad []int64) {
	if s.beforeViolation != nil {
		if s.beforeViolation(); s.stop {
			return
		}
	}
	if s.opts.Trace != TraceNone {
		v.Trace = s.buildTrace(parent, rule, bad)
	}
	s.res.Violations = append(s.res.Violations, v)
	if len(s.res.Violations) >= s.maxErrors {
		s.stop = true
	}
}

func runtimeViolation(e *compile.RuntimeError) *Violation {
	return &Violation{Kind: e.Kind, Name: e.Name, Msg: e.Msg, Pos: e.Pos}
}

// spillTrail sends the trail's full chunks to storage and reports whether
// that freed memory: room for a visited set that met the budget before
// the trail did.
func spillTrail(t *trail.Trail) bool {
	held := t.MemoryBytes()
	return t.Spill() == nil && t.MemoryBytes() < held
}
