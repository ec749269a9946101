package explore

// This file registers the exact engines: breadth-first and depth-first
// search over an exact visited set, or over k-bit signatures with hash
// compaction.

import (
	"context"
	"fmt"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/store"
)

func init() {
	register(job.EngineInfo{
		Name:  "bfs",
		Title: "Breadth-first search (exact)",
		Help: "Visits every reachable state once, level by level, and keeps them all: counts match CMurphi and Rumur, " +
			"and a counterexample is a shortest path. Needs memory for every state.",
		Exact: true, Levels: true, ShortestTraces: true, HashCompaction: true, Locality: true,
	}, func(ctx context.Context, m *compile.Model, opts Options) *Result {
		return exactSearch(ctx, m, opts, false)
	})
	register(job.EngineInfo{
		Name:  "dfs",
		Title: "Depth-first search (exact)",
		Help: "Visits every reachable state once, deepest first; the same states as bfs, " +
			"but counterexamples are not shortest. Its queue is often smaller.",
		Exact: true, HashCompaction: true,
	}, func(ctx context.Context, m *compile.Model, opts Options) *Result {
		return exactSearch(ctx, m, opts, true)
	})
}

func exactSearch(ctx context.Context, m *compile.Model, opts Options, lifo bool) *Result {
	s, failed := newSearcher(ctx, m, opts, lifo)
	if failed != nil {
		return failed
	}
	if opts.HashBits > 0 {
		t, err := store.NewCompact(m.StateBytes, s.b, store.TableOptions{
			SigBits:  opts.HashBits,
			IDs:      len(m.Liveness) > 0,
			Capacity: compactCapacity(m, s.b, opts),
		})
		if err != nil {
			s.front.Close()
			s.trail.Close()
			return s.fail(err)
		}
		s.visited = t
		s.res.StatesExact = true
	} else {
		t, err := store.NewExact(m.StateBytes, s.b, state.Hash)
		if err != nil {
			s.front.Close()
			s.trail.Close()
			return s.fail(err)
		}
		s.visited = store.ExactSet{Exact: t}
		s.exhaustedHint = func(error) string { return exactHint(s) }
	}
	if opts.Locality && !lifo {
		s.locality = newLocalityStats(s)
	}
	return s.run()
}

// compactCapacity sizes a hash-compaction table: under a budget, all of it
// but the queue's share and room for the trail; otherwise small, growing.
func compactCapacity(m *compile.Model, b *budget.Budget, opts Options) int64 {
	if b.Limit() == 0 {
		return 0
	}
	avail := b.Available() - queueShare(opts) - b.Limit()/16
	if avail <= 0 {
		return 0
	}
	return store.CompactCapacity(m.StateBytes, store.TableOptions{SigBits: opts.HashBits, IDs: len(m.Liveness) > 0}, avail)
}

// queueShare is the part of the budget the queue keeps in memory.
func queueShare(opts Options) int64 {
	frac := opts.QueueFraction
	if frac <= 0 {
		frac = DefaultQueueFraction
	}
	return int64(frac * float64(opts.MemoryBytes))
}

// exactHint tells a user whose exact search ran out of memory what it held
// per state and what would fit.
func exactHint(s *searcher) string {
	n := s.visited.Len()
	if n == 0 {
		return ""
	}
	per := float64(s.b.Used()) / float64(n)
	sig := store.CompactCapacity(s.m.StateBytes, store.TableOptions{SigBits: 40}, 1<<30)
	sigPer := float64(1<<30) / float64(sig)
	return fmt.Sprintf(" (%.1f bytes per state so far, %s in use); "+
		"to go on in this budget, use --algo auto (continues with 40-bit hash compaction, about %.1f bytes per state, then a cache) "+
		"or --algo cbfs, or a budget above %s for an exact search of a few times as many states",
		per, budget.FormatBytes(s.b.Used()), sigPer, budget.FormatBytes(2*s.b.Limit()))
}
