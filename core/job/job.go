// Package job holds the plain data of one verification run: its options, the
// progress samples it sends while it runs, its result, and the descriptions
// of the engines that can do it.
//
// The engines (core/explore), the entry point (core/verify), the command line,
// the Web Worker protocol and the UI all use these types. The package imports
// nothing else of Locus, so the UI uses it without linking the engine, and the
// JSON the CLI prints is the JSON the Worker posts.
package job

// Verdicts.
const (
	Pass       = "pass"       // no violation; Guarantee says how complete the search was
	Fail       = "fail"       // a violation, including run-time model errors
	Incomplete = "incomplete" // stopped early (bound, memory budget, cancel, no progress); see Reason
	Rejected   = "rejected"   // the front end refused the model; see Diagnostics
	Error      = "error"      // internal or I/O failure; see Reason
)

// Guarantees: what a run's search covered, so what a pass means.
const (
	// GuaranteeExact: every reachable state was visited, each compared in full.
	GuaranteeExact = "exact"
	// GuaranteeOmissionBound: every reachable state was visited unless a
	// signature collision (hash compaction) hid one; the probability that
	// even one was omitted is at most OmissionBound.
	GuaranteeOmissionBound = "omission-bound"
	// GuaranteeNotComplete: the search stopped before it could show that
	// every reachable state was visited.
	GuaranteeNotComplete = "not-complete"
	// GuaranteeOmissionEstimate: a randomized search (rbfs) stopped when
	// its observer estimated the probability that some reachable state was
	// never visited at OmissionEstimate or less. It is an estimate from
	// sampled states (Tronci et al.), not a bound.
	GuaranteeOmissionEstimate = "omission-estimate"
)

// Options selects the engine and its limits. The zero value means the
// defaults: bfs, exact symmetry, stuttering deadlock detection, one error, no
// bound, no memory limit, full traces.
type Options struct {
	Algorithm     string  `json:"algorithm,omitempty"`      // an engine name (see EngineInfo); "" = bfs
	Symmetry      string  `json:"symmetry,omitempty"`       // "exact" (default), "heuristic", "off"
	Deadlock      string  `json:"deadlock,omitempty"`       // "stuttering" (default), "stuck", "off"
	Bound         int     `json:"bound,omitempty"`          // do not expand states at this BFS depth; 0 = no bound
	MaxErrors     int     `json:"max_errors,omitempty"`     // stop after this many violations; 0 = 1
	MemoryBytes   int64   `json:"memory_bytes,omitempty"`   // engine memory budget; 0 = unlimited
	QueueFraction float64 `json:"queue_fraction,omitempty"` // share of the budget for the queue's memory part; 0 = default
	Trace         string  `json:"trace,omitempty"`          // "full" (default), "diff", "none"
	// HashCompaction stores k-bit state signatures instead of states in the
	// visited set (16..64; 0 = off).
	HashCompaction int `json:"hash_compaction,omitempty"`
	// Locality measures transition locality during an exact BFS.
	Locality bool `json:"locality,omitempty"`
	// Params sets engine parameters by name (see EngineInfo.Params);
	// a parameter not given takes its default.
	Params map[string]float64 `json:"params,omitempty"`
	// ProgressEvery is the progress sampling interval in ms (default 100).
	ProgressEvery int64 `json:"progress_every_ms,omitempty"`
	// Seed seeds the random choices of randomized engines (see
	// EngineInfo.Randomized): the same seed gives the same run.
	Seed int64 `json:"seed,omitempty"`
	// Checkpoint makes a checkpointing engine (EngineInfo.Checkpoints)
	// keep its files durable in its storage at each table check, with a
	// manifest from which the run can be resumed.
	Checkpoint bool `json:"checkpoint,omitempty"`
	// Workers spreads the search over this many workers (engines with
	// Parallel set); 0 or 1 = one. The results are the same for any number.
	Workers int `json:"workers,omitempty"`
}

// Option values with a fixed set of choices; the first of each is the default.
var (
	Symmetries = []string{"exact", "heuristic", "off"}
	Deadlocks  = []string{"stuttering", "stuck", "off"}
	Traces     = []string{"full", "diff", "none"}
)

