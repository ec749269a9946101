package explore

// This file registers the disk-based breadth-first searches of Penna et
// al., "Exploiting transition locality in automatic verification of
// finite-state concurrent systems" (STTT 2004), §5: dbfs, Stern and Dill's
// algorithm ("Using magnetic disk instead of main memory in the Murphi
// verifier", CAV 1998), and ldbfs, which reads only part of the disk.
//
// A table M in memory holds the states met since the last check, the file
// D on disk every state visited so far, and two queues on disk the states
// to expand (Q_ck) and the candidates for the next level with their keys
// (Q_unck). A successor not in M goes into M and Q_unck (Fig. 8). At the
// end of each BFS level, and whenever M fills up, a check (Fig. 10) marks
// in M the candidates found in D, appends the others to D and moves them
// to Q_ck, and empties M. dbfs reads all of D at every check; ldbfs reads
// only the disk cloud, blocks of D drawn at random with a probability that
// grows toward D's tail (Fig. 9), where transition locality puts most of
// the old states a level meets; every calibrate-th check reads all of D and
// resizes the cloud by how many old states it missed (§5.5-5.6). An old
// state the cloud misses is expanded again: the price of reading less.
//
// Correctness does not depend on the cloud. Every state appended to D is
// queued and expanded; a candidate is dropped only when found in D, that
// is, when it was appended (and so expanded) before. When Q_ck runs dry
// after a check, every reachable state has been expanded. Keys are the
// packed states themselves (exact) or k-bit signatures (hash compaction,
// with an omission bound). The states D holds twice are removed from the
// counts at the end by a pass over D (count.go), so a pass reports the
// same states, rules fired and levels as breadth-first search.

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"time"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/queue"
	"github.com/locus-mc/locus/core/sigfile"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/store"
	"github.com/locus-mc/locus/storagefs"
)

// Kinds of the disk-based visited sets, as phases and progress name them.
const (
	phaseLDBFS = "ldbfs"
	phaseDBFS  = "dbfs"
)

// Calibration of the disk cloud (§5.5): speedup and slowdown are the
// paper's; the thresholds on beta (the share of old states only blocks
// outside the cloud held) say what "close to 1" and "close to 0" mean here.
// The random part of the cloud is what remains after the window and the
// learned levels (see learn), blocks of low yield by construction: it
// shrinks as long as it misses less than a tenth of the old states.
const (
	cloudSpeedup  = 0.15
	cloudSlowdown = 0.15
	betaHigh      = 0.25
	betaLow       = 0.1
	// After this many calibrations in a row with the cloud above
	// cloudCritical of D, it goes back to its initial size with
	// probability cloudResetP (§5.5's reset of a disk access rate "too
	// long above a given critical limit").
	cloudCritical = 0.9
	cloudHighRuns = 3
	cloudResetP   = 0.5
	// diskBlockBytes is the size of a block of D: one segment. Large
	// enough for IndexedDB's per-transaction cost, small enough that D
	// has many blocks to choose from (the paper's minimum is 10^4
	// signatures a block).
	diskBlockBytes  = 256 << 10
	minBlockEntries = 1024
	// cloudSeed seeds the cloud's random choices; each check draws from
	// a generator seeded with it and the check's number, so a resumed run
	// makes the same choices.
	cloudSeed = 0x1db5
	// maxCloudSamples bounds the cloud history a result carries.
	maxCloudSamples = 2048
	// hotYield: a level is worth reading at every check if calibrations
	// find in it an old state for every hotYield of its entries; the
	// yields are averaged with weight yieldWeight for the newest.
	hotYield = 256
	// maxScanWorkers bounds the goroutines of a check's scan of D.
	maxScanWorkers = 4
	yieldWeight    = 0.5
)

