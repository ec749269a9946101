package explore

// This file registers auto: the engine for users who should not have to
// know the others. It runs an exact BFS; when the memory budget is full it
// converts the visited set in place into signatures (hash compaction,
// about a third of the memory per state) and goes on without restarting;
// when that fills too and storage is available, the signatures move to the
// file D of a disk-based search and it goes on as LDBFS (ldbfs.go), still
// never forgetting a state; without storage (or
// with the parameter disk=0) the signature table becomes a cache
// (cache-based BFS) and the search goes on with the no-progress detector.
// The phases in the result say which; the verdict says which guarantee
// held at the end: exact, an omission bound, or not proven complete.

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/store"
)

// The signature widths auto switches to. In memory alone, 40 bits
// (CMurphi's default): a table of n states compares a new state with the
// few signatures its probes meet, so the omission bound grows like n/2^40.
// When the signatures may move to disk, 64: every check compares each
// candidate with all of D (or its cloud), so the bound grows like n^2/2^k,
// and at 40 bits it passes 1 near a million states (2.87M states of
// n_peterson lost 6). The signatures cannot be widened on the way to disk
// (the states are gone), so the compact phase starts at 64 when a disk
// phase can follow. At 9 bytes an entry such a table seldom fits in the
// memory the exact set's index frees, and then the states go from the
// exact set straight to disk (exactToDisk), whole if they are no larger
// than a signature.
const (
	autoSigBits     = 40
	autoDiskSigBits = 64
)

func init() {
	register(job.EngineInfo{
		Name:  "auto",
		Title: "Automatic (exact, then hash compaction, then disk or cache)",
		Help: "Exact breadth-first search while the states fit in the memory budget; then, without restarting, " +
			"hash compaction (a tiny chance of missing a state, bounded in the result: 64-bit signatures when storage is available, else 40-bit); " +
			"then, with storage, disk-based BFS (ldbfs) on the signatures (straight from the exact phase when they would not fit in memory; " +
			"states of at most 8 bytes go to disk whole), else a cache of recent states. " +
			"The result says which guarantee holds. On several workers the exact phase runs in parallel; if their visited sets fill the budget, " +
			"the search starts over on one worker, which goes on as above.",
		Levels: true, ShortestTraces: true, UsesStorage: true, Checkpoints: true, Parallel: true,
		Params: []job.ParamInfo{
			{Name: "revisits", Title: "In cache mode, stop after this many times the known states were inserted with nothing new found", Default: 3, Min: 1, Max: 1000},
			{Name: "disk", Title: "When even signatures fill the budget: 1 goes on with them on disk (LDBFS) if storage is available, 0 with a cache of recent states", Default: 1, Min: 0, Max: 1, Integer: true},
		},
	}, auto).generated = true
	registry["auto"].check = checkAutoOptions
}

// checkAutoOptions refuses a checkpointed auto run that can never reach
// its disk phase, the only one it checkpoints: the exact and compact
// phases live in memory, and hold at most the budget's worth of states,
// so a run killed in them starts over on resume.
func checkAutoOptions(opts Options) error {
	if !opts.Checkpoint || opts.Resume {
		return nil
	}
	switch {
	case opts.MemoryBytes == 0:
		return fmt.Errorf("auto writes checkpoints only once it goes on disk, and without a memory budget (-m) it never does: give one, or use --algo ldbfs")
	case opts.Param("disk") == 0:
		return fmt.Errorf("auto writes checkpoints only once it goes on disk, and with disk=0 it never does")
	}
	return nil
}

