package explore

// This file registers the exact engines: breadth-first and depth-first
// search over an exact visited set, or over k-bit signatures with hash
// compaction.

import (
	"context"
	"errors"
	"fmt"
	"time"

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
		Exact: true, Levels: true, ShortestTraces: true, HashCompaction: true, Locality: true, Parallel: true,
	}, func(ctx context.Context, m *compile.Model, opts Options) *Result {
		if opts.Workers <= 1 {
			return exactSearch(ctx, m, opts, false)
		}
		if why := oneWorkerOnly(m, opts); why != "" {
			releaseParts(opts)
			r := exactSearch(ctx, m, opts, false)
			r.Notes = append(r.Notes, why)
			return r
		}
		r, note, _ := generatedFirst(ctx, m, opts)
		if r != nil {
			return r
		}
		r = parallelSearch(ctx, m, opts)
		if note != "" {
			r.Notes = append(r.Notes, note)
		}
		return r
	}).generated = true
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

// oneWorkerOnly says why a search must run on one worker, or "".
func oneWorkerOnly(m *compile.Model, opts Options) string {
	switch {
	case len(m.Liveness) > 0:
		return fmt.Sprintf("the search ran on one worker, not %d: liveness properties are checked on the whole state graph", opts.Workers)
	case opts.Locality:
		return fmt.Sprintf("the search ran on one worker, not %d: measuring locality needs the level of every state met again", opts.Workers)
	case opts.MemoryBytes > 0 && opts.HashBits == 0 && int64(opts.Workers-1)*store.ExactOverhead(m.StateBits, opts.MemoryBytes) > queueShare(opts):
		// The parallel search pays for the workers' extra visited sets
		// from the queue's share (planPart); under a budget this small
		// they would take what the states need.
		return fmt.Sprintf("the search ran on one worker, not %d: a memory budget of %s is too small to hold %d visited sets (each costs %s of its own)",
			opts.Workers, budget.FormatBytes(opts.MemoryBytes), opts.Workers, budget.FormatBytes(store.ExactOverhead(m.StateBits, opts.MemoryBytes)))
	}
	return ""
}

func exactSearch(ctx context.Context, m *compile.Model, opts Options, lifo bool) *Result {
	began := time.Now()
	var note string
	if opts.Generated != nil && !lifo {
		var r *Result
		if r, note, _ = tryGenerated(ctx, m, opts); r != nil {
			return r
		}
		if opts.generatedOnly {
			return &Result{Verdict: Incomplete, Reason: note}
		}
	}
	// The time of a generated attempt counts: it is the user's.
	r := closureSearch(ctx, m, opts, lifo, began)
	if note != "" {
		r.Notes = append(r.Notes, note)
	}
	return r
}

