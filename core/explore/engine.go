// Package explore holds the state-space exploration engines. Every engine
// takes the same compiled Model and Options and returns the same Result, so
// each can be cross-checked against exact breadth-first search.
//
// Engines register themselves in this package's registry with a
// job.EngineInfo; the command line, the Web Worker and the UI read the
// registry (Engines) and nothing outside this package compares algorithm
// names. The engines share one search loop (search.go) over the seams of
// DESIGN.md: a visited set behind store.Visited, a queue from core/queue, a
// trail (core/trail) that rebuilds counterexamples by replaying rules, and
// the property checks of props.go.
package explore

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/wasmgen"
	"github.com/locus-mc/locus/storagefs"
)

// DeadlockMode selects what counts as a deadlock.
type DeadlockMode uint8

// Deadlock modes.
const (
	// DeadlockStuttering: no enabled rule leads to a different state (the
	// CMurphi definition and Rumur's default).
	DeadlockStuttering DeadlockMode = iota
	// DeadlockStuck: no rule fires at all (Rumur; a rule whose assume
	// statement fails does not fire).
	DeadlockStuck
	// DeadlockOff: no deadlock detection.
	DeadlockOff
)

// SymmetryMode selects scalarset symmetry reduction.
type SymmetryMode uint8

// Symmetry modes.
const (
	SymmetryExact     SymmetryMode = iota // one state per orbit (CMurphi -sym1)
	SymmetryHeuristic                     // a fast normalisation; may keep several states of one orbit
	SymmetryOff
)

// TraceMode selects how much of a counterexample to keep.
type TraceMode uint8

// Trace modes.
const (
	TraceFull TraceMode = iota
	TraceNone
)

// Options configure an exploration.
type Options struct {
	Algorithm     string // a registered engine name; "" means bfs
	Symmetry      SymmetryMode
	Deadlock      DeadlockMode
	Bound         int // do not expand states at this depth; 0 = no bound
	MaxErrors     int // stop after this many violations; 0 means 1
	MemoryBytes   int64
	QueueFraction float64 // share of MemoryBytes for the queue's memory part
	HashBits      int     // hash compaction signature bits; 0 = off
	Locality      bool    // measure transition locality (exact BFS)
	Params        map[string]float64
	FS            storagefs.FS
	Trace         TraceMode
	Progress      func(job.Progress)
	ProgressEvery time.Duration
	// Seed seeds randomized engines: the same seed gives the same run.
	Seed int64
	// Observe, if set, is called with every state an engine keeps (packed
	// and canonical), in the order they are kept. It is a measurement hook
	// (how many distinct states did a forgetting engine really visit?),
	// not part of any engine's logic.
	Observe func(packed []byte)
	// Checkpoint makes an engine that can (job.EngineInfo.Checkpoints)
	// keep its files in FS durable at each check, described by a manifest;
	// Resume continues the run of FS's newest manifest instead. RunTag
	// identifies the model and options: a manifest of another run is
	// refused.
	Checkpoint bool
	Resume     bool
	RunTag     string
	// Workers spreads the search over this many workers (engines with
	// EngineInfo.Parallel); 0 or 1 = one.
	Workers int
	// Parts, if set, runs parts 1..Workers-1 of a parallel search at its
	// end (ServePart) instead of on goroutines.
	Parts PartTransport
	// Generated, if set, runs a one-worker bfs in WebAssembly generated
	// for the model (core/wasmgen) on this runtime, where the generator
	// covers the model and the options; otherwise the closures run it.
	Generated wasmgen.Runtime
	// GeneratedBeside, if set (and Generated is not), starts the search
	// on the closures at once while the model's code is generated and
	// loaded on this runtime beside them (nativerun builds a program: a
	// second or more). If the code is ready first, the search runs again
	// in it, on one worker: on up to besideTakeOver workers the closures
	// stop then; on more (and no memory budget), both go on and the first
	// to finish decides. A small model is done before its code is; a
	// large one gains the generated code's speed without waiting for it.
	GeneratedBeside wasmgen.Runtime
	// CheckpointIfAble makes Checkpoint a wish, not a demand: a run that
	// cannot be checkpointed (an engine or options that write none,
	// liveness properties) runs without one and says so in a note. The browser app asks it of every run of a
	// checkpointing engine.
	CheckpointIfAble bool
	// generated is the module generated for this run beforehand (by
	// runBeside, which made its code while the closures ran), if any.
	generated *wasmgen.Module
	// generatedOnly: where the generated code cannot do the search, the
	// closures do not either (runBeside's race, where they are running
	// already); the result is an incomplete one with no CodeGen.
	generatedOnly bool
}