func auto(ctx context.Context, m *compile.Model, opts Options) *Result {
	if opts.Resume {
		// Only the disk phase has checkpoints; without one the run
		// starts over (resumeDisk says so), on one worker.
		releaseParts(opts)
		opts.Workers, opts.Parts = 1, nil
		return resumeDisk(ctx, m, opts, false)
	}
	if opts.Checkpoint {
		if opts.FS == nil {
			return &Result{Verdict: Error, Reason: "a checkpoint needs storage (a directory, or the browser's)"}
		}
		if err := liveCheckpointRefusal(m); err != nil {
			return &Result{Verdict: Error, Reason: err.Error()}
		}
	}
	const ckNote = "auto writes checkpoints from its disk phase on: " +
		"its exact and compact phases live in memory, so a run interrupted in them starts over when resumed"
	// Generated code runs the exact phase where it covers the model: a
	// run that fits in the budget is exact bfs there. One that does not
	// starts over, in generated code with hash compaction (the closures'
	// compact phase, from the start, several times faster, in about half
	// the memory of exact states), and if that does not fit either, on
	// the closures, which go on past the exact phase.
	began := time.Now() // generated attempts' time is the user's too
	var genNote string
	if opts.Generated != nil {
		r, note, filled := generatedFirst(ctx, m, opts)
		genNote = note
		phase := store.KindExact
		if r == nil && filled != "" && opts.HashBits == 0 {
			compact := opts
			compact.HashBits = autoDiskSigBits // all a generated index keeps
			compact.generated = nil            // not the exact search's module
			if r, note, _ = generatedFirst(ctx, m, compact); r != nil {
				phase = store.KindCompact
				r.Elapsed = time.Since(began)
				r.Notes = append([]string{fmt.Sprintf("%s: the search ran again from the start in it, with %d-bit hash compaction", filled, autoDiskSigBits)}, r.Notes...)
			} else {
				genNote = filled + "; with hash compaction, " + note
			}
		}
		if r != nil {
			r.Phases = []string{phase}
			if opts.Checkpoint {
				r.Notes = append(r.Notes, ckNote)
			}
			return r
		}
		if opts.generatedOnly {
			return &Result{Verdict: Incomplete, Reason: genNote}
		}
	}
	var notes []string
	if genNote != "" {
		notes = append(notes, genNote)
	}
	if opts.Workers > 1 {
		r, note := autoParallel(ctx, m, opts)
		if r != nil {
			r.Notes = append(r.Notes, notes...)
			if opts.Checkpoint {
				r.Notes = append(r.Notes, ckNote)
			}
			return r
		}
		opts.Workers, opts.Parts = 1, nil
		if note != "" {
			notes = append(notes, note)
		}
	}
	s, failed := newSearcher(ctx, m, opts, false)
	if failed != nil {
		return failed
	}
	s.started = began
	if opts.Checkpoint {
		s.res.Notes = append(s.res.Notes, ckNote)
	}
	s.res.Notes = append(s.res.Notes, notes...)
	exact, err := store.NewExactBits(m.StateBits, s.b, state.Hash)
	if err != nil {
		return abandon(s, err)
	}
	s.visited = store.ExactSet{Exact: exact}
	s.res.Phases = []string{store.KindExact}
	s.phase = func() string { return s.res.Phases[len(s.res.Phases)-1] }
	ids := len(m.Liveness) > 0
	var sample *distinctSample
	var disk *diskBFS
	if opts.MemoryBytes > 0 {
		// Reserved now: when the detector is needed, memory is full.
		if sample, err = newDistinctSample(s.b, opts.MemoryBytes/64); err != nil {
			exact.Release()
			return abandon(s, err)
		}
		// With storage, the states go to disk when their signatures fill
		// the budget (LDBFS); the memory D's buffers will need then is
		// set aside now, when it is there. States no larger than a
		// signature go to disk whole, straight from the exact phase.
		var reserve int64
		bits, diskBits := autoSigBits, autoDiskSigBits
		if s.m.StateBytes <= autoDiskSigBits/8 {
			diskBits = 0
		}
		if opts.FS != nil && !ids && opts.Param("disk") == 1 {
			reserve = max(geometryOf(s, false, diskBits).filesBytes(), geometryOf(s, false, autoDiskSigBits).filesBytes())
			if s.b.Reserve(diskReservePart, reserve) {
				bits = autoDiskSigBits
			} else {
				reserve = 0
			}
		}
		var table *store.Table
		watchProgress(s, sample, opts.Param("revisits"), func() bool { return table != nil && table.IsCache() })
		s.full = func(cause error) bool {
			if table == nil {
				// Straight to disk when a signature table would not
				// hold the states much longer than the exact set did
				// (auto goes on disk only once it expands states).
				if reserve > 0 && s.expanded > 0 && (diskBits == 0 || !compactFits(s, exact, ids, bits)) {
					s.b.Release(diskReservePart, reserve)
					reserve = 0
					var err error
					if disk, err = exactToDisk(s, exact, diskBits); err != nil {
						s.incomplete(err)
						return false
					}
					return true
				}
				table = toCompact(s, exact, ids, bits)
				return table != nil
			}
			canDisk := reserve > 0 && s.expanded > 0
			if reserve > 0 {
				s.b.Release(diskReservePart, reserve)
				reserve = 0
			}
			if canDisk {
				var err error
				if disk, err = toDisk(s, table, bits); err != nil {
					s.incomplete(err)
					return false
				}
				return true
			}
			if !table.IsCache() {
				table.ToCache()
				s.res.Phases = append(s.res.Phases, store.KindCache)
				s.res.Notes = append(s.res.Notes, fmt.Sprintf("at %d states the signature table was full: the search went on with it as a cache (cache-based BFS)", s.trail.Len()))
				return true
			}
			return false
		}
		s.extraProgress = func(p *job.Progress) {
			if table != nil && table.IsCache() {
				p.CacheFill = table.Fill()
				p.States = sample.estimate()
			}
		}
	}
	r := s.run()
	if sample != nil {
		sample.release()
		if phase := r.Phases[len(r.Phases)-1]; phase == store.KindCache {
			r.StatesExact = false
			r.StatesEstimate = sample.estimate()
		}
	}
	if disk != nil {
		r = disk.finish(r)
	}
	return r
}

