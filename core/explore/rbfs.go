package explore

// This file registers randomized breadth-first search with its observer
// (Tronci, Della Penna, Intrigila, Venturini Zilli, "A probabilistic
// approach to automatic verification of concurrent systems", APSEC 2001,
// Figs. 1-3). A queue of at most W states and a cache T of visited states
// (no collision detection: a new state overwrites an old one) take fixed
// memory. A run is a series of randomized BF visits of L levels each: the
// old states of the queue are expanded in random order; the successors not
// in T form B, of which as many as the queue has room for are picked at
// random, inserted in T and queued as new states. A successor left out may
// never be visited: the one-step omission probability of a state x is the
// product, over the choices whose B held x, of 1 - min(1, room/|B|)
// (Prop. 1). The observer tracks it for k states sampled at random late in
// visits (level > 2L/3) and stops the run when the largest, PomIs, falls
// below MAXPOM: the verdict is then pass with PomIs as the estimated
// probability that some reachable state was missed (Hyp. 1 of the paper),
// never a plain pass.
//
// The visit's length. Fig. 3 draws L in [N, 3N] for N the state's bits,
// far more than the BFS depth of the models (sci: 437 bits, depth 62): a
// visit whose cache forgets then never ends (it keeps re-reaching what it
// forgot), the state overhead reaches its limit inside visit 1 and nothing
// is sampled. The paper's own figures show visits of about 110-320 levels
// on sci (state overhead / queue size), i.e. two to five times its depth,
// so we draw L in [D, 3D] (plus one) with D the depth the run has found:
// the deepest level of a visit at which at least half the states inserted
// had never been seen before (a BFS frontier; the distinct-state sample
// tells). D is raised while a visit runs, so a first visit goes as deep as
// the model's frontier; levels beyond it that only meet a few new states
// among many forgotten ones (a cache too small) do not stretch it.
//
// Guards the paper's schema lacks, so that the observer never accepts a
// run on no evidence. Unless the visit was a complete BFS (it left no
// successor out and its queue ran dry), a run is accepted only after a
// whole visit that met no state the run had never seen (the distinct-state
// sample tells): a short visit, or one that ends with states still queued,
// may not have generated states that are then not in the observer's
// domain at all. A run that left successors out is accepted only with
// samples. The states still queued when a visit ends stay
// queued for the next one (Fig. 2). The run gives up (incomplete) when the
// states visited reach `overhead` times the distinct states seen (the
// paper stopped at 10).

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/store"
	"github.com/locus-mc/locus/core/trail"
)

func init() {
	register(job.EngineInfo{
		Name:  "rbfs",
		Title: "Randomized BFS with an omission estimate (fixed memory, probabilistic)",
		Help: "Repeated randomized breadth-first visits with a fixed-size queue and a cache of visited states: when the queue is full, " +
			"successors are picked at random, and an observer samples states to estimate the probability that some state was never visited. " +
			"It passes when that estimate falls below MAXPOM, and says so: the guarantee is an estimate, not a proof.",
		Levels: true, UsesStorage: true, Randomized: true, HashCompaction: true,
		Params: []job.ParamInfo{
			{Name: "g", Title: "Share of the memory for the queue (the paper's g)", Default: 0.8, Min: 0.01, Max: 0.99},
			{Name: "k", Title: "States the observer samples at once (the paper used a hundredth to a thousandth of the reachable states)", Default: 200, Min: 1, Max: 1 << 24, Integer: true},
			{Name: "maxpom", Title: "Stop when the estimated omission probability falls below this (MAXPOM)", Default: 0.01, Min: 1e-9, Max: 1},
			{Name: "overhead", Title: "Give up when the states visited reach this many times the distinct states seen", Default: 10, Min: 1, Max: 1e6},
		},
	}, rbfs)
}