// Param returns engine parameter name: the value given in Options, else
// the registered default.
func (o Options) Param(name string) float64 {
	if v, ok := o.Params[name]; ok {
		return v
	}
	if e := lookup(o.Algorithm); e != nil {
		for _, p := range e.info.Params {
			if p.Name == name {
				return p.Default
			}
		}
	}
	return math.NaN()
}

// Verdict is the outcome of a run.
type Verdict uint8

// Verdicts.
const (
	Pass Verdict = iota
	Fail
	Incomplete
	Error
)

func (v Verdict) String() string {
	return [...]string{job.Pass, job.Fail, job.Incomplete, job.Error}[v]
}

// Result is what every engine returns.
type Result struct {
	Verdict    Verdict
	Reason     string // why incomplete or error
	Violations []*Violation
	// States counts distinct states; StatesExact is false when it is not
	// a count of distinct reachable states (a cache forgets states).
	States         int64
	StatesExact    bool
	StatesVisited  int64 // insertions into the visited set
	StatesEstimate int64 // forgetting engines: estimated distinct states
	RulesFired     int64
	Depth          int
	Elapsed        time.Duration
	PeakBytes      int64
	VisitedBytes   int64
	MemoryBudget   int64
	LevelSizes     []int64
	Covers         []CoverCount
	DiskWritten    int64
	DiskRead       int64
	Guarantee      string  // job.Guarantee*
	OmissionBound  float64 // hash compaction
	CollisionRate  float64 // caches
	Phases         []string
	Locality       *job.Locality
	// OmissionEstimate is set by rbfs (see job.Result).
	OmissionEstimate *float64
	Visits           []job.Visit
	Reexpansions     int64
	Reinsertions     int64
	MaxStack         int64
	CacheStates      int64
	// SymmetryOffReason is set when symmetry reduction was turned off for
	// this run, and says why.
	SymmetryOffReason string
	// Notes are things the user should know about how the run was done.
	Notes []string
	// Disk reports a disk-based search; Checkpoint a checkpointed run.
	Disk       *job.DiskSearch
	Checkpoint *job.CheckpointInfo
	// Workers is the number of workers the search ran on.
	Workers int
	// CodeGen names the runtime of the generated code the search ran in
	// ("" for the compiled closures).
	CodeGen string
	// ranOut: the run ended incomplete because memory or storage ran
	// out (not because it was stopped, or reached a bound).
	ranOut bool
}

// CoverCount reports how often a cover property held.
type CoverCount struct {
	Name  string
	Count int64
}

// Violation is one property failure or run-time model error, with its
// counterexample.
type Violation struct {
	Kind  string // manifest words: invariant, assertion, deadlock, ...
	Name  string
	Msg   string
	Pos   murphi.Pos
	Trace []TraceStep
}

// TraceStep is one state of a counterexample and the rule that led to it.
type TraceStep struct {
	Rule  string
	State []int64
}

// engine is a registered algorithm.
type engine struct {
	info job.EngineInfo
	// generated: the engine runs generated code where Options.Generated
	// asks (a one-worker bfs, or auto's exact phase).
	generated bool
	run       func(ctx context.Context, m *compile.Model, opts Options) *Result
	// check, if set, refuses options the engine cannot honour (beyond
	// what its EngineInfo says), before the run starts.
	check func(Options) error
}

var registry = map[string]*engine{}

// register adds an engine; engine files call it from init.
func register(info job.EngineInfo, fn func(context.Context, *compile.Model, Options) *Result) *engine {
	if _, dup := registry[info.Name]; dup {
		panic("explore: engine registered twice: " + info.Name)
	}
	e := &engine{info: info, run: fn}
	registry[info.Name] = e
	return e
}

func lookup(name string) *engine {
	if name == "" {
		name = DefaultAlgorithm
	}
	return registry[name]
}

// Engine describes the engine called name ("" = the default), if there is one.
func Engine(name string) (job.EngineInfo, bool) {
	if e := lookup(name); e != nil {
		return e.info, true
	}
	return job.EngineInfo{}, false
}

// DefaultAlgorithm is the engine used when Options.Algorithm is empty.
const DefaultAlgorithm = "bfs"

