// Package verify is Locus's one entry point: model text and options in, a
// verdict with counts and a counterexample out.
//
// cmd/locus and wasm/ use only this package; the UI reaches it through the
// worker protocol. Everything here is plain data that marshals to the JSON
// printed by `locus check --json` and sent by the Web Worker.
package verify

import (
	"github.com/locus-mc/locus/storagefs"
)

// Verdicts.
const (
	Pass       = "pass"       // every reachable state visited, no violation
	Fail       = "fail"       // a violation, including run-time model errors
	Incomplete = "incomplete" // stopped early (bound, memory budget, cancel); see Reason
	Rejected   = "rejected"   // the front end refused the model; see Diagnostics
	Error      = "error"      // internal or I/O failure; see Reason
)

// Options selects the algorithm and its limits. The zero value means the
// defaults: bfs, exact symmetry, stuttering deadlock detection, one error,
// no bound, no memory limit, full traces.
type Options struct {
	Algorithm     string  `json:"algorithm,omitempty"`      // "bfs" (default) or "dfs"
	Symmetry      string  `json:"symmetry,omitempty"`       // "exact" (default), "heuristic", "off"
	Deadlock      string  `json:"deadlock,omitempty"`       // "stuttering" (default), "stuck", "off"
	Bound         int     `json:"bound,omitempty"`          // do not expand states at this BFS depth; 0 = no bound
	MaxErrors     int     `json:"max_errors,omitempty"`     // stop after this many violations; 0 = 1
	MemoryBytes   int64   `json:"memory_bytes,omitempty"`   // engine memory budget; 0 = unlimited
	QueueFraction float64 `json:"queue_fraction,omitempty"` // share of the budget for the BFS queue's memory part; 0 = default
	Trace         string  `json:"trace,omitempty"`          // "full" (default), "diff", "none"

	// FS is where engines keep disk data (queue spill files). Nil means the
	// queue never spills: running out of its share ends the run as incomplete.
	FS storagefs.FS `json:"-"`

	// Progress, if set, is called about ProgressEvery (default 100 ms) with
	// a snapshot of the run; it must return quickly.
	Progress      func(Progress) `json:"-"`
	ProgressEvery int64          `json:"progress_every_ms,omitempty"`
}

// Progress is one sample of a running exploration.
type Progress struct {
	Seconds      float64 `json:"seconds"`
	States       int64   `json:"states"`
	RulesFired   int64   `json:"rules_fired"`
	Level        int     `json:"level"`         // BFS level being expanded
	QueueMemory  int64   `json:"queue_memory"`  // states queued in memory
	QueueDisk    int64   `json:"queue_disk"`    // states queued on disk
	MemoryBytes  int64   `json:"memory_bytes"`  // engine-accounted bytes in use
	BytesWritten int64   `json:"bytes_written"` // disk bytes written so far
	BytesRead    int64   `json:"bytes_read"`    // disk bytes read so far
	StatesPerSec float64 `json:"states_per_sec"`
}

// Result is the outcome of one check.
type Result struct {
	Verdict     string       `json:"verdict"`
	Reason      string       `json:"reason,omitempty"`
	Violation   *Violation   `json:"violation,omitempty"`  // the first violation
	Violations  []Violation  `json:"violations,omitempty"` // all of them, when max-errors > 1
	States      *int64       `json:"states"`               // distinct reachable states found; nil if unknown
	RulesFired  int64        `json:"rules_fired"`
	Depth       int          `json:"depth"` // largest BFS level reached; start states are level 0
	Seconds     float64      `json:"seconds"`
	PeakBytes   int64        `json:"peak_bytes"`          // engine-accounted peak: visited set + queues + traces
	RSSBytes    int64        `json:"rss_bytes,omitempty"` // process peak resident set (filled by the CLI)
	Algorithm   string       `json:"algorithm"`
	Symmetry    string       `json:"symmetry"`
	Deadlock    string       `json:"deadlock"`
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"` // errors and warnings from the front end

	StatesPerSec  float64 `json:"states_per_sec"`
	RulesPerSec   float64 `json:"rules_per_sec"`
	BytesPerState float64 `json:"bytes_per_state"` // packed state vector size
	StateBits     int     `json:"state_bits"`
	LevelSizes    []int64 `json:"level_sizes,omitempty"` // new states found at each BFS level
	Covers        []Cover `json:"covers,omitempty"`
	DiskWritten   int64   `json:"disk_bytes_written,omitempty"`
	DiskRead      int64   `json:"disk_bytes_read,omitempty"`
}

// Violation is one property failure or run-time model error.
type Violation struct {
	// Kind is one of: invariant, assertion, deadlock, error-statement,
	// liveness, cover, undefined-read, index-out-of-range,
	// range-error(assignment), range-error(parameter),
	// runtime-for-step-zero, division-by-zero, overflow.
	Kind    string      `json:"kind"`
	Name    string      `json:"name,omitempty"` // the property's or error's name, if any
	Message string      `json:"message"`        // what a user reads
	Pos     string      `json:"pos,omitempty"`  // file:line:col of the failing construct
	Trace   []TraceStep `json:"trace,omitempty"`
}

// TraceStep is one state of a counterexample: the rule that led to it
// (the start state's name for the first step) and the state itself.
type TraceStep struct {
	Rule  string     `json:"rule"`
	Pos   string     `json:"pos,omitempty"` // file:line:col of the rule or start state
	State []VarValue `json:"state"`
	// Changed lists the indexes in State that differ from the previous step.
	Changed []int `json:"changed,omitempty"`
}

// VarValue is one scalar component of a state, by its full designator.
type VarValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Cover reports how often a cover property held.
type Cover struct {
	Name  string `json:"name"`
	Count int64  `json:"count"`
}

// Diagnostic is a front-end message located in the model text.
type Diagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"` // "error" or "warning"
	Message  string `json:"message"`
}