// rbfsRun is one run of randomized BFS.
type rbfsRun struct {
	s     *searcher
	rng   *rand.Rand
	cache *store.Table
	samp  *distinctSample

	// The queue: W records (state | id), old states first, then new.
	q          []byte
	w          int
	nOld, nNew int
	rec        int
	qHeld      int64

	starts    []byte // the start states' records, queued again at every visit
	nStarts   int
	startHeld int64

	// B: the successors of the state being expanded that are not in T.
	bStates []byte
	bHash   []uint64
	bRule   []uint32
	nB      int
	bHeld   int64
	slots   []int64

	obs observer

	level       int     // the level of this visit
	stretch     float64 // this visit's L / D, drawn in [1, 3]
	deepest     int     // D: the deepest level that was mostly never-seen states
	levelIns    int64   // states inserted at this level
	levelFresh  int64   // of them, never seen before and in the sample
	globalLevel int     // levels over all visits: the cache's age stamp
	visit       int
	dropped     int64
	gaveUp      bool
	overhead    float64
	maxPom      float64
}

func rbfs(ctx context.Context, m *compile.Model, opts Options) *Result {
	var note string
	if opts.MemoryBytes == 0 {
		opts.MemoryBytes = DefaultCacheBudget
		note = fmt.Sprintf("rbfs needs a memory budget; it used %s (set one with -m)", budget.FormatBytes(DefaultCacheBudget))
	}
	s, failed := setupSearcher(ctx, m, opts, false, ownFrontier)
	if failed != nil {
		return failed
	}
	if note != "" {
		s.res.Notes = append(s.res.Notes, note)
	}
	r := &rbfsRun{s: s, rec: m.StateBytes + 8, overhead: opts.Param("overhead"), maxPom: opts.Param("maxpom")}
	r.rng = rand.New(rand.NewPCG(uint64(opts.Seed), 0x243f6a8885a308d3))
	if err := r.setup(); err != nil {
		r.release()
		return abandon(s, err)
	}
	defer r.release()
	return r.run()
}

// setup sizes and reserves the queue, the cache, the observer's samples
// and the estimate of distinct states.
func (r *rbfsRun) setup() error {
	s := r.s
	var err error
	if r.samp, err = newSampleFrom(s.b, sampleBytes(s), 1<<10); err != nil {
		return err
	}
	if err = r.obs.init(s.b, int(s.opts.Param("k"))); err != nil {
		return err
	}
	r.nStarts = len(s.m.Starts)
	r.startHeld = int64(r.nStarts * r.rec)
	if !s.b.Reserve("start states", r.startHeld) {
		r.startHeld = 0
		return &budget.ErrExhausted{Part: "start states", Need: int64(r.nStarts * r.rec), Limit: s.b.Limit()}
	}
	r.starts = make([]byte, 0, r.nStarts*r.rec)
	r.slots = make([]int64, s.m.NumSlots)
	avail := s.b.Available() - trailRoom(s)
	if s.opts.FS == nil {
		// The trail stays in memory: leave it a quarter.
		avail -= s.b.Limit() / 4
		s.res.Notes = append(s.res.Notes, "rbfs ran without disk storage: the counterexample trail stays in memory and took a quarter of the budget")
	}
	// Room for the successors of a few states (B grows if it needs more).
	avail -= int64(64 * (s.m.StateBytes + 12))
	g := s.opts.Param("g")
	r.w = int(float64(avail) * g / float64(r.rec))
	// With hash compaction the cache holds k-bit signatures (the paper's
	// runs used Murphi's -c: 40 bits).
	to := store.TableOptions{IDs: len(s.m.Liveness) > 0, SigBits: s.opts.HashBits}
	capacity := store.CacheCapacity(s.m.StateBytes, to, avail-int64(r.w*r.rec))
	if r.w < 1 || capacity < 1 {
		return &exhausted{fmt.Sprintf("the memory budget of %s leaves no room for rbfs's queue and cache", budget.FormatBytes(s.b.Limit())),
			&budget.ErrExhausted{Part: "rbfs queue", Limit: s.b.Limit()}}
	}
	r.qHeld = int64(r.w * r.rec)
	if !s.b.Reserve("rbfs queue", r.qHeld) {
		r.qHeld = 0
		return &budget.ErrExhausted{Part: "rbfs queue", Need: int64(r.w * r.rec), Limit: s.b.Limit()}
	}
	r.q = make([]byte, r.w*r.rec)
	to.Capacity = capacity
	if r.cache, err = store.NewCache(s.m.StateBytes, s.b, to); err != nil {
		return err
	}
	s.visited = r.cache
	s.res.CacheStates = capacity
	s.inserted = func(h uint64) {
		r.levelIns++
		if r.samp.add(h, r.level) {
			r.levelFresh++
		}
	}
	s.extraProgress = func(p *job.Progress) {
		p.Visits = r.visit
		p.PomIs = r.obs.max()
		p.Samples = r.obs.taken
		p.States = r.samp.estimate()
		p.CacheFill = r.cache.Fill()
		p.QueueMemory = int64(r.nOld + r.nNew)
		p.Level = r.level
	}
	return nil
}

