package explore

// This file registers auto: the engine for users who should not have to
// know the others. It runs an exact BFS; when the memory budget is full it
// converts the visited set in place into 40-bit signatures (hash
// compaction, about a third of the memory per state) and goes on without
// restarting; when that fills too and storage is available, the
// signatures move to the file D of a disk-based search and it goes on as
// LDBFS (ldbfs.go), still never forgetting a state; without storage (or
// with the parameter disk=0) the signature table becomes a cache
// (cache-based BFS) and the search goes on with the no-progress detector.
// The phases in the result say which; the verdict says which guarantee
// held at the end: exact, an omission bound, or not proven complete.

import (
	"context"
	"fmt"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/store"
)

// autoSigBits is the signature width auto switches to (CMurphi's default).
const autoSigBits = 40

func init() {
	register(job.EngineInfo{
		Name:  "auto",
		Title: "Automatic (exact, then hash compaction, then disk or cache)",
		Help: "Exact breadth-first search while the states fit in the memory budget; then, without restarting, " +
			"40-bit hash compaction (a tiny chance of missing a state, bounded in the result); then, with storage, disk-based BFS (ldbfs) " +
			"on the signatures, else a cache of recent states. " +
			"The result says which guarantee holds.",
		Levels: true, ShortestTraces: true, UsesStorage: true,
		Params: []job.ParamInfo{
			{Name: "revisits", Title: "In cache mode, stop after this many times the known states were inserted with nothing new found", Default: 3, Min: 1, Max: 1000},
			{Name: "disk", Title: "When even signatures fill the budget: 1 goes on with them on disk (LDBFS) if storage is available, 0 with a cache of recent states", Default: 1, Min: 0, Max: 1, Integer: true},
		},
	}, auto)
}

func auto(ctx context.Context, m *compile.Model, opts Options) *Result {
	s, failed := newSearcher(ctx, m, opts, false)
	if failed != nil {
		return failed
	}
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
		// With storage, the signatures go to disk when they fill the
		// budget (LDBFS); the memory D's buffers will need then is set
		// aside now, when it is there.
		var reserve int64
		if opts.FS != nil && !ids && opts.Param("disk") == 1 {
			reserve = geometryOf(s, false, autoSigBits).filesBytes()
			if !s.b.Reserve(diskReservePart, reserve) {
				reserve = 0
			}
		}
		var table *store.Table
		watchProgress(s, sample, opts.Param("revisits"), func() bool { return table != nil && table.IsCache() })
		s.full = func(cause error) bool {
			if table == nil {
				table = toCompact(s, exact, ids)
				return table != nil
			}
			canDisk := reserve > 0 && s.expanded > 0
			if reserve > 0 {
				s.b.Release(diskReservePart, reserve)
				reserve = 0
			}
			if canDisk {
				var err error
				if disk, err = toDisk(s, table); err != nil {
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

// diskReservePart names the memory auto sets aside for going on disk.
const diskReservePart = "disk search reserve"

// toDisk moves the signatures of a full Compact table to the file D of a
// disk search and makes the search go on as LDBFS: every state known so
// far is in D, those still queued will be expanded, and the states met
// from now on are checked against D.
func toDisk(s *searcher, table *store.Table) (*diskBFS, error) {
	n := table.Len()
	bound := table.Stats().OmissionBound
	l, err := newDiskFiles(s, false, autoSigBits)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*diskBFS, error) {
		l.close()
		return nil, fmt.Errorf("going on disk: %w", err)
	}
	if err := table.DrainSignatures(l.d.Append); err != nil {
		return fail(err)
	}
	table.Release()
	if err := s.trail.Spill(); err != nil {
		return fail(err)
	}
	if err := l.openMemory(autoSigBits); err != nil {
		return fail(err)
	}
	// The states queued (and the one being expanded) are in D before R's
	// first entry: their expansions are not recorded, as none of them can
	// be a revisit.
	l.rBase = l.d.Len()
	l.rSkip = s.front.Len() + 1 // auto goes on disk only once it expands states
	l.rRules = s.res.RulesFired
	l.priorBound = bound
	l.install()
	s.res.Phases = append(s.res.Phases, phaseLDBFS)
	s.res.Notes = append(s.res.Notes, fmt.Sprintf("at %d states even their signatures filled the memory budget: "+
		"the search went on with them on disk (LDBFS, disk-based BFS with locality)", n))
	return l, nil
}

// toCompact converts the exact set into a signature table in the memory it
// frees, and makes it the search's visited set; nil if it cannot.
func toCompact(s *searcher, exact *store.Exact, ids bool) *store.Table {
	n := exact.Len()
	// Spilling the trail gives its memory back first.
	if err := s.trail.Spill(); err != nil {
		s.res.Notes = append(s.res.Notes, err.Error())
		return nil
	}
	to := store.TableOptions{SigBits: autoSigBits, Stamps: true, IDs: ids, Keep: keepFor(s.opts)}
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
	s.res.Notes = append(s.res.Notes, fmt.Sprintf("at %d states the memory budget was full: the search went on with %d-bit hash compaction", n, autoSigBits))
	return table
}