func init() {
	register(job.EngineInfo{
		Name:  "ldbfs",
		Title: "Disk-based BFS with locality (LDBFS)",
		Help: "Breadth-first search that keeps only recent states in memory and all visited states on disk (browser storage), " +
			"reading back only the part of the disk where transition locality says old states are: verifies models far larger than memory. " +
			"Some old states are expanded again; the counts are corrected at the end. Can resume after an interruption.",
		Exact: true, Levels: true, ShortestTraces: true, UsesStorage: true, HashCompaction: true, Checkpoints: true,
		Params: []job.ParamInfo{
			{Name: "cloud", Title: "Initial disk cloud: the share of the disk's blocks (besides the window and the learned levels) read at each check", Default: 0.2, Min: 0.01, Max: 1},
			{Name: "calibrate", Title: "Checks between calibrations, which read the whole disk to resize the cloud", Default: 10, Min: 1, Max: 1000, Integer: true},
			{Name: "window", Title: "BFS levels (the current one and those before it) whose disk blocks every check reads; 0 draws all blocks at random as the paper does", Default: 2, Min: 0, Max: 1000, Integer: true},
		},
	}, func(ctx context.Context, m *compile.Model, opts Options) *Result {
		return diskSearch(ctx, m, opts, false)
	})
	register(job.EngineInfo{
		Name:  "dbfs",
		Title: "Disk-based BFS (Stern–Dill)",
		Help: "Breadth-first search that keeps only recent states in memory and all visited states on disk (browser storage), " +
			"reading all of the disk at every check: never expands a state twice, but reads far more than ldbfs. Can resume after an interruption.",
		Exact: true, Levels: true, ShortestTraces: true, UsesStorage: true, HashCompaction: true, Checkpoints: true,
	}, func(ctx context.Context, m *compile.Model, opts Options) *Result {
		return diskSearch(ctx, m, opts, true)
	})
}

// diskBFS is the state of a dbfs or ldbfs run.
type diskBFS struct {
	s    *searcher
	fs   storagefs.FS
	all  bool // dbfs: every check reads all of D
	name string

	m       *store.Recent
	d       *sigfile.File
	r       *sigfile.File // rules fired by each expanded state, ldbfs only
	unck    queue.FIFO
	unckRec []byte
	idBytes int
	entry   []byte
	slots   []int64 // scratch for the survivors' covers

	// D index of R's first entry, expansions R skips, RulesFired at the
	// last expansion (auto appends the states it knew to D first).
	rBase, rSkip, rRules int64
	ruleBytes            int
	// levelStart[i] is the D index of the first state appended at depth
	// levelDepth+i (appended depths never decrease).
	levelDepth int
	levelStart []int64

	cloud, initCloud float64
	window           int             // levels whose blocks every check reads
	scanWorkers      int             // goroutines a check's scan of D uses
	hot              []int           // distances behind the current level the cloud always reads (learned)
	yield            map[int]float64 // old states per entry of D, by distance (see learn)
	gamma            int64
	checks           int64
	calibrations     int64
	highRuns         int
	lastRead         int
	dRead            int64 // bytes of D read by checks
	history          []job.CloudSample
	last             job.CloudSample // the last check's sample, for progress
	historyEvery     int64
	first            bool  // the first check queues the start states
	candidatesBefore int64 // candidates of earlier sessions (resumed runs)
	inCheck          bool

	ioBase storagefs.Stats
	ck     *diskCheckpointer
	// priorBound is the omission bound of the signature table whose
	// states seeded D (auto).
	priorBound float64
}

// diskSearch runs dbfs (all) or ldbfs.
func diskSearch(ctx context.Context, m *compile.Model, opts Options, all bool) *Result {
	var notes []string
	if opts.MemoryBytes == 0 {
		opts.MemoryBytes = DefaultCacheBudget
		notes = append(notes, fmt.Sprintf("%s needs a memory budget; it used %s (set one with -m)", engineName(all), budget.FormatBytes(DefaultCacheBudget)))
	}
	if opts.FS == nil {
		if opts.Checkpoint || opts.Resume {
			return &Result{Verdict: Error, Reason: "a checkpoint needs storage (a directory, or the browser's)"}
		}
		opts.FS = storagefs.NewMemory(storagefs.Options{})
		notes = append(notes, engineName(all)+" ran without disk storage: the file D and its queues were kept in memory, outside the budget")
	}
	if opts.Resume {
		return resumeDisk(ctx, m, opts, all)
	}
	s, failed := newSearcher(ctx, m, opts, false)
	if failed != nil {
		return failed
	}
	s.res.Notes = append(s.res.Notes, notes...)
	l, err := newDiskBFS(s, all, opts.HashBits)
	if err != nil {
		return abandon(s, err)
	}
	l.first = true
	if opts.Checkpoint {
		if l.ck, err = newDiskCheckpointer(l); err != nil {
			l.close()
			return abandon(s, err)
		}
	}
	return l.run()
}