func (r *rbfsRun) release() {
	s := r.s
	if r.samp != nil {
		r.samp.release()
	}
	r.obs.release()
	s.b.Release("start states", r.startHeld)
	s.b.Release("rbfs queue", r.qHeld)
	s.b.Release("rbfs successors", r.bHeld)
	r.startHeld, r.qHeld, r.bHeld = 0, 0, 0
}

func (r *rbfsRun) run() *Result {
	s := r.s
	defer s.front.Close()
	defer s.trail.Close()
	defer s.visited.Release()
	sure, exact := false, false
	for !s.stop {
		r.visit++
		// The visit's length: L = stretch * D levels, stretch in [1, 3].
		r.stretch = 1 + 2*r.rng.Float64()
		r.initQueue()
		if s.stop {
			break
		}
		visitFrom := r.samp.inserts
		r.level = 1
		for ; r.level <= r.maxLevel() && r.nOld > 0 && !s.stop; r.level++ {
			r.globalLevel++
			for r.nOld > 0 && !s.stop {
				r.expandOne()
			}
			// Relabel the new states as old: they are the next level.
			r.nOld, r.nNew = r.nNew, 0
			if r.levelFresh > 0 && 2*(r.levelFresh<<r.samp.k) >= r.levelIns {
				r.deepest = max(r.deepest, r.level)
			}
			r.levelIns, r.levelFresh = 0, 0
		}
		if s.stop {
			r.record(false) // the visit it stopped in, so far
			break
		}
		drained := r.nOld == 0
		r.record(drained)
		pom := r.obs.max()
		// The observer (Fig. 3), with the guards described above.
		nothingNew := r.samp.lastNewAt <= visitFrom
		if pom < r.maxPom && ((r.dropped == 0 && drained) || (nothingNew && (r.dropped == 0 || r.obs.taken > 0))) {
			sure = true
			exact = r.dropped == 0 && drained
			break
		}
		if r.givingUp() {
			break
		}
	}
	s.unsure = !exact
	res := s.finish()
	res.StatesExact = false
	res.StatesEstimate = r.samp.estimate()
	if sure && res.Verdict == Pass {
		est := r.obs.max()
		res.Guarantee = job.GuaranteeOmissionEstimate
		res.OmissionEstimate = &est
		if s.unsure && (len(s.m.Covers) > 0 || len(s.m.CoverStmts) > 0 || len(s.m.Liveness) > 0) {
			res.Notes = append(res.Notes, "covers and liveness properties were not decided: rbfs left successors out, so it cannot tell that a cover is never satisfied or a state never reaches another")
		}
	} else if res.Verdict == Pass {
		// Stopped without the observer's approval: that is not a pass.
		res.Verdict = Incomplete
		res.Guarantee = job.GuaranteeNotComplete
	}
	return res
}

