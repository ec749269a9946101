package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/murphi"
)

// Check parses, type-checks, compiles and explores the model in src.
// It never panics: an internal failure becomes verdict "error".
func Check(ctx context.Context, filename string, src []byte, opts Options) (res *Result) {
	started := time.Now()
	defer func() {
		if x := recover(); x != nil {
			res = &Result{Verdict: Error, Reason: fmt.Sprintf("internal error: %v\n%s", x, debug.Stack())}
		}
		if res.Seconds == 0 {
			res.Seconds = time.Since(started).Seconds()
		}
	}()
	eo, err := engineOptions(opts)
	eo.RunTag = runTag(src, opts)
	res = &Result{Algorithm: algoName(opts.Algorithm), Symmetry: orDefault(opts.Symmetry, "exact"), Deadlock: orDefault(opts.Deadlock, "stuttering"),
		Hash: opts.HashCompaction, MemoryBudget: opts.MemoryBytes}
	if err != nil {
		res.Verdict = Error
		res.Reason = err.Error()
		return res
	}
	stage := func(s string) bool {
		if err := ctx.Err(); err != nil {
			res.Verdict = Incomplete
			res.Reason = fmt.Sprintf("%s before %s", cancelled(ctx), s)
			return false
		}
		if opts.OnStage != nil {
			opts.OnStage(s)
		}
		return true
	}
	m, diags, ok := compileStages(filename, src, stage)
	res.Diagnostics = diags
	if !ok {
		return res
	}
	if m == nil {
		res.Verdict = Rejected
		return res
	}
	if !stage(StageSearch) {
		return res
	}
	res.StateBits = m.StateBits
	res.BytesPerState = float64(m.StateBytes)
	eo.FS = opts.FS
	eo.Progress = opts.Progress
	eo.Parts = opts.Parts
	eo.Generated = opts.Generated
	eo.GeneratedBeside = opts.GeneratedBeside
	r := explore.Run(ctx, m, eo)
	fill(res, m, r)
	if res.Verdict == Incomplete && ctx.Err() != nil {
		// Say who stopped the search ("interrupted by SIGTERM after ...").
		if rest, ok := strings.CutPrefix(res.Reason, "cancelled"); ok {
			res.Reason = cancelled(ctx) + rest
		}
	}
	return res
}

// ServePart runs part index of n of a parallel check of the model in src
// (with the options of the whole check) whose coordinator runs elsewhere
// and reaches this part through recv and send: see explore.ServePart.
func ServePart(ctx context.Context, filename string, src []byte, opts Options, index, n int, recv func() ([]byte, error), send func([]byte) error) error {
	eo, err := engineOptions(opts)
	if err != nil {
		return err
	}
	m, diags := Compile(filename, src)
	if m == nil {
		return fmt.Errorf("the model does not compile: %v", diags)
	}
	eo.FS = opts.FS
	return explore.ServePart(ctx, m, eo, index, n, recv, send)
}

// cancelled says why ctx ended, for a Reason.
func cancelled(ctx context.Context) string {
	if cause := context.Cause(ctx); cause != nil && cause != context.Canceled {
		return cause.Error()
	}
	return "cancelled"
}

// Compile runs the front end and the compiler. It returns nil and the
// diagnostics if the model is rejected.
func Compile(filename string, src []byte) (*compile.Model, []Diagnostic) {
	m, diags, _ := compileStages(filename, src, func(string) bool { return true })
	return m, diags
}

// compileStages parses, checks and compiles, calling stage as each stage
// starts; when stage returns false it stops and returns ok = false.
func compileStages(filename string, src []byte, stage func(string) bool) (m *compile.Model, diags []Diagnostic, ok bool) {
	if !stage(StageParse) {
		return nil, nil, false
	}
	ast, errs := murphi.ParseFile(filename, src)
	if errs.HasErrors() {
		return nil, diagnostics(errs), true
	}
	if !stage(StageCheck) {
		return nil, diagnostics(errs), false
	}
	ck, errs := murphi.Check(ast)
	diags = diagnostics(errs)
	if errs.HasErrors() {
		return nil, diags, true
	}
	if !stage(StageCompile) {
		return nil, diags, false
	}
	m, err := compile.Compile(ck)
	if err != nil {
		ce, _ := err.(*compile.CompileError)
		d := Diagnostic{File: filename, Severity: "error", Message: err.Error()}
		if ce != nil {
			d.Line, d.Col, d.Message = ce.Pos.Line, ce.Pos.Col, ce.Msg
		}
		return nil, append(diags, d), true
	}
	return m, diags, true
}