// Hash compaction signature widths.
const (
	MinHashCompaction = 16
	MaxHashCompaction = 64
)

// EngineInfo describes one engine: what the CLI's help, the Worker and the
// UI show and validate. The engines register it in core/explore.
type EngineInfo struct {
	Name  string `json:"name"`  // what --algo takes
	Title string `json:"title"` // one line for menus and help
	Help  string `json:"help"`  // a few sentences for a user choosing it
	// Exact: a pass means every reachable state was visited and compared in
	// full (unless hash compaction is on).
	Exact bool `json:"exact"`
	// Levels: the engine explores in BFS levels (depth, per-level charts).
	Levels bool `json:"levels"`
	// ShortestTraces: counterexamples are shortest paths.
	ShortestTraces bool `json:"shortest_traces"`
	// UsesStorage: the engine puts data on disk (browser storage) when it
	// is available and benefits from it.
	UsesStorage bool `json:"uses_storage"`
	// HashCompaction: the engine accepts Options.HashCompaction.
	HashCompaction bool `json:"hash_compaction"`
	// Locality: the engine can measure transition locality.
	Locality bool `json:"locality"`
	// Randomized: the engine makes random choices, seeded by Options.Seed.
	Randomized bool `json:"randomized,omitempty"`
	// ProgressMeasure: the engine needs the model's progress measure (a
	// "--@progress EXPR" line in the model).
	ProgressMeasure bool `json:"progress_measure,omitempty"`
	// Checkpoints: the engine can make its files durable as it goes and
	// resume from them (Options.Checkpoint).
	Checkpoints bool `json:"checkpoints,omitempty"`
	// Parallel: the engine can spread its search over several workers
	// (Options.Workers), with the same result as one.
	Parallel bool        `json:"parallel"`
	Params   []ParamInfo `json:"params,omitempty"`
}