// autoParallel runs auto's exact phase over opts.Workers workers: the
// result if that search ended, or nil and a note if it must start over on
// one worker, which can go on past the exact phase (the parallel search
// cannot turn its visited sets into signatures or move them to disk).
func autoParallel(ctx context.Context, m *compile.Model, opts Options) (*Result, string) {
	if why := oneWorkerOnly(m, opts); why != "" {
		releaseParts(opts)
		return nil, why
	}
	r := parallelSearch(ctx, m, opts)
	if !r.ranOut || ctx.Err() != nil {
		r.Phases = []string{store.KindExact}
		return r, ""
	}
	releaseParts(opts)
	return nil, fmt.Sprintf("the exact search on %d workers filled the memory budget at %d states: it started over on one worker, which goes on past the exact phase", opts.Workers, r.States)
}

// diskReservePart names the memory auto sets aside for going on disk.
const diskReservePart = "disk search reserve"

// toDisk moves the signatures of a full Compact table to the file D of a
// disk search and makes the search go on as LDBFS: every state known so
// far is in D, those still queued will be expanded, and the states met
// from now on are checked against D. bits is the table's signature width,
// which D and M keep.
func toDisk(s *searcher, table *store.Table, bits int) (*diskBFS, error) {
	n, bound := table.Len(), table.Stats().OmissionBound
	l, err := goOnDisk(s, bits, func(l *diskBFS) error {
		defer table.Release()
		return table.DrainSignatures(l.d.Append)
	})
	if err != nil {
		return nil, err
	}
	l.priorBound = bound
	s.res.Notes = append(s.res.Notes, fmt.Sprintf("at %d states even their signatures filled the memory budget: "+
		"the search went on with them on disk (LDBFS, disk-based BFS with locality, %d-bit signatures)", n, bits))
	return l, nil
}

// exactToDisk moves the states of the full exact set to D, as signatures
// of bits bits, or whole if bits is 0, and makes the search go on as LDBFS.
func exactToDisk(s *searcher, exact *store.Exact, bits int) (*diskBFS, error) {
	n := exact.Len()
	var key [8]byte
	l, err := goOnDisk(s, bits, func(l *diskBFS) error {
		defer exact.Release()
		return exact.Drain(func(idx int64, rec []byte) error {
			// ids are in BFS order: D learns where each level starts,
			// as if LDBFS had appended them, so the cloud's window
			// finds the recent ones.
			if lv := s.levelOf(idx); len(l.levelStart) == 0 || lv > l.levelDepth+len(l.levelStart)-1 {
				l.noteLevel(lv)
			}
			if bits == 0 {
				return l.d.Append(rec)
			}
			binary.LittleEndian.PutUint64(key[:], store.Signature(rec, bits))
			return l.d.Append(key[:(bits+7)/8])
		})
	})
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("as %d-bit signatures", bits)
	if bits == 0 {
		what = fmt.Sprintf("whole (%d bytes a state, no larger than a signature: nothing can be omitted)", s.m.StateBytes)
	}
	s.res.Notes = append(s.res.Notes, fmt.Sprintf("at %d states the memory budget was full: "+
		"the search went on with them on disk %s (LDBFS, disk-based BFS with locality)", n, what))
	return l, nil
}