func engineName(all bool) string {
	if all {
		return phaseDBFS
	}
	return phaseLDBFS
}

// blockEntries is the number of entries of entry bytes in a block of D
// under a budget of limit bytes.
func blockEntries(entry int, limit int64) int {
	per := diskBlockBytes / entry
	if max := int(limit/64) / entry; per > max {
		per = max
	}
	return max(per, minBlockEntries)
}

// diskGeometry is the layout of a disk search's files.
type diskGeometry struct {
	keyLen, idBytes, entry, per, ruleBytes int
}

func geometryOf(s *searcher, all bool, sigBits int) diskGeometry {
	g := diskGeometry{keyLen: s.m.StateBytes}
	if sigBits > 0 {
		g.keyLen = (sigBits + 7) / 8
	}
	if len(s.m.Liveness) > 0 {
		g.idBytes = 5
	}
	g.entry = g.keyLen + g.idBytes
	g.per = blockEntries(g.entry, s.b.Limit())
	if !all {
		g.ruleBytes = bytesFor(int64(len(s.m.Rules)))
	}
	return g
}

// filesBytes is the memory D (its two blocks and the tail's index) and R
// (two blocks) take from the budget.
func (g diskGeometry) filesBytes() int64 {
	n := 2*sigfile.BlockBytes(g.entry, g.per) + sigfile.IndexBytes(g.per)
	if g.ruleBytes > 0 {
		n += 2 * sigfile.BlockBytes(g.ruleBytes, g.per)
	}
	return n
}

// newDiskBFS sets up M, D, R and Q_unck for searcher s, whose frontier is
// Q_ck, in the memory its budget has left; sigBits > 0 keeps signatures.
func newDiskBFS(s *searcher, all bool, sigBits int) (*diskBFS, error) {
	l, err := newDiskFiles(s, all, sigBits)
	if err != nil {
		return nil, err
	}
	if err := l.openMemory(sigBits); err != nil {
		l.close()
		return nil, err
	}
	return l, nil
}

// newDiskFiles sets up D and R (empty).
func newDiskFiles(s *searcher, all bool, sigBits int) (*diskBFS, error) {
	l := &diskBFS{s: s, fs: s.opts.FS, all: all, name: engineName(all), historyEvery: 1,
		scanWorkers: min(runtime.GOMAXPROCS(0), maxScanWorkers)}
	l.ioBase = l.fs.Stats()
	g := geometryOf(s, all, sigBits)
	l.idBytes, l.ruleBytes = g.idBytes, g.ruleBytes
	var err error
	if l.d, err = sigfile.New(l.fs, s.b, "D-", g.entry, g.per); err != nil {
		return nil, err
	}
	if err := l.d.IndexTail(g.keyLen, keyHash(sigBits)); err != nil {
		l.close()
		return nil, err
	}
	if !all {
		if l.r, err = sigfile.New(l.fs, s.b, "R-", l.ruleBytes, g.per); err != nil {
			l.close()
			return nil, err
		}
	}
	l.entry = make([]byte, g.entry)
	l.slots = make([]int64, s.m.NumSlots)
	// dbfs has no parameters (it reads all of D); auto takes ldbfs's
	// defaults.
	param := func(name string) float64 {
		if v := s.opts.Param(name); !math.IsNaN(v) {
			return v
		}
		return Options{Algorithm: phaseLDBFS}.Param(name)
	}
	l.initCloud = param("cloud")
	l.cloud = l.initCloud
	l.window = int(param("window"))
	l.gamma = max(int64(param("calibrate")), 1)
	l.levelDepth = -1
	return l, nil
}

// openMemory sets up Q_unck and then M in the rest of the budget.
func (l *diskBFS) openMemory(sigBits int) error {
	s := l.s
	if err := l.openQueue(nil); err != nil {
		return err
	}
	ids := l.idBytes > 0
	// The trail spills to disk when the budget refuses it a chunk; M
	// leaves it a few (under a small budget, an eighth of it).
	mBytes := s.b.Available() - min(trailHeadroom, s.b.Limit()/8) - s.b.Limit()/64
	if ids {
		// The liveness graph lives in memory: leave it most of it.
		mBytes /= 4
	}
	if mBytes < 64<<10 {
		return &budget.ErrExhausted{Part: "table M", Need: 64 << 10, Limit: s.b.Limit()}
	}
	var err error
	l.m, err = store.NewRecent(s.m.StateBytes, s.b, store.RecentOptions{SigBits: sigBits, IDs: ids, Bytes: mBytes})
	return err
}