// ParamInfo describes one numeric engine parameter.
type ParamInfo struct {
	Name    string  `json:"name"`
	Title   string  `json:"title"`
	Default float64 `json:"default"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	Integer bool    `json:"integer,omitempty"`
	// Choices names the values of a parameter that picks one of several
	// things: value i means Choices[i] (Min is 0, Max len(Choices)-1).
	Choices []string `json:"choices,omitempty"`
}

// Progress is one sample of a running exploration.
type Progress struct {
	Seconds       float64 `json:"seconds"`
	Phase         string  `json:"phase,omitempty"` // the engine's current mode, for engines that change it ("exact", "compact", "cache")
	States        int64   `json:"states"`          // distinct states known so far (an estimate for forgetting engines)
	StatesVisited int64   `json:"states_visited"`  // insertions into the visited set, revisits included
	RulesFired    int64   `json:"rules_fired"`
	Level         int     `json:"level"`        // BFS level being expanded
	QueueMemory   int64   `json:"queue_memory"` // states queued in memory
	QueueDisk     int64   `json:"queue_disk"`   // states queued on disk
	MemoryBytes   int64   `json:"memory_bytes"` // engine-accounted bytes in use
	MemoryBudget  int64   `json:"memory_budget,omitempty"`
	BytesWritten  int64   `json:"bytes_written"` // disk bytes written so far
	BytesRead     int64   `json:"bytes_read"`    // disk bytes read so far
	// DiskBytes is what the run holds on disk now: the queues' segments,
	// the trail's and D.
	DiskBytes     int64   `json:"disk_bytes,omitempty"`
	StatesPerSec  float64 `json:"states_per_sec"`
	CollisionRate float64 `json:"collision_rate,omitempty"` // cache: evictions / insertions
	CacheFill     float64 `json:"cache_fill,omitempty"`     // cache: occupied share of its entries
	TrailBytes    int64   `json:"trail_bytes,omitempty"`    // counterexample trail, memory and disk

	// Randomized BFS (rbfs).
	Visits  int     `json:"visits,omitempty"`  // randomized BF visits begun
	PomIs   float64 `json:"pom_is,omitempty"`  // the observer's estimate: the largest one-step omission probability among the sampled states
	Samples int     `json:"samples,omitempty"` // states sampled by the observer

	// State caching (cache-bfs, cache-dfs, ...) and DFS with replacement.
	Reexpansions int64 `json:"reexpansions,omitempty"` // states expanded again after being forgotten (estimated)
	StackDepth   int64 `json:"stack_depth,omitempty"`  // states on the DFS stack (dfs-replace) or in the TD-tree (caching)
	Reinsertions int64 `json:"reinsertions,omitempty"` // insertions of states inserted before (dfs-replace; estimated)
	// Disk-based BFS (dbfs, ldbfs): the table M of recent states, the
	// signature file D of all visited states, and its disk cloud.
	Disk *DiskProgress `json:"disk,omitempty"`
}

// DiskProgress is a disk-based search's state in a progress sample.
type DiskProgress struct {
	MFill       float64 `json:"m_fill"`       // share of table M in use before the next check
	MCapacity   int64   `json:"m_capacity"`   // states M holds between checks
	DStates     int64   `json:"d_states"`     // entries in D (revisits included)
	DBytes      int64   `json:"d_bytes"`      // D's size (on disk and its tail in memory)
	DBlocks     int     `json:"d_blocks"`     // D's blocks on disk
	CloudBlocks int     `json:"cloud_blocks"` // blocks the last check read (the disk cloud; all of D for dbfs)
	CloudShare  float64 `json:"cloud_share"`  // the disk cloud size as a share of D's blocks
	Checks      int64   `json:"checks"`       // table checks so far
	Unchecked   int64   `json:"unchecked"`    // candidates waiting for the next check (Q_unck)
	// LastCheck is the last table check's sample (nil before the first), so
	// that a reader sampling the progress charts the disk cloud check by
	// check; the result's disk.cloud holds the whole (thinned) history.
	LastCheck *CloudSample `json:"last_check,omitempty"`
}

// DiskSearch reports a disk-based search (dbfs, ldbfs).
type DiskSearch struct {
	Checks       int64 `json:"checks"`       // table checks: one per BFS level, plus one each time M filled up
	Calibrations int64 `json:"calibrations"` // checks that read all of D to size the disk cloud
	// Revisited is the number of states expanded more than once: old
	// states the disk cloud did not filter out.
	Revisited int64 `json:"revisited"`
	// RulesRevisited is the rules those states fired again (not in the
	// run's rules_fired, which counts each state once).
	RulesRevisited int64 `json:"rules_revisited"`
	DStates        int64 `json:"d_states"` // entries of D, revisits included
	// Candidates is the successors checked against D: those M did not
	// hold when they were reached.
	Candidates int64 `json:"candidates"`
	DBytes     int64 `json:"d_bytes"`
	DBlocks    int   `json:"d_blocks"`
	// DBytesRead is what the checks read of D; the run's disk_bytes_read
	// also counts the queues, the trail and the final count of distinct
	// states.
	DBytesRead int64 `json:"d_bytes_read"`
	MCapacity  int64 `json:"m_capacity"`
	// Cloud follows the disk cloud: one sample per check.
	Cloud []CloudSample `json:"cloud,omitempty"`
}

// CloudSample is the disk cloud at one table check.
type CloudSample struct {
	Check     int64   `json:"check"`
	Seconds   float64 `json:"seconds"`
	DStates   int64   `json:"d_states"`
	Blocks    int     `json:"blocks"` // D's blocks on disk
	Read      int     `json:"read"`   // blocks read
	Share     float64 `json:"share"`  // the disk cloud's size as a share of D's blocks
	Calibrate bool    `json:"calibrate,omitempty"`
	// Beta is, at a calibration, the share of the old states found in D
	// that only blocks outside the disk cloud held.
	Beta float64 `json:"beta,omitempty"`
}

// Result is the outcome of one check.
type Result struct {
	Verdict    string      `json:"verdict"`
	Reason     string      `json:"reason,omitempty"`
	Violation  *Violation  `json:"violation,omitempty"`  // the first violation
	Violations []Violation `json:"violations,omitempty"` // all of them, when max-errors > 1
	// States is the number of distinct reachable states found; nil when the
	// engine cannot count them exactly.
	States        *int64 `json:"states"`
	StatesVisited int64  `json:"states_visited"` // insertions into the visited set, revisits included
	// StatesEstimate estimates the distinct states of an engine that
	// forgets states (when States is nil).
	StatesEstimate int64   `json:"states_estimate,omitempty"`
	RulesFired     int64   `json:"rules_fired"`
	Depth          int     `json:"depth"` // largest BFS level reached; start states are level 0
	Seconds        float64 `json:"seconds"`
	// Guarantee says what a pass means (see the Guarantee constants).
	Guarantee     string  `json:"guarantee,omitempty"`
	OmissionBound float64 `json:"omission_bound,omitempty"` // hash compaction: P(some state omitted) <= this
	// OmissionEstimate is rbfs's estimate of the probability that some
	// reachable state was never visited (Guarantee omission-estimate).
	OmissionEstimate *float64 `json:"omission_estimate,omitempty"`
	// Visits lists rbfs's randomized visits, one entry at the end of each.
	Visits []Visit `json:"visits,omitempty"`
	// Reexpansions, Reinsertions: see Progress.
	Reexpansions int64 `json:"reexpansions,omitempty"`
	Reinsertions int64 `json:"reinsertions,omitempty"`
	// MaxStack is the deepest DFS stack (dfs-replace), or the largest
	// TD-tree (the states state caching could not forget).
	MaxStack int64 `json:"max_stack,omitempty"`
	// CacheStates is how many states the engine's cache held at most.
	CacheStates   int64   `json:"cache_states,omitempty"`
	CollisionRate float64 `json:"collision_rate,omitempty"` // cache: evictions / insertions
	PeakBytes     int64   `json:"peak_bytes"`               // engine-accounted peak: visited set + queues + traces
	VisitedBytes  int64   `json:"visited_bytes,omitempty"`  // the visited set's memory at the end
	MemoryBudget  int64   `json:"memory_budget,omitempty"`  // the budget the run had; 0 = unlimited
	RSSBytes      int64   `json:"rss_bytes,omitempty"`      // process peak resident set (filled by the CLI)
	Algorithm     string  `json:"algorithm"`
	Workers       int     `json:"workers,omitempty"` // the workers the search ran on
	// CodeGen names the WebAssembly runtime that ran code generated for
	// the model ("" when the compiled closures ran the search).
	CodeGen string `json:"code_gen,omitempty"`
	// Phases lists the modes an adaptive engine went through, in order
	// (auto: "exact", then "compact", then "cache").
	Phases            []string     `json:"phases,omitempty"`
	Symmetry          string       `json:"symmetry"`
	Deadlock          string       `json:"deadlock"`
	Hash              int          `json:"hash_compaction,omitempty"`     // signature bits, 0 = off
	SymmetryOffReason string       `json:"symmetry_off_reason,omitempty"` // why reduction was turned off for this run
	Diagnostics       []Diagnostic `json:"diagnostics,omitempty"`         // errors and warnings from the front end and the engine

	StatesPerSec float64 `json:"states_per_sec"`
	RulesPerSec  float64 `json:"rules_per_sec"`
	// BytesPerState is the packed state vector's size; EngineBytesPerState
	// is what the engine really held per state (peak / states).
	BytesPerState       float64   `json:"bytes_per_state"`
	EngineBytesPerState float64   `json:"engine_bytes_per_state,omitempty"`
	StateBits           int       `json:"state_bits"`
	LevelSizes          []int64   `json:"level_sizes,omitempty"` // new states found at each BFS level
	Covers              []Cover   `json:"covers,omitempty"`
	DiskWritten         int64     `json:"disk_bytes_written,omitempty"`
	DiskRead            int64     `json:"disk_bytes_read,omitempty"`
	Locality            *Locality `json:"locality,omitempty"`
	// Disk reports a disk-based search (dbfs, ldbfs, auto once on disk).
	Disk *DiskSearch `json:"disk,omitempty"`
	// Checkpoint says where a checkpointed run's files are and whether
	// the run can be resumed from them.
	Checkpoint *CheckpointInfo `json:"checkpoint,omitempty"`
}

// CheckpointInfo describes a run's checkpoint.
type CheckpointInfo struct {
	Where     string `json:"where"`     // a directory, or the browser store's name
	Resumable bool   `json:"resumable"` // false once the run has finished
	Resumed   int    `json:"resumed"`   // how many times this run was resumed
	Checks    int64  `json:"checks"`    // checkpoints written
}

// Violation is one property failure or run-time model error.
type Violation struct {
	// Kind is one of: invariant, assertion, deadlock, error-statement,
	// liveness, cover, undefined-read, index-out-of-range,
	// range-error(assignment), range-error(parameter),
	// runtime-for-step-zero, division-by-zero, overflow, multiset-full,
	// loop-limit, recursion-limit, missing-return.
	Kind    string      `json:"kind"`
	Name    string      `json:"name,omitempty"` // the property's or error's name, if any
	Message string      `json:"message"`        // what a user reads
	Pos     string      `json:"pos,omitempty"`  // file:line:col of the failing construct
	Trace   []TraceStep `json:"trace,omitempty"`
}

// TraceStep is one state of a counterexample: the rule that led to it (the
// start state's name for the first step) and the state itself.
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

// Diagnostic is a front-end (or engine) message located in the model text.
type Diagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"` // "error" or "warning"
	Message  string `json:"message"`
}

