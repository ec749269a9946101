package explore

// This file registers state caching for any search order (Evangelista and
// Kristensen, "Search-order independent state caching", ToPNoC IV 2010):
// the general state exploring algorithm of their Fig. 3 over a table of at
// most MaxMemory states. Each state keeps a link to the state that
// generated it and a count of references (its children in the TD-tree,
// plus one while it is open); a closed state whose count drops to zero
// leaves the tree and becomes a candidate for replacement, and so, in
// turn, may its predecessor. When the table is full a candidate is
// forgotten, chosen by the replacement strategy; when there is none, the
// TD-tree does not fit and the run ends incomplete. Every cycle reaches a
// state of the tree, which is never forgotten, so the search terminates,
// and when its open set is empty every reachable state has been visited
// (their Lemma 1): a pass is exact. Forgotten states are visited again
// when met again (re-expansions), which costs time, not correctness.
//
// The same loop runs depth-first search with replacement (Jard and Jéron,
// dfsreplace.go): there a state becomes a candidate as soon as it leaves
// the stack, and no tree is kept.

import (
	"context"
	"fmt"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/queue"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/store"
	"github.com/locus-mc/locus/core/trail"
)

// Parameters shared by the caching engines.
var (
	cacheParam = job.ParamInfo{Name: "cache", Title: "States the cache holds at most (MaxMemory); 0 = as many as the memory budget allows",
		Default: 0, Min: 0, Max: store.MaxNodes, Integer: true}
	strataParam = job.ParamInfo{Name: "strata", Title: "Stratified replacement keeps the states whose depth is a multiple of this",
		Default: 4, Min: 2, Max: 1 << 20, Integer: true}
	revisitParam = job.ParamInfo{Name: "max-revisits", Title: "Stop (incomplete) when the states inserted reach this many times the distinct states seen; 0 = never",
		Default: 10, Min: 0, Max: 1e6}
)

func strategyParam(def store.Strategy) job.ParamInfo {
	return job.ParamInfo{Name: "strategy", Title: "Replacement strategy: which forgettable state goes when the cache is full",
		Default: float64(def), Min: 0, Max: float64(len(store.StrategyNames) - 1), Integer: true, Choices: store.StrategyNames}
}

func init() {
	register(job.EngineInfo{
		Name:  "cache-bfs",
		Title: "State caching, breadth-first (fixed memory, exact)",
		Help: "Breadth-first search that keeps at most a fixed number of states and forgets others when full, " +
			"except those on paths to states still to expand (the TD-tree), so it always terminates and a pass is exact. " +
			"Forgotten states are expanded again when met again. With a width, each level is cut to that many states (BBFS).",
		Levels: true, UsesStorage: true, Randomized: true,
		Params: []job.ParamInfo{cacheParam, strategyParam(store.Degree), strataParam, revisitParam,
			{Name: "width", Title: "Bounded-width BFS: at most this many states per level; 0 = plain BFS", Default: 0, Min: 0, Max: store.MaxNodes, Integer: true}},
	}, func(ctx context.Context, m *compile.Model, opts Options) *Result {
		w := int(opts.Param("width"))
		return runCaching(ctx, m, opts, cachingTree, func(int) int { return w })
	})
	register(job.EngineInfo{
		Name:  "cache-dfs",
		Title: "State caching, depth-first (fixed memory, exact)",
		Help: "Depth-first search that keeps at most a fixed number of states: the states on the stack always, others until room is needed. " +
			"It always terminates and a pass is exact; it usually needs a smaller cache than cache-bfs but may revisit states many more times.",
		UsesStorage: true, Randomized: true,
		Params: []job.ParamInfo{cacheParam, strategyParam(store.Stratified), strataParam, revisitParam},
	}, func(ctx context.Context, m *compile.Model, opts Options) *Result {
		return runCaching(ctx, m, opts, cachingTree, func(int) int { return 1 })
	})
	register(job.EngineInfo{
		Name:  "cache-alt",
		Title: "State caching, alternating breadth- and depth-first (fixed memory, exact)",
		Help: "State caching over Alt(b, d): b levels breadth-first, then depth-first from each state for d levels, then breadth-first again. " +
			"Often needs a cache as small as depth-first search with fewer revisits.",
		UsesStorage: true, Randomized: true,
		Params: []job.ParamInfo{cacheParam, strategyParam(store.Degree), strataParam, revisitParam,
			{Name: "bfs", Title: "Levels searched breadth-first in each round (b)", Default: 4, Min: 0, Max: 1 << 20, Integer: true},
			{Name: "dfs", Title: "Levels searched depth-first in each round (d)", Default: 4, Min: 0, Max: 1 << 20, Integer: true}},
	}, func(ctx context.Context, m *compile.Model, opts Options) *Result {
		return runCaching(ctx, m, opts, cachingTree, altWidth(int(opts.Param("bfs")), int(opts.Param("dfs"))))
	})
}