// openQueue makes Q_unck, empty or from a checkpoint's snapshot.
func (l *diskBFS) openQueue(snap *queue.Snapshot) error {
	share := queueShare(l.s.opts)
	var err error
	rec := unckRecSize(l.s)
	l.unckRec = make([]byte, rec)
	if snap != nil {
		l.unck, err = queue.RestoreDisk(rec, l.s.b, share, l.fs, "unck-", *snap)
	} else {
		l.unck, err = queue.NewDisk(rec, l.s.b, share, l.fs, "unck-")
	}
	return err
}

// bytesFor returns the bytes an unsigned number up to n needs.
func bytesFor(n int64) int {
	b := 1
	for n >= 1<<(8*b) && b < 8 {
		b++
	}
	return b
}

// install sets the searcher's visited set and hooks to the disk search.
func (l *diskBFS) install() {
	s := l.s
	s.visited = l.m
	s.enqueue = l.enqueue
	// Start states are checked as they come, as breadth-first search
	// does; later candidates at the checks (see moveSurvivors).
	s.checkLater = !l.first && s.props.live == nil
	s.beforeViolation = func() {
		if l.inCheck || !s.checkLater || l.unck.Len() == 0 {
			return
		}
		saved := append([]byte(nil), s.rec...)
		err := l.check(false)
		copy(s.rec, saved)
		if err != nil {
			s.incomplete(err)
		}
	}
	s.afterExpand = l.afterExpand
	s.levelDone = func() bool {
		if l.ck != nil && l.ck.skipLevelDone {
			l.ck.skipLevelDone = false
			return false
		}
		if err := l.check(true); err != nil {
			s.incomplete(err)
			return true
		}
		if l.first {
			// The start states are the first level.
			l.first = false
			s.levelLeft, s.nextLevel = s.nextLevel, 0
			s.checkLater = s.props.live == nil
		}
		return s.stop
	}
	s.full = func(error) bool {
		// M passed its hard limit within one expansion: check now, and
		// keep the state admit is inserting (in s.rec) safe meanwhile.
		saved := append([]byte(nil), s.rec...)
		err := l.check(false)
		copy(s.rec, saved)
		if err != nil {
			s.incomplete(err)
			return false
		}
		return !s.stop
	}
	s.phase = func() string {
		if p := s.res.Phases; len(p) > 0 {
			return p[len(p)-1]
		}
		return l.name
	}
	s.extraProgress = l.progress
}

// enqueue puts a candidate in Q_unck: its record, then its parent, its
// rule and its slot in M.
func (l *diskBFS) enqueue(rec []byte, at uint64, parent int64, rule uint32) error {
	n := len(rec)
	u := l.unckRec
	copy(u, rec)
	binary.LittleEndian.PutUint64(u[n:], uint64(parent))
	binary.LittleEndian.PutUint32(u[n+8:], rule)
	binary.LittleEndian.PutUint64(u[n+12:], at)
	return l.unck.Push(u)
}

// unckRecSize is the size of a Q_unck record: a frontier record, the
// parent, the rule and the slot.
func unckRecSize(s *searcher) int { return s.recSize() + 20 }

// afterExpand records the rules the state just taken from Q_ck fired, and
// checks if M is full.
func (l *diskBFS) afterExpand() bool {
	s := l.s
	if l.r != nil {
		if l.rSkip > 0 {
			l.rSkip--
		} else {
			n := s.res.RulesFired - l.rRules
			for i := 0; i < l.ruleBytes; i++ {
				l.entry[i] = byte(n >> (8 * i))
			}
			if err := l.r.Append(l.entry[:l.ruleBytes]); err != nil {
				s.incomplete(err)
				return true
			}
		}
	}
	l.rRules = s.res.RulesFired
	if !l.m.Full() {
		return false
	}
	if err := l.check(true); err != nil {
		s.incomplete(err)
		return true
	}
	return s.stop
}

// run searches and then counts the distinct states.
func (l *diskBFS) run() *Result {
	l.install()
	if l.s.res.Phases == nil {
		l.s.res.Phases = []string{l.name}
	}
	r := l.s.run()
	return l.finish(r)
}