// Engines describes every registered engine, the default first, then by name.
func Engines() []job.EngineInfo {
	var out []job.EngineInfo
	for _, e := range registry {
		out = append(out, e.info)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].Name == DefaultAlgorithm) != (out[j].Name == DefaultAlgorithm) {
			return out[i].Name == DefaultAlgorithm
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Algorithms lists the engine names Run accepts, the default first.
func Algorithms() []string {
	var out []string
	for _, e := range Engines() {
		out = append(out, e.Name)
	}
	return out
}

// Check reports the first thing wrong with opts for its engine: an unknown
// engine, a parameter it does not have or out of range, hash compaction or
// locality it does not support.
func Check(opts Options) error {
	e := lookup(opts.Algorithm)
	if e == nil {
		return fmt.Errorf("unknown algorithm %q (known: %s)", opts.Algorithm, strings.Join(Algorithms(), ", "))
	}
	if opts.HashBits != 0 {
		if !e.info.HashCompaction {
			return fmt.Errorf("the %s engine does not use hash compaction", e.info.Name)
		}
		if opts.HashBits < job.MinHashCompaction || opts.HashBits > job.MaxHashCompaction {
			return fmt.Errorf("hash compaction takes %d to %d bits, not %d", job.MinHashCompaction, job.MaxHashCompaction, opts.HashBits)
		}
	}
	if opts.Workers < 0 {
		return fmt.Errorf("workers must not be negative")
	}
	if opts.Workers > 1 && !e.info.Parallel {
		return fmt.Errorf("the %s engine runs on one worker, not %d", e.info.Name, opts.Workers)
	}
	if opts.Workers > MaxWorkers {
		return fmt.Errorf("at most %d workers, not %d", MaxWorkers, opts.Workers)
	}
	if opts.Locality && !e.info.Locality {
		return fmt.Errorf("the %s engine cannot measure transition locality (bfs can)", e.info.Name)
	}
	settleCheckpointWish(nil, &opts)
	if (opts.Checkpoint || opts.Resume) && !e.info.Checkpoints {
		return fmt.Errorf("the %s engine does not write checkpoints (%s do)", e.info.Name, strings.Join(checkpointing(), ", "))
	}
	if e.check != nil {
		if err := e.check(opts); err != nil {
			return err
		}
	}
	for name, v := range opts.Params {
		var p *job.ParamInfo
		for i := range e.info.Params {
			if e.info.Params[i].Name == name {
				p = &e.info.Params[i]
			}
		}
		if p == nil {
			return fmt.Errorf("the %s engine has no parameter %q", e.info.Name, name)
		}
		if math.IsNaN(v) || v < p.Min || v > p.Max || (p.Integer && v != math.Trunc(v)) {
			return fmt.Errorf("parameter %s of %s must be %s in [%g, %g], not %g", name, e.info.Name, kindOf(p), p.Min, p.Max, v)
		}
	}
	return nil
}

// checkpointing lists the engines that write checkpoints.
func checkpointing() []string {
	var out []string
	for _, e := range Engines() {
		if e.Checkpoints {
			out = append(out, e.Name)
		}
	}
	return out
}

func kindOf(p *job.ParamInfo) string {
	if p.Integer {
		return "an integer"
	}
	return "a number"
}

// Run explores m with the engine opts.Algorithm names.
func Run(ctx context.Context, m *compile.Model, opts Options) *Result {
	note := settleCheckpointWish(m, &opts)
	if err := Check(opts); err != nil {
		return &Result{Verdict: Error, Reason: err.Error()}
	}
	e := lookup(opts.Algorithm)
	var r *Result
	if opts.GeneratedBeside != nil && opts.Generated == nil && e.generated {
		r = runBeside(ctx, e, m, opts)
	} else {
		r = e.run(ctx, m, opts)
	}
	if note != "" {
		r.Notes = append(r.Notes, note)
	}
	return r
}

// settleCheckpointWish drops the checkpoint a CheckpointIfAble run asks for
// where the engine, its options or the model (m, if known) cannot give
// one, and returns the note that says why.
func settleCheckpointWish(m *compile.Model, opts *Options) string {
	if !opts.Checkpoint || !opts.CheckpointIfAble || opts.Resume {
		return ""
	}
	e := lookup(opts.Algorithm)
	if e == nil {
		return "" // Check names the unknown algorithm
	}
	without := *opts
	without.Checkpoint = false
	var why string
	switch {
	case !e.info.Checkpoints:
		why = fmt.Sprintf("the %s engine does not write them", e.info.Name)
	case e.check != nil && e.check(*opts) != nil && e.check(without) == nil:
		why = e.check(*opts).Error()
	case m != nil && len(m.Liveness) > 0:
		why = "a run checking liveness properties keeps its graph of transitions in memory, so it cannot be resumed"
	default:
		return ""
	}
	opts.Checkpoint = false
	return "no checkpoints: " + why
}