// altWidth is the level width of Alt(b, d): levels 1..b are generated
// whole, the next d one state at a time, and so on (Alt(0, d) is DFS,
// Alt(b, 0) BFS).
func altWidth(b, d int) func(level int) int {
	return func(level int) int {
		if d == 0 || (b > 0 && (level-1)%(b+d) < b) {
			return unbounded
		}
		return 1
	}
}

// cachingMode says when a closed state may be forgotten.
type cachingMode uint8

const (
	// cachingTree keeps the TD-tree (state caching for any order).
	cachingTree cachingMode = iota
	// cachingStack forgets a state as soon as it is closed (depth-first
	// search with replacement: the tree is the stack).
	cachingStack
)

// DefaultCacheStatesBudget is the memory the caching engines size their
// table for when the run has no budget and no cache parameter.
const DefaultCacheStatesBudget = 64 << 20

// nodeVisited adapts a Nodes table to store.Visited for searcher.keep: a
// state inserted is linked to the state being expanded.
type nodeVisited struct {
	t        *store.Nodes
	parent   int32 // the node being expanded (NoNode for start states)
	last     int32 // the node Find found or Insert made
	inserted int64
	progress int64 // the progress value of the state being inserted (sweep-line)
	sweep    bool
	full     error // returned when the table is full (searcher.full then makes room)
}

func (v *nodeVisited) Find(s []byte, h uint64) (bool, int64, uint64) {
	n, at := v.t.Find(s, h)
	if n == store.NoNode {
		return false, -1, at
	}
	v.last = n
	return true, v.t.ID(n), 0
}

func (v *nodeVisited) Insert(at uint64, s []byte, h uint64, id int64, depth int) error {
	if v.t.Full() {
		return v.full
	}
	n, err := v.t.Insert(at, s, h, id, depth, v.parent)
	if err != nil {
		return err
	}
	if v.sweep {
		v.t.SetProgress(n, v.progress)
	}
	v.last = n
	v.inserted++
	return nil
}

func (v *nodeVisited) Len() int64   { return v.t.Len() }
func (v *nodeVisited) Bytes() int64 { return v.t.Bytes() }
func (v *nodeVisited) Release()     { v.t.Release() }
func (v *nodeVisited) Stats() store.VisitedStats {
	return store.VisitedStats{Kind: store.KindCache, Inserted: v.inserted, Evicted: v.t.Evicted(), Entries: v.t.Cap()}
}

// cacheFull is the error of an insertion into a full table: the engine
// makes room (searcher.full), or the run ends incomplete with its message,
// which says what did not fit.
type cacheFull struct {
	c     *caching
	cause *budget.ErrExhausted
}

func (e *cacheFull) Error() string { return e.c.fullMessage() }
func (e *cacheFull) Unwrap() error { return e.cause }

// exhausted is a resource limit with a message of its own: the run ends
// incomplete with it.
type exhausted struct {
	msg   string
	cause *budget.ErrExhausted
}

func (e *exhausted) Error() string { return e.msg }
func (e *exhausted) Unwrap() error { return e.cause }

// caching is one run of the state caching loop.
type caching struct {
	s      *searcher
	t      *store.Nodes
	v      *nodeVisited
	open   openSet
	mode   cachingMode
	sample *distinctSample

	revisits float64
	maxTree  int64
	stack    int64 // depth-first: states on the stack now

	// The state being expanded: its entry, and whether the search must
	// now work on another state (a child pushed by depth-first search).
	entry    uint64
	lastRule int
	switched bool

	// sweep-line (sweep.go), nil otherwise.
	sl *sweepLine
}