// finish corrects the counts for the states expanded twice, closes the
// files and fills the result.
func (l *diskBFS) finish(r *Result) *Result {
	s := l.s
	r.StatesVisited = l.d.Len()
	r.OmissionBound = math.Min(1, l.m.OmissionBound()+l.priorBound)
	if r.Verdict == Pass && r.OmissionBound > 0 && r.Guarantee == job.GuaranteeExact {
		r.Guarantee = job.GuaranteeOmissionBound
	}
	disk := &job.DiskSearch{
		Checks: l.checks, Calibrations: l.calibrations, DStates: l.d.Len(), Candidates: l.m.Stats().Inserted + l.candidatesBefore,
		DBytes: l.d.DiskBytes() + int64(len(l.d.Tail())), DBlocks: l.d.Blocks(),
		DBytesRead: l.dRead, MCapacity: l.m.Capacity(), Cloud: l.history,
	}
	r.Disk = disk
	counted := false
	if r.Verdict == Pass || r.Verdict == Fail {
		c, err := l.countDistinct()
		if err != nil {
			r.Notes = append(r.Notes, "the distinct states could not be counted: "+err.Error())
		} else {
			l.apply(r, c)
			counted = true
		}
	}
	if !counted {
		r.States = l.d.Len()
		r.StatesExact = false
		r.StatesEstimate = l.d.Len()
	}
	if l.ck != nil {
		l.ck.finish(r)
	}
	l.close()
	io := l.fs.Stats()
	r.DiskWritten = io.BytesWritten - l.ioBase.BytesWritten
	r.DiskRead = io.BytesRead - l.ioBase.BytesRead
	r.PeakBytes = s.b.Peak()
	r.Elapsed = time.Since(s.started)
	if l.ck != nil {
		r.Elapsed += l.ck.before
		r.DiskWritten += l.ck.ioWritten
		r.DiskRead += l.ck.ioRead
	}
	return r
}

// close releases M, D, R and Q_unck (their segments too, unless a
// checkpoint keeps them).
func (l *diskBFS) close() {
	if l.m != nil {
		l.m.Release()
	}
	if l.d != nil {
		l.d.Close()
	}
	if l.r != nil {
		l.r.Close()
	}
	if l.unck != nil {
		l.unck.Close()
	}
}

// check is Fig. 10's Checktable: it marks the candidates D holds (all of
// D, or the disk cloud), moves the others to D and Q_ck, empties M, and
// calibrates the cloud when it is time. canCheckpoint says the search is
// between two expansions, where a checkpoint can be taken.
func (l *diskBFS) check(canCheckpoint bool) error {
	s := l.s
	l.inCheck = true
	defer func() { l.inCheck = false }()
	l.checks++
	blocks := l.d.Blocks()
	calibrate := !l.all && l.checks%l.gamma == 0
	inCloud := l.pickCloud(blocks)
	read := 0
	missing := false
	for _, in := range inCloud {
		if in {
			read++
		} else {
			missing = true
		}
	}
	var alias func(candidate, old int64)
	if s.props.live != nil {
		alias = func(candidate, old int64) { s.props.logEdge(candidate, old) }
	}
	l.m.Prepare()
	// The tail of D is in memory: always part of the cloud. With few
	// candidates, look them up in its index rather than scan it.
	var fromCloud int64
	indexed := false
	if l.m.Candidates()*4 < int64(l.d.TailLen()) {
		fromCloud, indexed = l.m.MarkOldIndexed(l.lookupTail, alias)
	}
	if !indexed {
		fromCloud = l.markOld(l.d.Tail(), alias)
	}
	// The cloud first, so that a calibration counts as missed only the
	// old states no block of the cloud held.
	var fromRest int64
	var marks []int64
	if calibrate {
		marks = make([]int64, blocks)
	}
	for pass := 0; pass < 2 && l.m.Len() > 0; pass++ {
		for i := 0; i < blocks; i++ {
			if inCloud[i] != (pass == 0) || (pass == 1 && !calibrate) {
				continue
			}
			data, err := l.d.Block(i)
			if err != nil {
				return err
			}
			l.dRead += int64(len(data))
			n := l.markOld(data, alias)
			if marks != nil {
				marks[i] = n
			}
			if inCloud[i] {
				fromCloud += n
			} else {
				fromRest += n
			}
		}
	}
	if calibrate {
		read = blocks
	}
	l.lastRead = read
	violations := len(s.res.Violations)
	if err := l.moveSurvivors(); err != nil {
		return err
	}
	// Fig. 10 empties M. Keeping its keys, all of them in D now, filters
	// the next successors that reach them at once, while they take less
	// than half of M; not with a checkpoint (a resumed run starts with M
	// empty, so an uninterrupted one must too), nor after an invariant
	// failed (the failing state is not in D, and is reported each time it
	// is reached).
	if l.ck == nil && len(s.res.Violations) == violations && l.m.Len() < l.m.Capacity()/2 {
		l.m.Retain()
	} else {
		l.m.Clear()
	}
	sample := job.CloudSample{Check: l.checks, Seconds: time.Since(s.started).Seconds(), DStates: l.d.Len(),
		Blocks: blocks, Read: read, Share: l.cloud, Calibrate: calibrate}
	if l.all {
		sample.Share = 1
	}
	if calibrate {
		l.calibrations++
		if missing && fromCloud+fromRest > 0 {
			sample.Beta = float64(fromRest) / float64(fromCloud+fromRest)
			l.calibrate(sample.Beta)
		}
		l.learn(marks)
	}
	l.last = sample
	l.record(sample)
	if canCheckpoint && l.ck != nil && !s.stop {
		return l.ck.save(l)
	}
	return nil
}