// goOnDisk sets up the files of a disk search whose keys have bits bits
// (0: packed states), lets fill append the states known so far to D, and
// makes the search go on as LDBFS.
func goOnDisk(s *searcher, bits int, fill func(*diskBFS) error) (*diskBFS, error) {
	l, err := newDiskFiles(s, false, bits)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*diskBFS, error) {
		l.close()
		return nil, fmt.Errorf("going on disk: %w", err)
	}
	if err := fill(l); err != nil {
		return fail(err)
	}
	if err := s.trail.Spill(); err != nil {
		return fail(err)
	}
	if err := l.openMemory(bits); err != nil {
		return fail(err)
	}
	// The states queued (and the one being expanded) are in D before R's
	// first entry: their expansions are not recorded, as none of them can
	// be a revisit.
	l.rBase = l.d.Len()
	l.rSkip = s.front.Len() + 1 // auto goes on disk only once it expands states
	l.rRules = s.res.RulesFired
	if s.opts.Checkpoint {
		if l.ck, err = newDiskCheckpointer(l); err != nil {
			return fail(err)
		}
	}
	l.install()
	s.res.Phases = append(s.res.Phases, phaseLDBFS)
	return l, nil
}

// compactFits reports whether a table of bits-bit signatures holds the
// exact set's states, and a quarter more, in the memory the conversion
// would have.
func compactFits(s *searcher, exact *store.Exact, ids bool, bits int) bool {
	to := store.TableOptions{SigBits: bits, Stamps: true, IDs: ids}
	n := exact.Len()
	return store.CompactCapacity(s.m.StateBytes, to, s.b.Available()+exact.IndexBytes()-queueShare(s.opts)/2) >= n+n/4
}

// toCompact converts the exact set into a signature table in the memory it
// frees, and makes it the search's visited set; nil if it cannot.
func toCompact(s *searcher, exact *store.Exact, ids bool, bits int) *store.Table {
	n := exact.Len()
	// Spilling the trail gives its memory back first.
	if err := s.trail.Spill(); err != nil {
		s.res.Notes = append(s.res.Notes, err.Error())
		return nil
	}
	to := store.TableOptions{SigBits: bits, Stamps: true, IDs: ids, Keep: keepFor(s.opts)}
	// The exact table's index (8 bytes a slot) is released before the
	// signature table is made, so a table sized for the states so far
	// (and room to grow) always fits where the index was.
	freed := exact.IndexBytes()
	capacity := store.CompactCapacity(s.m.StateBytes, to, s.b.Available()+freed-queueShare(s.opts)/2)
	if capacity < n+n/4 {
		capacity = n + n/4
	}
	var table *store.Table
	levelOf := s.levelOf
	buf := make([]byte, s.m.StateBytes)
	err := exact.Drain(func(idx int64, rec []byte) error {
		if table == nil {
			var err error
			if table, err = store.NewCompact(s.m.StateBytes, s.b, withCapacity(to, capacity)); err != nil {
				return err
			}
		}
		copy(buf, rec)
		h := state.Hash(buf)
		found, _, at := table.Find(buf, h)
		if found {
			return nil // two states with one signature: the table keeps one
		}
		return table.Insert(at, buf, h, idx, levelOf(idx))
	})
	if table == nil && err == nil {
		table, err = store.NewCompact(s.m.StateBytes, s.b, withCapacity(to, capacity))
	}
	if err != nil {
		s.res.Notes = append(s.res.Notes, "converting to hash compaction failed: "+err.Error())
		if table != nil {
			table.Release()
		}
		return nil
	}
	s.visited = table
	s.res.Phases = append(s.res.Phases, store.KindCompact)
	s.res.Notes = append(s.res.Notes, fmt.Sprintf("at %d states the memory budget was full: the search went on with %d-bit hash compaction", n, bits))
	return table
}