// Diagnose runs only the front end and returns its diagnostics, for editors.
func Diagnose(filename string, src []byte) []Diagnostic {
	ast, errs := murphi.ParseFile(filename, src)
	if errs.HasErrors() {
		return diagnostics(errs)
	}
	_, errs = murphi.Check(ast)
	return diagnostics(errs)
}

func diagnostics(errs murphi.ErrorList) []Diagnostic {
	var out []Diagnostic
	for _, e := range errs {
		msg := e.Msg
		for _, n := range e.Notes {
			msg += fmt.Sprintf(" (%s: %s)", n.Pos, n.Msg)
		}
		out = append(out, Diagnostic{File: e.Pos.File, Line: e.Pos.Line, Col: e.Pos.Col, Severity: e.Severity.String(), Message: msg})
	}
	return out
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func algoName(a string) string { return orDefault(a, explore.DefaultAlgorithm) }

// Engines describes the engines a run may use (see job.EngineInfo).
func Engines() []job.EngineInfo { return explore.Engines() }

// Engine describes the engine called name ("" = the default), if there is one.
func Engine(name string) (job.EngineInfo, bool) { return explore.Engine(name) }

func engineOptions(o Options) (explore.Options, error) {
	eo := explore.Options{
		Algorithm:        algoName(o.Algorithm),
		Bound:            o.Bound,
		MaxErrors:        o.MaxErrors,
		MemoryBytes:      o.MemoryBytes,
		QueueFraction:    o.QueueFraction,
		HashBits:         o.HashCompaction,
		Locality:         o.Locality,
		Params:           o.Params,
		FS:               o.FS,
		Seed:             o.Seed,
		Checkpoint:       o.Checkpoint || o.Resume,
		Resume:           o.Resume,
		Workers:          o.Workers,
		CheckpointIfAble: o.CheckpointIfAble,
	}
	switch orDefault(o.Symmetry, "exact") {
	case "exact":
		eo.Symmetry = explore.SymmetryExact
	case "heuristic":
		eo.Symmetry = explore.SymmetryHeuristic
	case "off":
		eo.Symmetry = explore.SymmetryOff
	default:
		return eo, fmt.Errorf("unknown symmetry mode %q (exact, heuristic or off)", o.Symmetry)
	}
	switch orDefault(o.Deadlock, "stuttering") {
	case "stuttering":
		eo.Deadlock = explore.DeadlockStuttering
	case "stuck":
		eo.Deadlock = explore.DeadlockStuck
	case "off":
		eo.Deadlock = explore.DeadlockOff
	default:
		return eo, fmt.Errorf("unknown deadlock mode %q (stuttering, stuck or off)", o.Deadlock)
	}
	switch orDefault(o.Trace, "full") {
	case "full", "diff":
		eo.Trace = explore.TraceFull
	case "none":
		eo.Trace = explore.TraceNone
	default:
		return eo, fmt.Errorf("unknown trace mode %q (full, diff or none)", o.Trace)
	}
	if o.Bound < 0 {
		return eo, fmt.Errorf("bound must not be negative")
	}
	if o.MaxErrors < 0 {
		return eo, fmt.Errorf("max-errors must not be negative")
	}
	if o.MemoryBytes < 0 {
		return eo, fmt.Errorf("memory budget must not be negative")
	}
	if o.QueueFraction < 0 || o.QueueFraction >= 1 {
		return eo, fmt.Errorf("queue fraction must be in [0, 1)")
	}
	if o.ProgressEvery > 0 {
		eo.ProgressEvery = time.Duration(o.ProgressEvery) * time.Millisecond
	}
	return eo, explore.Check(eo)
}

func fill(res *Result, m *compile.Model, r *explore.Result) {
	res.Verdict = r.Verdict.String()
	res.Reason = r.Reason
	res.RulesFired = r.RulesFired
	res.StatesVisited = r.StatesVisited
	res.Depth = r.Depth
	res.Seconds = r.Elapsed.Seconds()
	res.PeakBytes = r.PeakBytes
	res.VisitedBytes = r.VisitedBytes
	res.MemoryBudget = r.MemoryBudget
	res.LevelSizes = r.LevelSizes
	res.DiskWritten = r.DiskWritten
	res.DiskRead = r.DiskRead
	res.Guarantee = r.Guarantee
	res.OmissionBound = r.OmissionBound
	res.CollisionRate = r.CollisionRate
	res.Phases = r.Phases
	res.Locality = r.Locality
	res.StatesEstimate = r.StatesEstimate
	res.OmissionEstimate = r.OmissionEstimate
	res.Visits = r.Visits
	res.Reexpansions = r.Reexpansions
	res.Reinsertions = r.Reinsertions
	res.MaxStack = r.MaxStack
	res.CacheStates = r.CacheStates
	res.Disk = r.Disk
	res.Checkpoint = r.Checkpoint
	res.Workers = r.Workers
	res.CodeGen = r.CodeGen
	if r.Verdict != explore.Error && r.StatesExact {
		n := r.States
		res.States = &n
		if n > 0 {
			res.EngineBytesPerState = float64(r.PeakBytes) / float64(n)
		}
	}
	if s := res.Seconds; s > 0 {
		res.StatesPerSec = float64(r.StatesVisited) / s
		res.RulesPerSec = float64(r.RulesFired) / s
	}
	for _, c := range r.Covers {
		res.Covers = append(res.Covers, Cover{Name: c.Name, Count: c.Count})
	}
	for _, v := range r.Violations {
		res.Violations = append(res.Violations, violationOf(m, v))
	}
	if r.SymmetryOffReason != "" {
		res.Symmetry = "off"
		res.SymmetryOffReason = r.SymmetryOffReason
		res.Diagnostics = append(res.Diagnostics, Diagnostic{File: m.File.Name, Severity: "warning",
			Message: "symmetry reduction was turned off: " + r.SymmetryOffReason})
	}
	for _, n := range r.Notes {
		res.Diagnostics = append(res.Diagnostics, Diagnostic{File: m.File.Name, Severity: "warning", Message: n})
	}
	if len(res.Violations) > 0 {
		res.Violation = &res.Violations[0]
		if len(res.Violations) == 1 {
			res.Violations = nil
		}
	}
}

func violationOf(m *compile.Model, v *explore.Violation) Violation {
	out := Violation{Kind: v.Kind, Name: v.Name, Message: v.Msg}
	if v.Pos.IsValid() {
		out.Pos = m.Position(v.Pos).String()
	}
	var prev []int64
	where := rulePositions(m)
	for _, st := range v.Trace {
		step := TraceStep{Rule: st.Rule, Pos: where(st.Rule)}
		for i := range m.Leaves {
			step.State = append(step.State, VarValue{Name: m.Leaves[i].Name, Value: m.FormatLeaf(i, st.State[i])})
			if prev != nil && prev[i] != st.State[i] {
				step.Changed = append(step.Changed, i)
			}
		}
		out.Trace = append(out.Trace, step)
		prev = st.State
	}
	return out
}

// rulePositions returns a function that finds the source position of a
// trace step's rule (a rule instance, "startstate NAME", or a rule that
// raised an error, "NAME (fails)"). Instances of one rule share a name
// prefix but not always a position, so the first instance of the name wins.
func rulePositions(m *compile.Model) func(string) string {
	var byName map[string]string
	return func(rule string) string {
		if byName == nil {
			byName = make(map[string]string, len(m.Rules)+len(m.Starts))
			for _, r := range m.Rules {
				if _, ok := byName[r.Name]; !ok {
					byName[r.Name] = m.Position(r.Pos).String()
				}
			}
			for _, s := range m.Starts {
				if _, ok := byName["startstate "+s.Name]; !ok {
					byName["startstate "+s.Name] = m.Position(s.Pos).String()
				}
			}
		}
		if p, ok := byName[rule]; ok {
			return p
		}
		return byName[strings.TrimSuffix(rule, " (fails)")]
	}
}

// ValidateOptions reports the first invalid option value, for front ends
// that want to reject a bad command line before reading a model.
func ValidateOptions(o Options) error {
	_, err := engineOptions(o)
	return err
}

// runTag identifies a checkpointed run: its model and the options that
// decide what it computes (not the memory budget or how progress is shown,
// which a resumed run may change).
func runTag(src []byte, o Options) string {
	k := o.Options
	// Nor the workers: the result is the same on any number (a resumed
	// run goes on on one).
	k.MemoryBytes, k.QueueFraction, k.ProgressEvery, k.Checkpoint, k.Workers = 0, 0, 0, false, 0
	opts, _ := json.Marshal(k)
	h := sha256.New()
	h.Write(src)
	h.Write([]byte{0})
	h.Write(opts)
	return hex.EncodeToString(h.Sum(nil))
}