// maxLevel is the visit's length L: stretch times the depth found so far,
// plus one, so that a visit goes on while its levels are mostly new states.
func (r *rbfsRun) maxLevel() int {
	return int(r.stretch*float64(r.deepest)) + 1
}

// givingUp stops the run when its state overhead passes the limit.
func (r *rbfsRun) givingUp() bool {
	s := r.s
	vs := r.cache.Stats()
	est := r.samp.estimate()
	if vs.Inserted < 64<<r.samp.k || float64(vs.Inserted) < r.overhead*float64(est) {
		return false
	}
	s.res.Verdict = Incomplete
	s.res.Guarantee = job.GuaranteeNotComplete
	s.res.Reason = fmt.Sprintf("gave up after %d visit(s): the states visited (%d) reached %g times the distinct states seen (about %d) "+
		"while the estimated omission probability was still %.3g (MAXPOM %g); the memory is too small for this model — give it more",
		r.visit, vs.Inserted, r.overhead, est, r.obs.max(), r.maxPom)
	s.stop = true
	r.gaveUp = true
	return true
}

// record notes the end of a visit (one column of Figs. 5 and 6).
func (r *rbfsRun) record(drained bool) {
	s := r.s
	vs := r.cache.Stats()
	v := job.Visit{Visit: r.visit, Levels: r.level - 1, MaxLevels: r.maxLevel(), Drained: drained,
		Visited: vs.Inserted, Fresh: r.samp.estimate(), Dropped: r.dropped, PomIs: r.obs.max(), Samples: r.obs.taken,
		RulesFired: s.res.RulesFired}
	if vs.Inserted > 0 {
		v.CollisionRate = float64(vs.Evicted) / float64(vs.Inserted)
	}
	s.res.Visits = append(s.res.Visits, v)
}

// initQueue adds the start states to the queue as old states (Fig. 2,
// initialize_queue): at the first visit each is admitted like any state;
// later, their records are queued again, as many as there is room for,
// chosen at random.
func (r *rbfsRun) initQueue() {
	s := r.s
	if r.visit == 1 {
		if s.runStarts(func(slots []int64, i int) bool {
			slots, buf, h := s.canonical(slots)
			found, _, at := s.visited.Find(buf, h)
			if found {
				return false
			}
			id, kept, stop := s.keep(slots, buf, h, at, trail.None, uint32(i), 0)
			if kept {
				r.starts = append(r.starts, buf...)
				r.starts = binary.LittleEndian.AppendUint64(r.starts, uint64(id))
			}
			return stop
		}) {
			return
		}
	}
	k := len(r.starts) / r.rec
	for i := 0; i < k; i++ {
		if r.nOld+r.nNew >= r.w {
			if r.visit == 1 {
				r.dropped += int64(k - i) // never expanded
			}
			break
		}
		// A random start state not yet queued (a partial shuffle).
		j := i + r.rng.IntN(k-i)
		a, b := r.starts[i*r.rec:(i+1)*r.rec], r.starts[j*r.rec:(j+1)*r.rec]
		for x := range a {
			a[x], b[x] = b[x], a[x]
		}
		// Old states sit before new ones; there are none new between visits.
		copy(r.q[r.nOld*r.rec:], a)
		r.nOld++
	}
}