// cacheCapacity sizes the state table: the cache parameter, else what the
// budget allows after the open set, the sample and room for the trail.
func cacheCapacity(s *searcher, o store.NodeOptions, perState int64) (int64, string) {
	n := int64(s.opts.Param("cache"))
	budgetBytes := s.b.Available()
	var note string
	if budgetBytes < 0 {
		budgetBytes = DefaultCacheStatesBudget
		if n == 0 {
			note = fmt.Sprintf("no memory budget and no cache size: the cache was sized for %s (set -m or --param cache=N)", budget.FormatBytes(DefaultCacheStatesBudget))
		}
	}
	avail := budgetBytes - trailRoom(s)
	if s.opts.FS == nil {
		// The trail stays in memory: leave it a quarter.
		avail -= budgetBytes / 4
	}
	fit := int64(float64(avail) / (store.NodeBytes(s.m.StateBytes, o) + float64(perState)))
	if n == 0 || n > fit {
		if n > fit && s.b.Limit() > 0 {
			note = fmt.Sprintf("a cache of %d states does not fit the memory budget of %s: it holds %d", n, budget.FormatBytes(s.b.Limit()), max(fit, 0))
		}
		n = fit
	}
	return n, note
}

// runCaching runs state caching in the order width gives.
func runCaching(ctx context.Context, m *compile.Model, opts Options, mode cachingMode, width func(level int) int) *Result {
	c, failed := newCaching(ctx, m, opts, mode, false, func(capacity int64, b *budget.Budget) (openSet, error) {
		return newFrames(b, capacity, width)
	})
	if failed != nil {
		return failed
	}
	return c.run()
}

// sampleBytes is the memory of the distinct-state sample of the engines
// with their own tables: a 64th of the budget (64 KiB without one).
func sampleBytes(s *searcher) int64 {
	if s.b.Limit() == 0 {
		return 64 << 10
	}
	return s.b.Limit() / 64
}

// trailRoom is the memory the engines with their own tables leave to the
// trail: two chunks (with disk, it spills all but the last).
func trailRoom(s *searcher) int64 { return 2 * s.trail.ChunkBytes() }

// ownFrontier is the frontier of engines with their own open set: a memory
// queue they never push to (it reserves nothing).
func ownFrontier(rec int, b *budget.Budget) (queue.FIFO, error) { return queue.NewMemory(rec, b), nil }

// perStateOpen is the open set's memory per table state (the arena and,
// for depth-first orders, a frame header per state).
const perStateOpen = 10 + 16

func newCaching(ctx context.Context, m *compile.Model, opts Options, mode cachingMode, progress bool,
	newOpen func(capacity int64, b *budget.Budget) (openSet, error)) (*caching, *Result) {
	s, failed := setupSearcher(ctx, m, opts, true, ownFrontier)
	if failed != nil {
		return nil, failed
	}
	c := &caching{s: s, mode: mode, revisits: opts.Param("max-revisits")}
	o := store.NodeOptions{
		Strategy: store.Strategy(opts.Param("strategy")),
		Strata:   int(opts.Param("strata")),
		Seed:     uint64(opts.Seed),
		Progress: progress,
	}
	var err error
	if c.sample, err = newSampleFrom(s.b, sampleBytes(s), 1<<10); err != nil {
		return nil, abandon(s, err)
	}
	capacity, note := cacheCapacity(s, o, perStateOpen)
	if note != "" {
		s.res.Notes = append(s.res.Notes, note)
	}
	o.Capacity = capacity
	if capacity < 1 {
		c.sample.release()
		return nil, abandon(s, &exhausted{fmt.Sprintf("the memory budget of %s leaves no room for a state cache (%.0f bytes per state)",
			budget.FormatBytes(s.b.Limit()), store.NodeBytes(m.StateBytes, o)+perStateOpen),
			&budget.ErrExhausted{Part: "state cache", Limit: s.b.Limit()}})
	}
	if c.t, err = store.NewNodes(m.StateBytes, s.b, state.Hash, o); err != nil {
		c.sample.release()
		return nil, abandon(s, err)
	}
	if c.open, err = newOpen(capacity, s.b); err != nil {
		c.t.Release()
		c.sample.release()
		return nil, abandon(s, err)
	}
	c.v = &nodeVisited{t: c.t, parent: store.NoNode, sweep: progress, full: &cacheFull{c, &budget.ErrExhausted{Part: "state cache", Limit: s.b.Limit()}}}
	s.visited = c.v
	s.res.CacheStates = capacity
	s.full = c.makeRoom
	s.inserted = func(h uint64) { c.sample.add(h, s.depth+1) }
	s.extraProgress = func(p *job.Progress) {
		p.CacheFill = float64(c.t.Len()) / float64(c.t.Cap())
		p.States = c.sample.estimate()
		p.Reexpansions = max(c.v.inserted-c.sample.estimate(), 0)
		p.StackDepth = c.treeSize()
		if mode == cachingStack {
			p.StackDepth = c.stack
			p.Reinsertions = p.Reexpansions
			p.Reexpansions = 0
		}
	}
	return c, nil
}

