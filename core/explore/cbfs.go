package explore

// This file registers cache-based BFS (Penna et al., "Exploiting transition
// locality...", §4, Figs. 4 and 5): breadth-first search whose visited set
// is a fixed-size cache, with the queue on disk. A new state that finds its
// window of the cache full overwrites the entry of the oldest BFS level;
// forgotten states may be visited again, but by transition locality most
// transitions lead to recent levels, which the cache remembers.
//
// If the queue runs dry, every reachable state has been visited: each
// state ever inserted was queued and expanded, and each successor was
// either inserted or found in the cache, hence inserted earlier. That is
// the only way a cbfs run ends in pass. When the cache is too small, the
// search revisits states forever; the detector of progress.go stops it
// with verdict incomplete and says why.

import (
	"context"
	"fmt"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/store"
)

// DefaultCacheBudget is the memory a cbfs run uses when none is given.
const DefaultCacheBudget = 64 << 20

func init() {
	register(job.EngineInfo{
		Name:  "cbfs",
		Title: "Cache-based BFS (fixed memory)",
		Help: "Breadth-first search with a fixed-size cache of recent states instead of a table of all of them, " +
			"and the queue on disk: verifies models several times larger than memory, at the price of visiting some states again. " +
			"It passes only when the search completes; if the cache is too small it stops and says so.",
		Levels: true, UsesStorage: true, HashCompaction: true,
		Params: []job.ParamInfo{
			{Name: "window", Title: "Cache slots probed per state (a small bucket)", Default: store.DefaultWindow, Min: 1, Max: 64, Integer: true},
			{Name: "revisits", Title: "Stop after this many times the known states were inserted with nothing new found", Default: 3, Min: 1, Max: 1000},
		},
	}, cbfs)
}

func cbfs(ctx context.Context, m *compile.Model, opts Options) *Result {
	var note string
	if opts.MemoryBytes == 0 {
		opts.MemoryBytes = DefaultCacheBudget
		note = fmt.Sprintf("cbfs needs a memory budget; it used %s (set one with -m)", budget.FormatBytes(DefaultCacheBudget))
	}
	s, failed := newSearcher(ctx, m, opts, false)
	if failed != nil {
		return failed
	}
	if note != "" {
		s.res.Notes = append(s.res.Notes, note)
	}
	sample, err := newDistinctSample(s.b, opts.MemoryBytes/32)
	if err != nil {
		return abandon(s, err)
	}
	to := store.TableOptions{SigBits: opts.HashBits, IDs: len(m.Liveness) > 0, Window: int(opts.Param("window"))}
	avail := s.b.Available() - queueShare(opts) - trailHeadroom
	if opts.FS == nil {
		// No disk: the queue and the trail stay in memory and need room
		// to grow; the cache takes half of what is left.
		avail /= 2
		s.res.Notes = append(s.res.Notes, "cbfs ran without disk storage: its queue stayed in memory and the cache got half the budget")
	}
	cache, err := store.NewCache(m.StateBytes, s.b, withCapacity(to, store.CacheCapacity(m.StateBytes, to, avail)))
	if err != nil {
		sample.release()
		return abandon(s, err)
	}
	s.visited = cache
	watchProgress(s, sample, opts.Param("revisits"), func() bool { return true })
	s.extraProgress = func(p *job.Progress) { p.CacheFill = cache.Fill() }
	r := s.run()
	sample.release()
	r.StatesExact = false
	r.StatesEstimate = sample.estimate()
	return r
}

// trailHeadroom is memory left for the trail's chunks in memory (it spills
// the rest to disk).
const trailHeadroom = 256 << 10

func withCapacity(o store.TableOptions, n int64) store.TableOptions {
	o.Capacity = n
	return o
}

// abandon ends a search that could not set up its visited set.
func abandon(s *searcher, err error) *Result {
	s.front.Close()
	s.trail.Close()
	return s.fail(err)
}

// watchProgress installs the no-progress detector: sample sees every
// insertion, and at each BFS level's end, while forgetting() says the
// visited set forgets states, the search stops if it has stalled.
func watchProgress(s *searcher, sample *distinctSample, revisits float64, forgetting func() bool) {
	prevInserted := s.inserted
	s.inserted = func(h uint64) {
		sample.add(h, s.level+1)
		if prevInserted != nil {
			prevInserted(h)
		}
	}
	s.levelDone = func() bool {
		if !forgetting() {
			return false
		}
		why := sample.stalled(s.level, revisits)
		if why == "" {
			return false
		}
		vs := s.visited.Stats()
		s.res.Verdict = Incomplete
		s.res.Guarantee = job.GuaranteeNotComplete
		est := sample.estimate()
		switch why {
		case "levels":
			s.res.Reason = fmt.Sprintf("no progress: the search reached BFS level %d, more levels than distinct states, and found no new state after level %d", s.level, sample.lastNewLevel)
		default:
			s.res.Reason = fmt.Sprintf("no progress: its last %d insertions found no new state", sample.inserts-sample.lastNewAt)
		}
		s.res.Reason += fmt.Sprintf(" (about %d distinct states seen, %d insertions, collision rate %.2f); "+
			"the cache is too small for this model's locality, so the run cannot show that every state was visited — "+
			"give it more memory", est, vs.Inserted, float64(vs.Evicted)/float64(max(vs.Inserted, 1)))
		s.stop = true
		return true
	}
}