// expandOne picks an old state at random, expands it, and queues what it
// may of its successors not in the cache (Fig. 2's inner loop).
func (r *rbfsRun) expandOne() {
	s := r.s
	sb := s.m.StateBytes
	i := r.rng.IntN(r.nOld)
	cur := r.q[i*r.rec : (i+1)*r.rec]
	s.up.Unpack(cur[:sb], s.cur)
	s.curID = int64(binary.LittleEndian.Uint64(cur[sb:]))
	s.depth = r.level - 1
	// Take it out: the last old record fills its place, the last new one
	// the last old place.
	if last := r.nOld - 1; i != last {
		copy(cur, r.q[last*r.rec:(last+1)*r.rec])
	}
	if r.nNew > 0 {
		copy(r.q[(r.nOld-1)*r.rec:], r.q[(r.nOld+r.nNew-1)*r.rec:(r.nOld+r.nNew)*r.rec])
	}
	r.nOld--
	s.expanded++
	if s.expanded&255 == 0 && (s.checkpoint() || r.givingUp()) {
		return
	}
	if s.opts.Bound > 0 && s.depth >= s.opts.Bound {
		s.res.Reason = fmt.Sprintf("bound %d reached: states at depth %d were not expanded", s.opts.Bound, s.opts.Bound)
		return
	}
	r.nB = 0
	if s.fireAll(r.onSuccessor) {
		return
	}
	s.deadlocked(s.fired > 0, s.changed)
	if s.stop {
		return
	}
	b := r.nB
	if b == 0 {
		return
	}
	room := r.w - (r.nOld + r.nNew)
	probIns := math.Min(1, float64(room)/float64(b))
	for j := 0; j < b; j++ {
		r.obs.update(r.bHash[j], probIns, 3*r.level > 2*r.maxLevel(), r.rng)
	}
	j := 0
	for ; r.nOld+r.nNew < r.w && j < b; j++ {
		// A random successor of those not yet picked.
		k := j + r.rng.IntN(b-j)
		r.swapB(j, k)
		st := r.bStates[j*sb : (j+1)*sb]
		h := r.bHash[j]
		found, old, at := s.visited.Find(st, h)
		if found {
			if s.props.logEdge(s.curID, old) {
				return
			}
			continue
		}
		s.up.Unpack(st, r.slots)
		id, kept, stop := s.keep(r.slots, st, h, at, s.curID, r.bRule[j], r.level)
		if stop {
			return
		}
		if !kept {
			continue
		}
		rec := r.q[(r.nOld+r.nNew)*r.rec : (r.nOld+r.nNew+1)*r.rec]
		copy(rec, st)
		binary.LittleEndian.PutUint64(rec[sb:], uint64(id))
		r.nNew++
	}
	r.dropped += int64(b - j)
}

func (r *rbfsRun) swapB(j, k int) {
	if j == k {
		return
	}
	sb := r.s.m.StateBytes
	a, b := r.bStates[j*sb:(j+1)*sb], r.bStates[k*sb:(k+1)*sb]
	for x := range a {
		a[x], b[x] = b[x], a[x]
	}
	r.bHash[j], r.bHash[k] = r.bHash[k], r.bHash[j]
	r.bRule[j], r.bRule[k] = r.bRule[k], r.bRule[j]
}

// onSuccessor collects the successors not in the cache into B, once each.
func (r *rbfsRun) onSuccessor(rule int, succ []int64) bool {
	s := r.s
	s.countSuccessor(succ)
	succ, buf, h := s.canonical(succ)
	found, old, _ := s.visited.Find(buf, h)
	if found {
		return !s.props.logEdge(s.curID, old)
	}
	sb := s.m.StateBytes
	for j := 0; j < r.nB; j++ {
		if r.bHash[j] == h && string(r.bStates[j*sb:(j+1)*sb]) == string(buf) {
			return true // two rules to one state
		}
	}
	if r.nB == len(r.bHash) && !r.growB() {
		return false
	}
	copy(r.bStates[r.nB*sb:], buf)
	r.bHash[r.nB] = h
	r.bRule[r.nB] = uint32(rule)
	r.nB++
	return true
}