// treeSize is the number of states that cannot be forgotten now.
func (c *caching) treeSize() int64 { return c.t.Len() - c.t.Candidates() }

// makeRoom forgets a state so that an insertion fits (searcher.full).
func (c *caching) makeRoom(error) bool {
	if !c.t.Full() {
		return false // the budget, not the table, refused
	}
	if c.sl != nil && c.sl.collect() {
		return true
	}
	return c.t.Evict()
}

// fullMessage says what filled the table when nothing could be forgotten.
func (c *caching) fullMessage() string {
	n := c.t.Cap()
	switch {
	case c.mode == cachingStack:
		return fmt.Sprintf("the depth-first stack holds all %d states the memory allows: depth-first search with replacement needs room for its deepest path; give it more memory", n)
	case c.sl != nil && c.sl.persistent >= n/2:
		return fmt.Sprintf("the cache of %d states is full of states that must be kept: %d persistent states (destinations of regress transitions of the progress measure) and the TD-tree; "+
			"give it a larger cache, or a progress measure that decreases less often", n, c.sl.persistent)
	case c.sl != nil:
		return fmt.Sprintf("the TD-tree (the states on the paths to the states still to expand, which state caching must keep) and %d persistent states fill the cache of %d states; give it a larger cache", c.sl.persistent, n)
	default:
		return fmt.Sprintf("the TD-tree (the states on the paths to the states still to expand, which state caching must keep) fills the cache of %d states; "+
			"give it a larger cache, or try cache-dfs, whose tree is one path", n)
	}
}

func (c *caching) run() *Result {
	s := c.s
	defer s.front.Close()
	defer s.trail.Close()
	defer func() {
		c.open.release()
		c.sample.release()
		s.visited.Release()
	}()
	c.startStates()
	for !s.stop {
		if !c.expandNext() {
			break
		}
	}
	r := s.finish()
	evicted := c.t.Evicted()
	r.StatesExact = evicted == 0 && (c.sl == nil || c.sl.swept == 0)
	if !r.StatesExact {
		r.StatesEstimate = c.sample.estimate()
	}
	r.Reexpansions = max(c.v.inserted-c.sample.estimate(), 0)
	if c.mode == cachingStack {
		r.Reinsertions, r.Reexpansions = r.Reexpansions, 0
	}
	if evicted == 0 && (c.sl == nil || c.sl.swept == 0) {
		r.Reexpansions, r.Reinsertions = 0, 0
	}
	r.MaxStack = c.maxTree
	if c.sl != nil {
		c.sl.report(r)
	}
	return r
}

// startStates admits the start states as the roots of the search.
func (c *caching) startStates() {
	s := c.s
	c.v.parent = store.NoNode
	s.runStarts(func(slots []int64, i int) bool {
		slots, buf, h := s.canonical(slots)
		found, _, at := s.visited.Find(buf, h)
		if found {
			return false
		}
		if c.sl != nil {
			p, ok := c.sl.measure(slots)
			if !ok {
				return true
			}
			c.v.progress = p
		}
		id, kept, stop := s.keep(slots, buf, h, at, trail.None, uint32(i), 0)
		if stop {
			return true
		}
		if !kept {
			c.storedOnly(id)
			return false
		}
		n := c.v.last
		c.t.AddRef(n)
		if c.sl != nil {
			c.t.SetPersistent(n)
			c.sl.persistent++
		}
		if err := c.open.addRoot(newEntry(n)); err != nil {
			s.incomplete(&exhausted{err.Error(), &budget.ErrExhausted{Part: "open set", Limit: s.b.Limit()}})
			return true
		}
		c.stack++
		c.noteTree()
		return false
	})
}

func (c *caching) noteTree() {
	if n := c.treeSize(); n > c.maxTree {
		c.maxTree = n
	}
}