// markOld marks the candidates entries of D hold, on every core the
// process may use (the scan only reads D and M; the expansions between
// checks stay on one) unless each old entry must be reported (liveness).
func (l *diskBFS) markOld(entries []byte, alias func(candidate, old int64)) int64 {
	if alias != nil || l.scanWorkers < 2 {
		return l.m.MarkOld(entries, l.idBytes, alias)
	}
	return l.m.MarkOldParallel(entries, l.idBytes, l.scanWorkers)
}

// lookupTail finds a key in D's tail, returning the old entry's id.
func (l *diskBFS) lookupTail(k []byte) (int64, bool) {
	e, ok := l.d.LookupTail(k)
	if !ok {
		return 0, false
	}
	var id int64
	for i := len(e) - 1; i >= len(k); i-- {
		id = id<<8 | int64(e[i])
	}
	return id, true
}

// keyHash hashes a key as D stores it, for the tail's index.
func keyHash(sigBits int) func([]byte) uint64 {
	if sigBits == 0 {
		return state.Hash
	}
	return func(k []byte) uint64 {
		var v uint64
		for i := len(k) - 1; i >= 0; i-- {
			v = v<<8 | uint64(k[i])
		}
		return v * 0x9E3779B97F4A7C15
	}
}

// moveSurvivors drains Q_unck: a candidate M did not mark is new, so,
// unless it violates an assumption or an invariant, it goes to D and Q_ck.
func (l *diskBFS) moveSurvivors() error {
	s := l.s
	sb := s.m.StateBytes
	kl := l.m.KeyLen()
	m := s.m
	needSlots := (s.checkLater && (len(m.Assumes) > 0 || len(m.Invariants) > 0)) || len(m.Covers) > 0 || s.props.live != nil
	for {
		rec, err := l.unck.Pop()
		if err != nil {
			return err
		}
		if rec == nil {
			return nil
		}
		packed := rec[:sb]
		if !l.m.Survives(binary.LittleEndian.Uint64(rec[sb+24:])) {
			continue
		}
		id := int64(binary.LittleEndian.Uint64(rec[sb:]))
		depth := int(binary.LittleEndian.Uint32(rec[sb+8:]))
		parent := int64(binary.LittleEndian.Uint64(rec[sb+12:]))
		rule := binary.LittleEndian.Uint32(rec[sb+20:])
		var slots []int64
		if needSlots {
			s.up.Unpack(packed, l.slots)
			slots = l.slots
			if s.checkLater {
				if stop, discard := s.props.admissible(slots, parent, rule); stop || discard {
					if stop {
						return nil
					}
					continue
				}
			}
		}
		l.m.Key(packed, l.entry[:kl])
		for i := 0; i < l.idBytes; i++ {
			l.entry[kl+i] = byte(id >> (8 * i))
		}
		if len(l.levelStart) == 0 || depth > l.levelDepth+len(l.levelStart)-1 {
			l.noteLevel(depth)
		}
		if err := l.d.Append(l.entry[:kl+l.idBytes]); err != nil {
			return err
		}
		copy(s.rec[:sb], packed)
		if s.queueKept(id, slots, parent, rule, depth) {
			return nil
		}
	}
}

