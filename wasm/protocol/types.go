// This file names core/run's plain types for the page and the Worker: both
// sides use them directly, so nothing is mirrored or copied field by field.

package protocol

import (
	"fmt"

	"github.com/locus-mc/locus/core/job"
)

// Verdicts, as in core/run.
const (
	Pass       = job.Pass
	Fail       = job.Fail
	Incomplete = job.Incomplete
	Rejected   = job.Rejected
	Error      = job.Error
)

// The types the messages carry.
type (
	Options    = job.Options
	Progress   = job.Progress
	Result     = job.Result
	Violation  = job.Violation
	TraceStep  = job.TraceStep
	VarValue   = job.VarValue
	Cover      = job.Cover
	Diagnostic = job.Diagnostic
	EngineInfo = job.EngineInfo
)

// Memory budgets a page may ask for. The Go heap of a browser tab tops out
// near 3.8 GiB and hitting that is fatal, so the budget plus the worker's
// margin (see HeapLimit) must stay well under it.
const (
	MiB             = 1 << 20
	MinMemoryBytes  = 16 * MiB
	MaxMemoryBytes  = 2048 * MiB
	DefaultMemoryMB = 256
)

// MaxWorkers bounds Options.Workers in the browser: each worker is a Web
// Worker with a Go instance of its own.
const MaxWorkers = 16

// DefaultAlgorithm is the engine the app uses unless the user picks
// another: it never runs out of memory.
const DefaultAlgorithm = "auto"

// ValidateOptions reports the first option a browser run cannot accept that
// the page can tell without the engine (the Worker checks the algorithm
// and its parameters against the engine registry).
func ValidateOptions(o *Options) error {
	if err := oneOf("symmetry", o.Symmetry, job.Symmetries); err != nil {
		return err
	}
	if err := oneOf("deadlock", o.Deadlock, job.Deadlocks); err != nil {
		return err
	}
	if err := oneOf("trace", o.Trace, job.Traces); err != nil {
		return err
	}
	if o.MemoryBytes < MinMemoryBytes || o.MemoryBytes > MaxMemoryBytes {
		return fmt.Errorf("memory budget must be between %d MiB and %d MiB", MinMemoryBytes/MiB, MaxMemoryBytes/MiB)
	}
	if o.Bound < 0 || o.MaxErrors < 0 || o.ProgressEvery < 0 {
		return fmt.Errorf("bound, max errors and progress interval must not be negative")
	}
	if o.QueueFraction < 0 || o.QueueFraction >= 1 {
		return fmt.Errorf("queue fraction must be in [0, 1)")
	}
	if o.Workers < 0 || o.Workers > MaxWorkers {
		return fmt.Errorf("workers must be between 0 and %d", MaxWorkers)
	}
	if o.HashCompaction != 0 && (o.HashCompaction < job.MinHashCompaction || o.HashCompaction > job.MaxHashCompaction) {
		return fmt.Errorf("hash compaction takes %d to %d bits", job.MinHashCompaction, job.MaxHashCompaction)
	}
	return nil
}

func oneOf(what, v string, allowed []string) error {
	if v == "" {
		return nil
	}
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q", what, v)
}

// HeapLimit is the Go heap limit (debug.SetMemoryLimit) a worker sets for a
// run with the given engine budget: the budget plus a margin for what the
// engine does not account (the compiled model, buffers, trace records) and
// for the collector's headroom.
func HeapLimit(budget int64) int64 {
	margin := budget / 4
	if margin < 64*MiB {
		margin = 64 * MiB
	}
	return budget + margin
}

// HardHeapLimit is the heap size at which a worker stops a run as
// incomplete, when the collector could not hold the heap under HeapLimit.
func HardHeapLimit(budget int64) int64 {
	return HeapLimit(budget) + HeapLimit(budget) - budget
}

// SimView is the state a simulation has reached.
type SimView struct {
	Path  []int `json:"path"`  // the choices taken: a start state number, then rule instance numbers
	Steps int   `json:"steps"` // states on the path: len(Path), or one less when the last choice failed
	// Starts lists the start states when Path is empty.
	Starts  []SimChoice `json:"starts,omitempty"`
	Choices []SimChoice `json:"choices,omitempty"` // the enabled rule instances of the last state
	// Violations are the invariants the last state breaks (no traces).
	Violations []Violation `json:"violations,omitempty"`
	// Failure is the run-time error the last choice raised; the path's
	// states end before it.
	Failure     *Violation   `json:"failure,omitempty"`
	Discarded   bool         `json:"discarded,omitempty"` // an assumption is false in the last state
	Deadlock    bool         `json:"deadlock,omitempty"`  // the last state is a deadlock
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
}

// SimChoice is a start state or an enabled rule instance.
type SimChoice struct {
	Index int    `json:"index"`
	Name  string `json:"name"`
	Pos   string `json:"pos,omitempty"`
	Error string `json:"error,omitempty"` // firing it raises this run-time error
	Same  bool   `json:"same,omitempty"`  // firing it leads back to the same state
}

// GraphSummary describes a state graph the page's JavaScript received.
type GraphSummary struct {
	Nodes       int          `json:"nodes"`
	Edges       int          `json:"edges"`
	Truncated   bool         `json:"truncated,omitempty"`
	Violation   *Violation   `json:"violation,omitempty"`
	Path        []int        `json:"path,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
}

// TraceSummary describes the states of a trace message: which sequence
// they belong to ("run", "sim" or "graph"), how long it is now, and
// whether export files came with it.
type TraceSummary struct {
	Key     string `json:"key"`
	Steps   int    `json:"steps"`
	Exports bool   `json:"exports,omitempty"`
}

// StoredRun is a checkpointed run kept in browser storage: a run of a
// checkpointing engine (EngineInfo.Checkpoints) whose tab was closed or
// reloaded, or that stopped short (quota, cancel), and can be resumed with
// its model and options.
type StoredRun struct {
	Store    string  `json:"store"` // the store's name (OPFS directory or IndexedDB database)
	Kind     string  `json:"kind"`  // StorageOPFS or StorageIndexedDB
	Filename string  `json:"filename,omitempty"`
	Source   string  `json:"source,omitempty"`
	Options  Options `json:"options"`
	Started  string  `json:"started,omitempty"` // RFC 3339
	Bytes    int64   `json:"bytes"`             // what its segments take
	// Elapsed and States are the newest checkpoint's search time and
	// entries in the signature file D (states, revisits included).
	Elapsed float64 `json:"elapsed,omitempty"`
	States  int64   `json:"states,omitempty"`
	// Resumable: it has a checkpoint (a run interrupted before its first
	// one starts over when resumed).
	Resumable bool `json:"resumable"`
	// Running: a Worker (this tab's or another's) holds the store now.
	Running bool   `json:"running,omitempty"`
	Problem string `json:"problem,omitempty"` // why its checkpoint cannot be read
}
