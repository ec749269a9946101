// Package explore holds the state-space exploration engines. Every engine
// takes the same compiled Model and Options and returns the same Result, so
// each can be cross-checked against exact breadth-first search.
package explore

import (
	"context"
	"fmt"
	"time"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/storagefs"
)

// DeadlockMode selects what counts as a deadlock.
type DeadlockMode uint8

// Deadlock modes.
const (
	// DeadlockStuttering: no enabled rule leads to a different state (the
	// CMurphi definition and Rumur's default).
	DeadlockStuttering DeadlockMode = iota
	// DeadlockStuck: no rule is enabled at all.
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
	Algorithm     string // "bfs" or "dfs"
	Symmetry      SymmetryMode
	Deadlock      DeadlockMode
	Bound         int // do not expand states at this depth; 0 = no bound
	MaxErrors     int // stop after this many violations; 0 means 1
	MemoryBytes   int64
	QueueFraction float64 // share of MemoryBytes for the queue's memory part
	FS            storagefs.FS
	Trace         TraceMode
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// Progress is one sample of a running exploration.
type Progress struct {
	Elapsed      time.Duration
	States       int64
	RulesFired   int64
	Level        int
	QueueMemory  int64
	QueueDisk    int64
	MemoryBytes  int64
	BytesWritten int64
	BytesRead    int64
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
	return [...]string{"pass", "fail", "incomplete", "error"}[v]
}

// Result is what every engine returns.
type Result struct {
	Verdict    Verdict
	Reason     string // why incomplete or error
	Violations []*Violation
	States     int64
	// StatesExact is false when States is only a lower bound or estimate.
	StatesExact bool
	RulesFired  int64
	Depth       int
	Elapsed     time.Duration
	PeakBytes   int64
	LevelSizes  []int64
	Covers      []CoverCount
	DiskWritten int64
	DiskRead    int64
	// Notes are things the user should know about how the run was done.
	Notes []string
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

// Run explores m with the engine opts.Algorithm names.
func Run(ctx context.Context, m *compile.Model, opts Options) *Result {
	switch opts.Algorithm {
	case "", "bfs":
		return search(ctx, m, opts, false)
	case "dfs":
		return search(ctx, m, opts, true)
	}
	return &Result{Verdict: Error, Reason: fmt.Sprintf("unknown algorithm %q", opts.Algorithm)}
}

// Algorithms lists the engines Run accepts.
func Algorithms() []string { return []string{"bfs", "dfs"} }