// noteLevel records that the next state appended to D has depth.
func (l *diskBFS) noteLevel(depth int) {
	if len(l.levelStart) == 0 {
		l.levelDepth = depth
	}
	for l.levelDepth+len(l.levelStart) <= depth {
		l.levelStart = append(l.levelStart, l.d.Len())
	}
}

// pickCloud chooses the blocks of D a check reads: all for dbfs; for ldbfs
// the blocks holding the levels of the locality window (the level being
// expanded, the window-1 before it, and any after it), and the cloud's
// share of the others drawn without replacement with Fig. 9's weights
// (Efraimidis and Spirakis's weighted sampling: the blocks with the
// largest u^(1/w), u uniform).
//
// The window departs from the paper, which draws every block at random,
// the newest with the highest probability: with hundreds of blocks a draw
// often misses the few that hold the last levels, where transition
// locality puts most old states (n_peterson N=8 under 0.1 of its exact
// peak: 464,493 of its 702,567 states expanded twice with no window, 670
// with a window of two levels).
func (l *diskBFS) pickCloud(blocks int) []bool {
	in := make([]bool, blocks)
	if l.all {
		for i := range in {
			in[i] = true
		}
		return in
	}
	others := blocks
	if l.window > 0 {
		first := l.windowStart() / int64(l.d.PerBlock())
		for i := int(first); i < blocks; i++ {
			in[i] = true
		}
		others = min(int(first), blocks)
	}
	per := int64(l.d.PerBlock())
	for _, d := range l.hot {
		first, end, ok := l.levelRange(l.s.level - d)
		if !ok {
			continue
		}
		for i := first / per; i <= (end-1)/per && i < int64(others); i++ {
			in[i] = true
		}
	}
	k := int(math.Round(l.cloud * float64(others)))
	if k >= others {
		for i := 0; i < others; i++ {
			in[i] = true
		}
		return in
	}
	if k == 0 {
		return in
	}
	rng := rand.New(rand.NewPCG(cloudSeed, uint64(l.checks)))
	type keyed struct {
		key float64
		i   int
	}
	keys := make([]keyed, others)
	for i := range keys {
		w := cloudWeight(float64(i+1) / float64(blocks))
		keys[i] = keyed{math.Log(1-rng.Float64()) / w, i}
	}
	sort.Slice(keys, func(a, b int) bool { return keys[a].key > keys[b].key })
	for _, k := range keys[:k] {
		in[k.i] = true
	}
	return in
}

// levelRange returns the D indexes [first, end) of the states appended at
// depth.
func (l *diskBFS) levelRange(depth int) (first, end int64, ok bool) {
	i := depth - l.levelDepth
	if len(l.levelStart) == 0 || i < 0 || i >= len(l.levelStart) {
		return 0, 0, false
	}
	first, end = l.levelStart[i], l.d.Len()
	if i+1 < len(l.levelStart) {
		end = l.levelStart[i+1]
	}
	return first, end, end > first
}

// learn sets the levels the cloud always reads, by distance behind the
// level being expanded, from where a calibration (which reads every block)
// found old states. Each level's yield, the old states found per entry of
// D, is averaged over calibrations (an exponentially weighted mean, so a
// level distance stays hot across the level-to-level variations of where
// old states are); the distances whose yield reaches 1/hotYield are read
// at every check. A missed old state costs an expansion (its rules fired,
// its successors looked up and queued), which on n_peterson and mcslock2
// costs about as much as looking up 200 to 1,000 entries of D.
func (l *diskBFS) learn(marks []int64) {
	if l.window == 0 || len(l.levelStart) == 0 {
		return
	}
	per := int64(l.d.PerBlock())
	windowFirst := l.windowStart()
	found := map[int]float64{}   // old states found by level
	entries := map[int]float64{} // entries read by level
	for i, n := range marks {
		lo, hi := int64(i)*per, int64(i+1)*per
		lo = max(lo, l.levelStart[0])
		hi = min(hi, windowFirst)
		if lo >= hi {
			continue
		}
		// Spread the block's finds over its levels by their entries.
		for lv := l.depthOf(lo); lo < hi; lv++ {
			_, end, _ := l.levelRange(lv)
			end = min(end, hi)
			if end <= lo {
				break
			}
			share := float64(end-lo) / float64(per)
			found[lv] += float64(n) * share
			entries[lv] += float64(end - lo)
			lo = end
		}
	}
	if l.yield == nil {
		l.yield = map[int]float64{}
	}
	for d := range l.yield {
		l.yield[d] *= 1 - yieldWeight
	}
	for lv, e := range entries {
		d := l.s.level - lv
		l.yield[d] += yieldWeight * found[lv] / e
	}
	l.hot = l.hot[:0]
	for d, y := range l.yield {
		switch {
		case y*hotYield >= 1:
			l.hot = append(l.hot, d)
		case y*hotYield*64 < 1:
			delete(l.yield, d) // negligible
		}
	}
	sort.Ints(l.hot)
}