// closureSearch runs the search on the closures; its time counts from
// began (an attempt in generated code may have come first).
func closureSearch(ctx context.Context, m *compile.Model, opts Options, lifo bool, began time.Time) *Result {
	s, failed := newSearcher(ctx, m, opts, lifo)
	if failed != nil {
		return failed
	}
	s.started = began
	if opts.HashBits > 0 {
		t, err := store.NewCompact(m.StateBytes, s.b, store.TableOptions{
			SigBits:  opts.HashBits,
			IDs:      len(m.Liveness) > 0,
			Capacity: compactCapacity(m, s.b, opts),
			Keep:     keepFor(opts),
		})
		if err != nil {
			s.front.Close()
			s.trail.Close()
			return s.fail(err)
		}
		s.visited = t
		s.res.StatesExact = true
	} else {
		t, err := store.NewExactBits(m.StateBits, s.b, state.Hash)
		if err != nil {
			s.front.Close()
			s.trail.Close()
			return s.fail(err)
		}
		s.visited = store.ExactSet{Exact: t}
		s.exhaustedHint = func(error) string { return exactHint(s) }
	}
	// The trail appends between insertions, so it mostly meets the limit
	// first and spills; where the set meets it first, the trail spills
	// then. Without this a run could fail under a budget a little larger
	// than one under which it passes.
	s.full = func(error) bool { return spillTrail(s.trail) }
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

// keepFor is the budget a signature table leaves to the queue and the trail
// when it grows into the last of the budget: their shares on disk, more of
// it without disk (where they live in memory).
func keepFor(opts Options) int64 {
	if opts.FS == nil {
		return opts.MemoryBytes / 4
	}
	return queueShare(opts) + trailHeadroom
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
	sig := store.CompactCapacity(s.m.StateBytes, store.TableOptions{SigBits: autoDiskSigBits, Stamps: true}, 1<<30)
	sigPer := float64(1<<30) / float64(sig)
	twice := 2 * s.b.Limit()
	return fmt.Sprintf(" (%.1f bytes per state so far): an exact search of this model needs more than %s; "+
		"at this rate %s would hold about %d states. To finish within %s, use --algo auto "+
		"(goes on with 64-bit signatures: in memory at about %.0f bytes per state where they fit, then on disk) or --algo cbfs",
		per, budget.FormatBytes(s.b.Limit()), budget.FormatBytes(twice), int64(float64(twice)/per),
		budget.FormatBytes(s.b.Limit()), sigPer)
}

// generatedFirst runs a search in generated code, where opts.Generated
// covers it: on opts.Workers parts where the runtime runs them at once and
// the module can (generatedParts), else on one worker if opts.Workers is
// at most besideTakeOver (there one beats a few running the closures,
// see there). It returns the result, or nil and the note to give on the
// closures' result, and where the generated search filled its memory (see
// tryGenerated).
func generatedFirst(ctx context.Context, m *compile.Model, opts Options) (*Result, string, string) {
	if opts.Generated == nil {
		return nil, "", ""
	}
	oneWhy := "in code generated for the model, one is faster than a few running the compiled closures"
	rerun := false
	if rt := partsRuntime(opts); opts.Workers > 1 && rt != nil {
		if why := partsWhyNot(m, opts); why != "" {
			oneWhy = why
		} else {
			r, err := generatedParts(ctx, m, opts, rt)
			if r != nil {
				releaseParts(opts)
				r.CodeGen = opts.Generated.Name()
				return r, "", ""
			}
			var again *errPartsRerun
			if errors.As(err, &again) {
				rerun = true
				oneWhy = "the search on " + fmt.Sprint(opts.Workers) + " workers in generated code stopped at " + again.why + ", and ran again on one"
				if again.why == partsViolation {
					oneWhy += ": which violation comes first, its counterexample and the counts up to it are the one search's"
				}
			} else if err != nil {
				oneWhy = err.Error()
			}
		}
	}
	// (A module made beside the closures, opts.generated, runs once it
	// is ready, whatever the workers: the closures have stopped.)
	if opts.Workers > besideTakeOver && !rerun && opts.generated == nil {
		return nil, "", ""
	}
	one := opts
	one.Workers, one.Parts = 1, nil
	r, note, full := tryGenerated(ctx, m, one)
	if r != nil && opts.Workers > 1 {
		releaseParts(opts)
		r.Notes = append(r.Notes, fmt.Sprintf("the search ran on one worker, not %d: %s", opts.Workers, oneWhy))
	}
	return r, note, full
}

// partsWhyNot says why a generated search cannot run on several workers,
// or "" (see wasmgen's partsOK).
func partsWhyNot(m *compile.Model, opts Options) string {
	switch {
	case opts.MaxErrors > 1:
		return "the violations a search goes on past are recorded in the order of one search"
	case len(m.Liveness) > 0:
		return "liveness properties are checked on the whole state graph"
	}
	return ""
}

// releaseParts lets opts.Parts give back what its parts hold, when a search
// asked of several workers goes on without them.
func releaseParts(opts Options) {
	if p, ok := opts.Parts.(PartReleaser); ok {
		p.Release()
	}
}

// tryGenerated runs an exact bfs in generated code: its result, or the
// note to give on the result of the closures, which must run it instead.
func tryGenerated(ctx context.Context, m *compile.Model, opts Options) (r *Result, note, filled string) {
	r, err := generatedSearch(ctx, m, opts)
	if err == nil {
		return r, "", ""
	}
	if e, ok := err.(*errNotGenerated); ok && e.note != "" {
		return nil, e.note, e.filled
	}
	return nil, err.Error() + ": the search ran on the compiled closures", ""
}

// errNotGenerated ends an attempt at a generated search that the closures
// must redo: why it ended, or the whole note to give (note); filled, if
// it filled its memory, says where ("the generated code reached ...").
type errNotGenerated struct{ why, note, filled string }

func (e *errNotGenerated) Error() string {
	if e.note != "" {
		return e.note
	}
	return e.why
}