// expandNext works on the current open state: fires its rules from where
// it stopped until one generates a state the search must go to first
// (depth-first orders), or to the last, when the state is closed. It
// reports false when the open set is empty.
func (c *caching) expandNext() bool {
	s := c.s
	e, ok := c.open.current()
	if !ok {
		if c.sl != nil {
			return c.sl.nextSweep()
		}
		return false
	}
	node := entryNode(e)
	from := entryRule(e)
	s.up.Unpack(c.t.State(node), s.cur)
	s.curID = c.t.ID(node)
	s.depth = c.t.Depth(node)
	c.v.parent = node
	if from == 0 {
		s.expanded++
		if s.expanded&255 == 0 {
			if s.checkpoint() || c.tooManyRevisits() {
				return false
			}
		}
		if s.opts.Bound > 0 && s.depth >= s.opts.Bound {
			s.res.Reason = fmt.Sprintf("bound %d reached: states at depth %d were not expanded", s.opts.Bound, s.opts.Bound)
			c.closeCurrent(node)
			return true
		}
	}
	c.entry = e
	c.switched = false
	s.changed = e&entryChanged != 0
	for {
		_, rerr, errRule := s.mc.Expand(s.cur, from, c.onSuccessor)
		if s.stop {
			return false
		}
		if c.switched {
			if s.changed {
				c.entry |= entryChanged
			}
			c.open.setCurrent(withRule(c.entry, c.lastRule+1))
			return true
		}
		if rerr == nil {
			break
		}
		s.violation(runtimeViolation(rerr), s.curID, int32(errRule), nil)
		if s.stop {
			return false
		}
		from = errRule + 1
	}
	if s.changed {
		c.entry |= entryChanged
	}
	s.deadlocked(c.entry&entryFired != 0, c.entry&entryChanged != 0)
	if s.stop {
		return false
	}
	c.closeCurrent(node)
	return true
}

// storedOnly handles a state keep did not keep for expansion: one it
// stored all the same (id >= 0: its cover failed) is closed at once, a
// candidate like any closed state.
func (c *caching) storedOnly(id int64) {
	if id >= 0 {
		c.t.MakeCandidate(c.v.last)
	}
}

// closeCurrent moves the current state from the open set to the closed
// one (Fig. 3, ll. 14-16).
func (c *caching) closeCurrent(node int32) {
	c.open.close()
	c.stack--
	if c.mode == cachingStack {
		c.t.MakeCandidate(node)
		return
	}
	c.t.Unref(node)
}

// onSuccessor admits one successor of the current state (Fig. 3, ll. 7-13).
func (c *caching) onSuccessor(rule int, succ []int64) bool {
	s := c.s
	s.countSuccessor(succ)
	c.entry |= entryFired
	c.lastRule = rule
	succ, buf, h := s.canonical(succ)
	found, old, at := s.visited.Find(buf, h)
	if found {
		return !s.props.logEdge(s.curID, old)
	}
	regress := false
	if c.sl != nil {
		p, ok := c.sl.measure(succ)
		if !ok {
			return false
		}
		c.v.progress = p
		regress = p < c.t.Progress(c.v.parent)
	}
	parent := c.v.parent
	id, kept, stop := s.keep(succ, buf, h, at, s.curID, uint32(rule), s.depth+1)
	c.v.parent = parent
	if stop {
		return false
	}
	if !kept {
		c.storedOnly(id)
		return true
	}
	n := c.v.last
	if regress {
		// Sweep-line: a regress transition's new destination is kept
		// for good and expanded in the next sweep (it may have been
		// forgotten by this one).
		return c.sl.defer_(n)
	}
	c.t.AddRef(n)
	if c.mode == cachingTree {
		c.t.AddRef(parent)
	}
	c.stack++
	if c.stack > c.maxTree && c.mode == cachingStack {
		c.maxTree = c.stack
	}
	switched, err := c.open.add(newEntry(n))
	if err != nil {
		s.incomplete(err)
		return false
	}
	if c.mode == cachingTree {
		c.noteTree()
	}
	if switched {
		c.switched = true
		return false
	}
	return true
}

// tooManyRevisits stops a run whose insertions have reached max-revisits
// times the distinct states seen: it may terminate only after a very long
// time (the paper's runs gave up at five times the state space).
func (c *caching) tooManyRevisits() bool {
	if c.revisits <= 0 {
		return false
	}
	est := c.sample.estimate()
	ins := c.v.inserted
	if ins < 64<<c.sample.k || float64(ins) < c.revisits*float64(est) {
		return false
	}
	s := c.s
	s.res.Verdict = Incomplete
	s.res.Reason = fmt.Sprintf("too many revisits: %d states inserted for about %d distinct ones (max-revisits %g); "+
		"the cache of %d states is too small for this order to finish in reasonable time — give it a larger cache, or try cache-bfs",
		ins, est, c.revisits, c.t.Cap())
	s.stop = true
	return true
}