// windowStart returns the D index of the first state of the locality
// window.
func (l *diskBFS) windowStart() int64 {
	depth := l.s.level - l.window + 1
	i := depth - l.levelDepth
	switch {
	case len(l.levelStart) == 0 || i >= len(l.levelStart):
		return l.d.Len()
	case i <= 0:
		if l.levelDepth > 0 || l.rBase > 0 {
			return l.levelStart[0]
		}
		return 0
	}
	return l.levelStart[i]
}

// cloudWeight is Fig. 9's selection probability (up to the normalising
// constant K) of a block at relative position rho (0 the oldest, 1 the
// newest): the paper's (a1, b1) = (0.4, 0.4), (a2, b2) = (0.7, 0.6) and
// b3 = 1 at a3 = 1, flat below a1 so that old blocks keep a chance.
func cloudWeight(rho float64) float64 {
	switch {
	case rho <= 0.4:
		return 0.4
	case rho <= 0.7:
		return 0.4 + (rho-0.4)/0.3*0.2
	default:
		return 0.6 + (rho-0.7)/0.3*0.4
	}
}

// calibrate is Fig. 12's Calibrate, with §5.5's reset.
func (l *diskBFS) calibrate(beta float64) {
	switch {
	case beta > betaHigh:
		l.cloud = math.Min(1, l.cloud*(1+cloudSpeedup))
	case beta < betaLow:
		l.cloud = math.Max(0.01, l.cloud*(1-cloudSlowdown))
	}
	if l.cloud >= cloudCritical {
		l.highRuns++
	} else {
		l.highRuns = 0
	}
	if l.highRuns >= cloudHighRuns {
		l.highRuns = 0
		rng := rand.New(rand.NewPCG(cloudSeed+1, uint64(l.checks)))
		if rng.Float64() < cloudResetP {
			l.cloud = l.initCloud
		}
	}
}

// record keeps a sample of the cloud, thinning the history to bound it.
func (l *diskBFS) record(c job.CloudSample) {
	if l.checks%l.historyEvery != 0 {
		return
	}
	l.history = append(l.history, c)
	if len(l.history) >= maxCloudSamples {
		kept := l.history[:0]
		for i, h := range l.history {
			if i%2 == 0 {
				kept = append(kept, h)
			}
		}
		l.history = kept
		l.historyEvery *= 2
	}
}

// progress adds the disk search's figures to a progress sample.
func (l *diskBFS) progress(p *job.Progress) {
	io := l.fs.Stats()
	p.BytesWritten = io.BytesWritten - l.ioBase.BytesWritten
	p.BytesRead = io.BytesRead - l.ioBase.BytesRead
	p.States = l.d.Len()
	p.StatesVisited = l.d.Len()
	share := l.cloud
	if l.all {
		share = 1
	}
	p.Disk = &job.DiskProgress{
		MFill: l.m.Fill(), MCapacity: l.m.Capacity(), DStates: l.d.Len(),
		DBytes: l.d.DiskBytes() + int64(len(l.d.Tail())), DBlocks: l.d.Blocks(),
		CloudBlocks: l.lastRead, CloudShare: share, Checks: l.checks, Unchecked: l.unck.Len(),
	}
	if l.last.Check > 0 {
		last := l.last
		p.Disk.LastCheck = &last
	}
	p.DiskBytes += l.d.DiskBytes()
	if l.unck != nil {
		p.DiskBytes += l.unck.Stats().OnDisk * int64(l.unck.RecordSize())
	}
	if l.ck != nil {
		l.ck.progress(p)
	}
}