// Locality is the transition locality of a state space (Penna, Intrigila,
// Melatti, Tronci, Venturini Zilli, "Exploiting transition locality in
// automatic verification of finite-state concurrent systems", §3): for a
// transition s -> s', k = level(s') - level(s).
type Locality struct {
	// States is the number of states averaged over: every reachable state
	// (one with no transition has δ(s, k) = 0 for every k).
	States int64 `json:"states"`
	// Transitions is the number of transitions: rules fired that lead to
	// another state.
	Transitions int64 `json:"transitions"`
	// SelfLoops is the number of rules fired that left the state unchanged
	// (not transitions here, as in the paper's measurements).
	SelfLoops int64 `json:"self_loops"`
	// Delta holds E{Δ(k)} and σ(k) for k = -1, 0, 1.
	Delta []LocalityK `json:"delta"`
	// SumAvg is E{Δ(-1)} + E{Δ(0)} + E{Δ(1)}: the expected share of
	// 1-local transitions.
	SumAvg float64 `json:"sum_avg"`
	// Histogram counts the transitions of each k, smallest k first.
	Histogram []LocalityCount `json:"histogram"`
}

// Visit describes rbfs's state at the end of one randomized
// breadth-first visit (Tronci et al., Figs. 5 and 6: one column).
type Visit struct {
	Visit         int     `json:"visit"`
	Levels        int     `json:"levels"`         // BFS levels expanded in this visit
	MaxLevels     int     `json:"max_levels"`     // the visit's length L, drawn in [D, 3D] for D the depth found so far
	Drained       bool    `json:"drained"`        // the queue ran dry before level L
	Visited       int64   `json:"visited"`        // insertions so far (states visited, revisits included)
	Fresh         int64   `json:"fresh"`          // distinct states visited so far (estimated)
	Dropped       int64   `json:"dropped"`        // successors left out so far because the queue was full
	PomIs         float64 `json:"pom_is"`         // the observer's estimate of the largest one-step omission probability
	Samples       int     `json:"samples"`        // states sampled so far
	CollisionRate float64 `json:"collision_rate"` // cache overwrites / insertions so far
	RulesFired    int64   `json:"rules_fired"`
}

// LocalityK is the mean and standard deviation over states of δ(s, k), the
// share of the transitions from s that are k-transitions.
type LocalityK struct {
	K      int     `json:"k"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"std_dev"`
}

// LocalityCount is the number of k-transitions.
type LocalityCount struct {
	K     int   `json:"k"`
	Count int64 `json:"count"`
}