// growB doubles B's room, reserving it from the budget.
func (r *rbfsRun) growB() bool {
	s := r.s
	sb := s.m.StateBytes
	n := max(2*len(r.bHash), 16)
	size := int64(n * (sb + 12))
	if !s.b.Reserve("rbfs successors", size-r.bHeld) {
		s.incomplete(&budget.ErrExhausted{Part: "rbfs successors", Need: size - r.bHeld, Limit: s.b.Limit()})
		return false
	}
	r.bHeld = size
	st := make([]byte, n*sb)
	copy(st, r.bStates)
	hs := make([]uint64, n)
	copy(hs, r.bHash)
	rs := make([]uint32, n)
	copy(rs, r.bRule)
	r.bStates, r.bHash, r.bRule = st, hs, rs
	return true
}

// observer is the sample table Y of Fig. 3: for up to k sampled states (by
// hash), the one-step omission probability so far.
//
// One departure from Fig. 3: a sample whose probability reaches 0 (it was
// met with room in the queue, so it was certainly visited) leaves the
// table and frees its place for a new candidate. In Fig. 3 it would stay,
// and a table filled early with such zeros says PomIs = 0 for good, while
// the states left out later, never sampled, are missed unseen (runs on a
// cache of a fortieth of padded.m's states were accepted with a few states
// never met; TestRBFSVisitsFollowTheDepth).
type observer struct {
	b     *budget.Budget
	keys  []uint64 // 0 = empty
	pom   []float64
	n, k  int // samples in the table, and its capacity
	taken int // samples taken over the run (the paper's Samples)
	held  int64
}

func (o *observer) init(b *budget.Budget, k int) error {
	slots := 2 * k
	size := int64(slots * 16)
	if !b.Reserve("rbfs samples", size) {
		return &budget.ErrExhausted{Part: "rbfs samples", Need: size, Limit: b.Limit()}
	}
	o.b, o.k, o.held = b, k, size
	o.keys = make([]uint64, slots)
	o.pom = make([]float64, slots)
	return nil
}

// slot returns where hash h is or would go.
func (o *observer) slot(h uint64) int {
	if h == 0 {
		h = 1
	}
	n := uint64(len(o.keys))
	for i := (h * sampleMix >> 32) % n; ; i = (i + 1) % n {
		if o.keys[i] == h || o.keys[i] == 0 {
			return int(i)
		}
	}
}

// update is obs_update_pom_table: a state of B, each kept with
// probability probIns; late says the visit is past 2L/3 of its levels.
func (o *observer) update(h uint64, probIns float64, late bool, rng *rand.Rand) {
	if h == 0 {
		h = 1
	}
	i := o.slot(h)
	if o.keys[i] == h {
		if probIns >= 1 {
			o.remove(i)
			return
		}
		o.pom[i] *= 1 - probIns
		return
	}
	// Only states with a chance of being missed are candidates.
	if o.n < o.k && late && probIns < 1 && rng.IntN(2) == 1 {
		o.keys[i] = h
		o.pom[i] = 1 - probIns
		o.n++
		o.taken++
	}
}

// remove empties slot i, moving back the entries of its probe run that
// would no longer be found (linear probing's deletion).
func (o *observer) remove(i int) {
	n := len(o.keys)
	for j := (i + 1) % n; o.keys[j] != 0; j = (j + 1) % n {
		home := int((o.keys[j] * sampleMix >> 32) % uint64(n))
		// Entry j may fill the hole at i unless its home lies in (i, j].
		if (i < j && (home <= i || home > j)) || (i > j && home <= i && home > j) {
			o.keys[i], o.pom[i] = o.keys[j], o.pom[j]
			i = j
		}
	}
	o.keys[i], o.pom[i] = 0, 0
	o.n--
}

// max returns PomIs: the largest omission probability of the samples.
func (o *observer) max() float64 {
	m := 0.0
	for i, k := range o.keys {
		if k != 0 && o.pom[i] > m {
			m = o.pom[i]
		}
	}
	return m
}

func (o *observer) release() {
	if o.b != nil {
		o.b.Release("rbfs samples", o.held)
	}
	o.held = 0
	o.keys, o.pom = nil, nil
}
