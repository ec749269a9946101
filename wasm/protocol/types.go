// This file mirrors core/verify's options, progress and result as plain data.

package protocol

import "fmt"

// Verdicts, as in core/verify.
const (
	Pass       = "pass"
	Fail       = "fail"
	Incomplete = "incomplete"
	Rejected   = "rejected"
	Error      = "error"
)

// Choices offered for the options with a fixed set of values; the first of
// each is the engine's default.
var (
	Algorithms = []string{"bfs", "dfs"}
	Symmetries = []string{"exact", "heuristic", "off"}
	Deadlocks  = []string{"stuttering", "stuck", "off"}
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

// Options is verify.Options without the fields that cannot cross a
// postMessage (the file system and the progress callback).
type Options struct {
	Algorithm     string  `json:"algorithm,omitempty"`
	Symmetry      string  `json:"symmetry,omitempty"`
	Deadlock      string  `json:"deadlock,omitempty"`
	Bound         int     `json:"bound,omitempty"`
	MaxErrors     int     `json:"max_errors,omitempty"`
	MemoryBytes   int64   `json:"memory_bytes,omitempty"`
	QueueFraction float64 `json:"queue_fraction,omitempty"`
	Trace         string  `json:"trace,omitempty"`
	ProgressEvery int64   `json:"progress_every_ms,omitempty"`
}

// Validate reports the first option a browser run cannot accept.
func (o *Options) Validate() error {
	if err := oneOf("algorithm", o.Algorithm, Algorithms); err != nil {
		return err
	}
	if err := oneOf("symmetry", o.Symmetry, Symmetries); err != nil {
		return err
	}
	if err := oneOf("deadlock", o.Deadlock, Deadlocks); err != nil {
		return err
	}
	if err := oneOf("trace", o.Trace, []string{"full", "diff", "none"}); err != nil {
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

// Progress is one sample of a running exploration.
type Progress struct {
	Seconds      float64 `json:"seconds"`
	States       int64   `json:"states"`
	RulesFired   int64   `json:"rules_fired"`
	Level        int     `json:"level"`
	QueueMemory  int64   `json:"queue_memory"`
	QueueDisk    int64   `json:"queue_disk"`
	MemoryBytes  int64   `json:"memory_bytes"`
	BytesWritten int64   `json:"bytes_written"`
	BytesRead    int64   `json:"bytes_read"`
	StatesPerSec float64 `json:"states_per_sec"`
}

// Result is the outcome of one check.
type Result struct {
	Verdict     string       `json:"verdict"`
	Reason      string       `json:"reason,omitempty"`
	Violation   *Violation   `json:"violation,omitempty"`
	Violations  []Violation  `json:"violations,omitempty"`
	States      *int64       `json:"states"`
	RulesFired  int64        `json:"rules_fired"`
	Depth       int          `json:"depth"`
	Seconds     float64      `json:"seconds"`
	PeakBytes   int64        `json:"peak_bytes"`
	RSSBytes    int64        `json:"rss_bytes,omitempty"`
	Algorithm   string       `json:"algorithm"`
	Symmetry    string       `json:"symmetry"`
	Deadlock    string       `json:"deadlock"`
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`

	StatesPerSec  float64 `json:"states_per_sec"`
	RulesPerSec   float64 `json:"rules_per_sec"`
	BytesPerState float64 `json:"bytes_per_state"`
	StateBits     int     `json:"state_bits"`
	LevelSizes    []int64 `json:"level_sizes,omitempty"`
	Covers        []Cover `json:"covers,omitempty"`
	DiskWritten   int64   `json:"disk_bytes_written,omitempty"`
	DiskRead      int64   `json:"disk_bytes_read,omitempty"`
}

// Violation is one property failure or run-time model error.
type Violation struct {
	Kind    string      `json:"kind"`
	Name    string      `json:"name,omitempty"`
	Message string      `json:"message"`
	Pos     string      `json:"pos,omitempty"`
	Trace   []TraceStep `json:"trace,omitempty"`
}

// TraceStep is one state of a counterexample and the rule that led to it.
type TraceStep struct {
	Rule    string     `json:"rule"`
	Pos     string     `json:"pos,omitempty"` // file:line:col of the rule or start state
	State   []VarValue `json:"state"`
	Changed []int      `json:"changed,omitempty"` // indexes into State that differ from the previous step
}

// VarValue is one scalar component of a state.
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
	Severity string `json:"severity"`
	Message  string `json:"message"`
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
