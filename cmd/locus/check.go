package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/verify"
)

const (
	exitPass       = 0
	exitFail       = 1
	exitRejected   = 2
	exitError      = 3
	exitIncomplete = 4
)

func exitCode(verdict string) int {
	switch verdict {
	case verify.Pass:
		return exitPass
	case verify.Fail:
		return exitFail
	case verify.Rejected:
		return exitRejected
	case verify.Incomplete:
		return exitIncomplete
	}
	return exitError
}

// codegenFlag is --codegen[=KIND]: bare, it is "auto".
type codegenFlag struct{ v *string }

func (f codegenFlag) String() string {
	if f.v == nil {
		return ""
	}
	return *f.v
}

func (f codegenFlag) Set(s string) error {
	switch s {
	case "true":
		s = "auto"
	case "false":
		s = "off"
	}
	*f.v = s
	return nil
}

func (f codegenFlag) IsBoolFlag() bool { return true }

type sizeFlag struct{ v *int64 }

func (f sizeFlag) String() string {
	if f.v == nil || *f.v == 0 {
		return ""
	}
	return fmt.Sprint(*f.v)
}

func (f sizeFlag) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*f.v = n
	return nil
}

// paramFlag collects --param NAME=VALUE. A value that is not a number is
// one of the parameter's named choices, resolved once the engine is known.
type paramFlag struct {
	m     *map[string]float64
	names *map[string]string
}

func (f paramFlag) String() string { return "" }

func (f paramFlag) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want NAME=VALUE")
	}
	if *f.m == nil {
		*f.m = map[string]float64{}
	}
	v, err := strconv.ParseFloat(val, 64)
	if err != nil {
		if *f.names == nil {
			*f.names = map[string]string{}
		}
		(*f.names)[name] = val
		delete(*f.m, name)
		return nil
	}
	delete(*f.names, name)
	(*f.m)[name] = v
	return nil
}

// resolveChoices turns named parameter values into numbers using the
// engine's parameter descriptions.
func resolveChoices(algo string, names map[string]string, params map[string]float64) error {
	for name, val := range names {
		var p *job.ParamInfo
		for _, e := range verify.Engines() {
			if e.Name != algo {
				continue
			}
			for i := range e.Params {
				if e.Params[i].Name == name {
					p = &e.Params[i]
				}
			}
		}
		if p == nil || len(p.Choices) == 0 {
			return fmt.Errorf("--param %s=%s: not a number", name, val)
		}
		found := false
		for i, c := range p.Choices {
			if c == val {
				params[name] = float64(i)
				found = true
			}
		}
		if !found {
			return fmt.Errorf("--param %s=%s: choose one of %s", name, val, strings.Join(p.Choices, ", "))
		}
	}
	return nil
}

func engineNames() string {
	var names []string
	for _, e := range verify.Engines() {
		names = append(names, e.Name)
	}
	return strings.Join(names, ", ")
}

// heapMargin is the Go heap allowed beyond the engine's budget: the
// compiled model, buffers and garbage not yet collected, and the runtime's
// own memory. Too small a margin is worse than a slow run: the engine fills
// its budget with tables that live to the end, so the collector ran after
// every few kilobytes allocated (ldbfs on mcslock2 under 8.9 MB with a
// 4 MiB margin: 5,882 collections and 12.8 s; with 16 MiB: 10 and 6.6 s).
func heapMargin(budget int64) int64 { return max(budget/8, 16<<20) }

// checkFlags is the parsed command line of locus check.
type checkFlags struct {
	opts       verify.Options
	file       string
	trace      string // as given: full, diff or none
	jsonOut    bool
	progress   bool
	cpuprofile string
	memprofile string
	diskDir    string
	checkpoint string
}

// parseCheckFlags parses the arguments of locus check. If the command line
// is bad, or asks for help, ok is false and code is the exit status.
func parseCheckFlags(args []string, stderr io.Writer) (cf checkFlags, code int, ok bool) {
	fs := flag.NewFlagSet("locus check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opts := &cf.opts
	var (
		ndl     bool
		codegen string
		format  string
		choices map[string]string
	)
	fs.StringVar(&opts.Algorithm, "algo", verify.Engines()[0].Name, "search algorithm: "+engineNames()+" ('locus engines' describes them)")
	fs.IntVar(&opts.HashCompaction, "hash-compaction", 0, "store k-bit state signatures instead of states (16-64; 0 = off); the result bounds the chance that a state was missed")
	fs.IntVar(&opts.Workers, "workers", 0, "search with N workers in parallel (engines that can: 'locus engines' says which); the result is the same for any N (default: the number of cores, 1 for other engines)")
	fs.Var(codegenFlag{&codegen}, "codegen", "where bfs (and auto's exact and compact phases) runs, on --workers parts of the states where the model allows: "+
		"go translates the model's generated code to Go and builds it with the go command (kept in the user's cache; a first build takes seconds), "+
		"wazero compiles it in process, beside (the default where the go command is) starts the compiled closures at once and builds the program beside them, "+
		"moving the search there if it is ready first (on more than 4 workers and no -m, both run and the first to finish decides); off runs the closures alone (also LOCUS_CODEGEN=off); a bare --codegen is go where the go command is, else wazero. "+
		"Where the generator does not cover the model or the options, the closures run it")
	fs.BoolVar(&opts.Locality, "locality", false, "measure transition locality (bfs): E{Δ(k)}, σ(k) for k = -1, 0, 1 and the histogram of k")
	fs.Var(paramFlag{&opts.Params, &choices}, "param", "an engine parameter, NAME=VALUE (repeatable; 'locus engines' lists them)")
	fs.Int64Var(&opts.Seed, "seed", 0, "seed for the random choices of randomized engines (rbfs, the caching engines' random replacement): the same seed repeats a run")
	fs.StringVar(&opts.Symmetry, "symmetry", "exact", "scalarset symmetry reduction: exact, heuristic or off")
	fs.StringVar(&opts.Deadlock, "deadlock", "stuttering", "deadlock detection: stuttering, stuck or off")
	fs.BoolVar(&ndl, "ndl", false, "no deadlock detection (same as --deadlock off)")
	fs.IntVar(&opts.Bound, "bound", 0, "do not expand states at this BFS depth (0: no bound)")
	fs.IntVar(&opts.MaxErrors, "max-errors", 1, "stop after this many violations")
	fs.Var(sizeFlag{&opts.MemoryBytes}, "m", "memory budget for the engine, e.g. 512M or 2G (a bare number means MiB)")
	fs.Var(sizeFlag{&opts.MemoryBytes}, "memory", "same as -m")
	fs.Float64Var(&opts.QueueFraction, "queue-fraction", 0, "share of the memory budget for the BFS queue's in-memory part (default 0.1)")
	fs.StringVar(&opts.Trace, "trace", "diff", "counterexample output: full (every variable at each step), diff (changes only) or none")
	fs.StringVar(&format, "trace-format", "locus", "counterexample text layout: locus, or cmurphi (CMurphi's error trace, as the browser app exports it)")
	fs.BoolVar(&cf.jsonOut, "json", false, "print the result as one JSON object")
	fs.BoolVar(&cf.progress, "progress", false, "print progress to stderr")
	fs.StringVar(&cf.cpuprofile, "cpuprofile", "", "write a CPU profile to this file")
	fs.StringVar(&cf.memprofile, "memprofile", "", "write a profile of the run's allocations to this file")
	fs.StringVar(&cf.diskDir, "disk-dir", "", "directory for queue files when the queue's memory share is full (default: a temporary directory)")
	fs.StringVar(&cf.checkpoint, "checkpoint", "", "keep the run's files in this directory, durable at each table check, so that 'locus resume DIR' can continue it after a crash or a kill (engines: "+checkpointEngines()+")")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: locus check [flags] MODEL.m\n\nFlags:\n")
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\nExit status: 0 pass, 1 fail, 2 rejected or bad command line, 3 error, 4 incomplete.\n")
	}
	// Go's flag package stops at the first non-flag; let flags follow the file too.
	var files []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return cf, exitPass, false
			}
			return cf, exitRejected, false
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(files) != 1 {
		fmt.Fprintf(stderr, "locus check: expected exactly one model file, got %d\n", len(files))
		fs.Usage()
		return cf, exitRejected, false
	}
	cf.file = files[0]
	if ndl {
		opts.Deadlock = "off"
	}
	if codegen == "" {
		codegen = os.Getenv("LOCUS_CODEGEN")
	}
	switch codegen {
	case "", "beside":
		if rt := besideRuntime(); rt != nil {
			opts.GeneratedBeside = rt
		}
	case "off":
	default:
		rt, err := codegenRuntime(codegen)
		if err != nil {
			fmt.Fprintf(stderr, "locus check: %v\n", err)
			return cf, exitRejected, false
		}
		opts.Generated = rt
	}
	if opts.Workers == 0 {
		opts.Workers = defaultWorkers(opts.Algorithm)
	}
	cf.trace = opts.Trace
	if cf.trace == "diff" {
		opts.Trace = "full" // the engine keeps full states; printing shows the changes
	}
	if format != "locus" && format != "cmurphi" {
		fmt.Fprintf(stderr, "locus check: unknown trace format %q (locus or cmurphi)\n", format)
		return cf, exitRejected, false
	}
	if format == "cmurphi" {
		cf.trace = "cmurphi-" + cf.trace
	}
	if pm := physicalMemory(); pm > 0 && opts.MemoryBytes > pm {
		// Engines size fixed tables from the budget: one larger than the
		// machine would fail to allocate instead of searching.
		fmt.Fprintf(stderr, "locus check: -m %s is more than this machine's memory (%s); a bare number means MiB\n",
			budget.FormatBytes(opts.MemoryBytes), budget.FormatBytes(pm))
		return cf, exitRejected, false
	}
	if opts.Bound < 0 {
		fmt.Fprintf(stderr, "locus check: -bound must not be negative\n")
		return cf, exitRejected, false
	}
	if err := resolveChoices(opts.Algorithm, choices, opts.Params); err != nil {
		fmt.Fprintf(stderr, "locus check: %v\n", err)
		return cf, exitRejected, false
	}
	if err := verify.ValidateOptions(*opts); err != nil {
		fmt.Fprintf(stderr, "locus check: %v\n", err)
		return cf, exitRejected, false
	}
	return cf, 0, true
}

// stopGrace is how long an interrupted search may take to stop by itself
// (it then reports its counts); the front end's stages are not waited for.
const stopGrace = 5 * time.Second

func runCheck(args []string, stdout, stderr io.Writer) int {
	cf, code, ok := parseCheckFlags(args, stderr)
	if !ok {
		return code
	}
	if testCrash != nil {
		testCrash()
	}
	src, err := readModel(cf.file)
	if err != nil {
		return report(stdout, stderr, cf, &verify.Result{Verdict: verify.Error, Reason: err.Error()}, nil)
	}
	if cf.checkpoint != "" {
		fs, done, err := newCheckpointDir(cf, src)
		if err != nil {
			fmt.Fprintf(stderr, "locus check: --checkpoint: %v\n", err)
			return exitError
		}
		cf.opts.FS = fs
		cf.opts.Checkpoint = true
		return execute(cf, src, stdout, stderr, done)
	}
	sweepSpills(cf.diskDir)
	spill := newSpillFS(cf.diskDir)
	defer spill.Remove()
	cf.opts.FS = spill
	return execute(cf, src, stdout, stderr, nil)
}

// execute runs the check cf describes on model src with its storage set,
// and reports it; done, if set, is told the result first.
func execute(cf checkFlags, src []byte, stdout, stderr io.Writer, done func(*verify.Result)) int {
	opts := cf.opts
	if cf.progress {
		opts.Progress = func(p verify.Progress) {
			fmt.Fprintf(stderr, "  %7.1fs  %12d states  %13d rules  level %4d  queue %d+%d  mem %s%s\n",
				p.Seconds, p.States, p.RulesFired, p.Level, p.QueueMemory, p.QueueDisk, budget.FormatBytes(p.MemoryBytes), engineFigures(p))
			if d := p.Disk; d != nil {
				fmt.Fprintf(stderr, "           M %3.0f%% of %d  D %d entries, %d blocks  cloud %d blocks  %d checks  %d unchecked  disk %s written, %s read\n",
					100*d.MFill, d.MCapacity, d.DStates, d.DBlocks, d.CloudBlocks, d.Checks, d.Unchecked,
					budget.FormatBytes(p.BytesWritten), budget.FormatBytes(p.BytesRead))
			}
		}
		opts.ProgressEvery = 1000
		opts.OnStage = func(stage string) { fmt.Fprintf(stderr, "  %s\n", stage) }
	}
	if cf.cpuprofile != "" {
		f, err := os.Create(cf.cpuprofile)
		if err != nil {
			fmt.Fprintf(stderr, "locus check: %v\n", err)
			return exitError
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "locus check: %v\n", err)
			return exitError
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	if opts.MemoryBytes > 0 {
		// The budget bounds the engine's tables; the Go heap limit makes
		// the collector hold everything else near it too, so that -m
		// bounds the process (as the Worker does in the browser).
		debug.SetMemoryLimit(opts.MemoryBytes + heapMargin(opts.MemoryBytes))
	}
	if cf.memprofile != "" {
		runtime.MemProfileRate = 64 << 10
	}
	res := checkInterruptibly(cf, opts, src)
	res.RSSBytes = peakRSS()
	if cf.memprofile != "" {
		if err := writeMemProfile(cf.memprofile); err != nil {
			fmt.Fprintf(stderr, "locus check: %v\n", err)
			return exitError
		}
	}
	if done != nil {
		done(res)
	}
	return report(stdout, stderr, cf, res, src)
}

// defaultWorkers is the number of workers when --workers is not given: the
// number of cores for an engine that can use them, else one.
func defaultWorkers(algo string) int {
	if e, ok := verify.Engine(algo); ok && e.Parallel {
		return runtime.NumCPU()
	}
	return 1
}

// checkInterruptibly runs the check until it ends or a SIGINT or SIGTERM
// stops it: a search then ends as incomplete with its counts (if it stops
// within stopGrace), and a front-end stage at once.
func checkInterruptibly(cf checkFlags, opts verify.Options, src []byte) *verify.Result {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var stage atomic.Value
	stage.Store("starting")
	show := opts.OnStage
	opts.OnStage = func(s string) {
		stage.Store(s)
		if show != nil {
			show(s)
		}
	}
	done := make(chan *verify.Result, 1)
	go func() { done <- verify.Check(ctx, cf.file, src, opts) }()
	var sig os.Signal
	select {
	case res := <-done:
		return res
	case sig = <-sigs:
	}
	why := "interrupted by " + signalName(sig)
	cancel(errors.New(why))
	at := stage.Load().(string)
	if at == verify.StageSearch {
		select {
		case res := <-done:
			return res
		case <-sigs:
		case <-time.After(stopGrace):
		}
	}
	return &verify.Result{
		Verdict:   verify.Incomplete,
		Reason:    why + " while " + at,
		Algorithm: opts.Algorithm,
		Symmetry:  opts.Symmetry,
		Deadlock:  opts.Deadlock,
	}
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// readModel reads a model file, or its first murphi.MaxSourceBytes+1 bytes
// if it is larger: enough for the front end to refuse it without holding it.
func readModel(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, murphi.MaxSourceBytes+1))
}

func report(stdout, stderr io.Writer, cf checkFlags, res *verify.Result, src []byte) int {
	if cf.jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if strings.HasSuffix(cf.trace, "none") {
			stripTraces(res)
		}
		enc.Encode(res)
		return exitCode(res.Verdict)
	}
	printHuman(stdout, stderr, res, cf.file, cf.trace, src)
	return exitCode(res.Verdict)
}

func stripTraces(res *verify.Result) {
	if res.Violation != nil {
		res.Violation.Trace = nil
	}
	for i := range res.Violations {
		res.Violations[i].Trace = nil
	}
}

func printHuman(w, ew io.Writer, res *verify.Result, file, trace string, src []byte) {
	lines := strings.Split(string(src), "\n")
	for _, d := range res.Diagnostics {
		sev := ""
		if d.Severity == "warning" {
			sev = "warning: "
		}
		if d.Line == 0 {
			// An engine note: about the run, not a place in the model.
			fmt.Fprintf(ew, "%s: note: %s\n", d.File, d.Message)
			continue
		}
		fmt.Fprintf(ew, "%s:%d:%d: %s%s\n", d.File, d.Line, d.Col, sev, d.Message)
		if d.Line >= 1 && d.Line <= len(lines) {
			line, pad := excerpt(strings.TrimRight(lines[d.Line-1], "\r"), d.Col)
			fmt.Fprintf(ew, "    %s\n    %s^\n", line, pad)
		}
	}
	switch res.Verdict {
	case verify.Rejected:
		fmt.Fprintf(w, "%s: rejected (%d error(s))\n", file, countErrors(res.Diagnostics))
		return
	case verify.Error:
		fmt.Fprintf(w, "%s: error: %s\n", file, res.Reason)
		return
	}
	vs := res.Violations
	if len(vs) == 0 && res.Violation != nil {
		vs = []verify.Violation{*res.Violation}
	}
	for i, v := range vs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		printViolation(w, v, trace)
	}
	if len(vs) > 0 {
		fmt.Fprintln(w)
	}
	verdict := strings.ToUpper(res.Verdict)
	if res.Reason != "" {
		verdict += " (" + res.Reason + ")"
	}
	fmt.Fprintf(w, "Result:       %s\n", verdict)
	if g := guaranteeText(res); g != "" {
		fmt.Fprintf(w, "Guarantee:    %s\n", g)
	}
	if res.States != nil {
		fmt.Fprintf(w, "States:       %s\n", commas(*res.States))
	} else if res.StatesEstimate > 0 {
		fmt.Fprintf(w, "States:       about %s distinct (estimated)\n", commas(res.StatesEstimate))
	}
	if res.Disk == nil && res.StatesVisited > 0 && (res.States == nil || res.StatesVisited != *res.States) {
		fmt.Fprintf(w, "Visited:      %s insertions (revisits of forgotten states included), collision rate %.3f\n", commas(res.StatesVisited), res.CollisionRate)
	}
	if res.CacheStates > 0 {
		fmt.Fprintf(w, "Cache:        %s states", commas(res.CacheStates))
		if res.MaxStack > 0 {
			fmt.Fprintf(w, "; at most %s could not be forgotten (stack or TD-tree)", commas(res.MaxStack))
		}
		if res.Reexpansions > 0 {
			fmt.Fprintf(w, "; about %s re-expansions", commas(res.Reexpansions))
		}
		if res.Reinsertions > 0 {
			fmt.Fprintf(w, "; about %s re-insertions", commas(res.Reinsertions))
		}
		fmt.Fprintln(w)
	}
	if len(res.Visits) > 0 {
		printVisits(w, res.Visits)
	}
	fmt.Fprintf(w, "Rules fired:  %s\n", commas(res.RulesFired))
	fmt.Fprintf(w, "Depth:        %d\n", res.Depth)
	fmt.Fprintf(w, "Time:         %.3f s  (%s states/s, %s rules/s)\n",
		res.Seconds, commas(int64(res.StatesPerSec)), commas(int64(res.RulesPerSec)))
	unit := "bytes"
	if res.BytesPerState == 1 {
		unit = "byte"
	}
	budgetText := "no budget"
	if res.MemoryBudget > 0 {
		budgetText = "budget " + budget.FormatBytes(res.MemoryBudget)
	}
	fmt.Fprintf(w, "Memory:       %s engine peak (%s), %s process peak\n",
		budget.FormatBytes(res.PeakBytes), budgetText, budget.FormatBytes(res.RSSBytes))
	perState := ""
	if res.EngineBytesPerState > 0 {
		perState = fmt.Sprintf("; the engine held %.1f bytes per state", res.EngineBytesPerState)
	}
	fmt.Fprintf(w, "State size:   %d bits (%g %s) packed%s\n", res.StateBits, res.BytesPerState, unit, perState)
	if res.DiskWritten > 0 || res.DiskRead > 0 {
		fmt.Fprintf(w, "Disk:         %s written, %s read\n", budget.FormatBytes(res.DiskWritten), budget.FormatBytes(res.DiskRead))
	}
	if d := res.Disk; d != nil {
		printDiskSearch(w, d)
	}
	if c := res.Checkpoint; c != nil {
		resumable := "finished: its files were deleted"
		if c.Resumable {
			resumable = "resumable with: locus resume " + c.Where
		}
		fmt.Fprintf(w, "Checkpoint:   %d written this session, resumed %d time(s); %s\n", c.Checks, c.Resumed, resumable)
	}
	algo := res.Algorithm
	if len(res.Phases) > 1 {
		algo += " (" + strings.Join(res.Phases, " → ") + ")"
	}
	if res.Hash > 0 {
		algo += fmt.Sprintf(", %d-bit hash compaction", res.Hash)
	}
	if res.Workers > 1 {
		algo += fmt.Sprintf(" on %d workers", res.Workers)
	}
	if res.CodeGen != "" {
		algo += ", in code generated for the model (" + res.CodeGen + ")"
	}
	fmt.Fprintf(w, "Options:      %s, symmetry %s, deadlock %s\n", algo, res.Symmetry, res.Deadlock)
	if res.Locality != nil {
		printLocality(w, res.Locality)
	}
	for _, c := range res.Covers {
		fmt.Fprintf(w, "Cover:        %q %s time(s)\n", c.Name, commas(c.Count))
	}
}

// printDiskSearch reports what a disk-based search did.
func printDiskSearch(w io.Writer, d *job.DiskSearch) {
	fmt.Fprintf(w, "Disk search:  %s checks (%s reading all of D), table M of %s states\n",
		commas(d.Checks), commas(d.Calibrations), commas(d.MCapacity))
	fmt.Fprintf(w, "              D: %s entries in %s blocks (%s), %s of it read by the checks\n",
		commas(d.DStates), commas(int64(d.DBlocks)), budget.FormatBytes(d.DBytes), budget.FormatBytes(d.DBytesRead))
	if n := len(d.Cloud); n > 0 {
		last := d.Cloud[n-1]
		fmt.Fprintf(w, "              disk cloud: %d of %d blocks at the last check (random share %.2f)\n", last.Read, last.Blocks, last.Share)
	}
	fmt.Fprintf(w, "              %s candidates checked against D; %s states expanded again (%s rules, not counted above)\n",
		commas(d.Candidates), commas(d.Revisited), commas(d.RulesRevisited))
}

// guaranteeText says in words what the verdict rests on.
func guaranteeText(res *verify.Result) string {
	switch res.Guarantee {
	case job.GuaranteeExact:
		if res.Verdict == verify.Pass {
			return "exact: every reachable state was visited"
		}
	case job.GuaranteeOmissionBound:
		return fmt.Sprintf("hash compaction: the probability that a state was missed is at most %.3g (Stern and Dill's bound)", res.OmissionBound)
	case job.GuaranteeOmissionEstimate:
		est := 0.0
		if res.OmissionEstimate != nil {
			est = *res.OmissionEstimate
		}
		return fmt.Sprintf("randomized search: the observer estimates at %.3g the probability that some reachable state was never visited (an estimate from sampled states, not a bound)", est)
	case job.GuaranteeNotComplete:
		if res.Verdict == verify.Incomplete {
			return "not proven complete: some reachable states may not have been visited"
		}
	}
	return ""
}

// engineFigures are the progress figures of the engines that have them.
func engineFigures(p verify.Progress) string {
	var b strings.Builder
	if p.Visits > 0 {
		fmt.Fprintf(&b, "  visit %d  PomIs %.3g (%d samples)", p.Visits, p.PomIs, p.Samples)
	}
	if p.CacheFill > 0 {
		fmt.Fprintf(&b, "  cache %.0f%%", 100*p.CacheFill)
	}
	if p.Reexpansions > 0 {
		fmt.Fprintf(&b, "  re-expansions %d", p.Reexpansions)
	}
	if p.StackDepth > 0 {
		fmt.Fprintf(&b, "  stack %d", p.StackDepth)
	}
	if p.Reinsertions > 0 {
		fmt.Fprintf(&b, "  re-insertions %d", p.Reinsertions)
	}
	return b.String()
}

// printVisits prints rbfs's visits, one line each (Tronci et al., Figs. 5
// and 6, by column).
func printVisits(w io.Writer, vs []job.Visit) {
	fmt.Fprintf(w, "Visits:       %-5s %-8s %-12s %-12s %-10s %-8s %-8s %s\n", "visit", "levels", "visited", "fresh(est)", "PomIs", "samples", "clrate", "dropped")
	for _, v := range vs {
		levels := fmt.Sprintf("%d/%d", v.Levels, v.MaxLevels)
		if v.Drained {
			levels += "*"
		}
		fmt.Fprintf(w, "              %-5d %-8s %-12d %-12d %-10.3g %-8d %-8.3f %d\n", v.Visit, levels, v.Visited, v.Fresh, v.PomIs, v.Samples, v.CollisionRate, v.Dropped)
	}
	fmt.Fprintf(w, "              (levels: expanded/L, * = the queue ran dry)\n")
}

func printLocality(w io.Writer, l *job.Locality) {
	fmt.Fprintf(w, "Locality:     %s states, %s transitions, %s rules fired that left the state unchanged (not counted; Penna et al. §3)\n", commas(l.States), commas(l.Transitions), commas(l.SelfLoops))
	fmt.Fprintf(w, "              %-5s %-12s %-12s\n", "k", "E{Δ(k)}", "σ(k)")
	for _, d := range l.Delta {
		fmt.Fprintf(w, "              %-5d %-12.6g %-12.6g\n", d.K, d.Mean, d.StdDev)
	}
	fmt.Fprintf(w, "              SumAvg %.6g\n", l.SumAvg)
	var parts []string
	for _, h := range l.Histogram {
		parts = append(parts, fmt.Sprintf("%d:%s", h.K, commas(h.Count)))
	}
	fmt.Fprintf(w, "              transitions by k: %s\n", strings.Join(parts, " "))
}

// excerptWidth is how many characters of a source line a diagnostic shows
// on each side of its column.
const excerptWidth = 60

// excerpt returns the part of a source line around column col (from 1),
// without a byte-order mark, and the padding that puts a caret under that
// column (tabs kept so that it lines up).
func excerpt(line string, col int) (text, pad string) {
	rs := []rune(strings.TrimPrefix(line, "\uFEFF"))
	at := min(max(col-1, 0), len(rs))
	from, to := max(at-excerptWidth, 0), min(at+excerptWidth, len(rs))
	var b strings.Builder
	for _, r := range rs[from:at] {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	text, pad = string(rs[from:to]), b.String()
	if from > 0 {
		text, pad = "…"+text, " "+pad
	}
	if to < len(rs) {
		text += "…"
	}
	return text, pad
}

func countErrors(ds []verify.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Severity == "error" {
			n++
		}
	}
	return n
}

func printViolation(w io.Writer, v verify.Violation, trace string) {
	where := ""
	if v.Pos != "" {
		where = " at " + v.Pos
	}
	if format, ok := strings.CutPrefix(trace, "cmurphi-"); ok {
		if format == "none" || len(v.Trace) == 0 {
			fmt.Fprintf(w, "Violation (%s)%s: %s\n", v.Kind, where, v.Message)
			return
		}
		verify.WriteTraceCMurphi(w, v, format == "full")
		return
	}
	fmt.Fprintf(w, "Violation (%s)%s: %s\n", v.Kind, where, v.Message)
	if trace == "none" || len(v.Trace) == 0 {
		return
	}
	fmt.Fprintf(w, "Counterexample (%d step(s)):\n", len(v.Trace))
	for i, st := range v.Trace {
		fmt.Fprintf(w, "\n%d. %s\n", i, st.Rule)
		if i == 0 || trace == "full" {
			for _, vv := range st.State {
				fmt.Fprintf(w, "     %s: %s\n", vv.Name, vv.Value)
			}
			continue
		}
		if len(st.Changed) == 0 {
			fmt.Fprintf(w, "     (no change)\n")
		}
		for _, k := range st.Changed {
			fmt.Fprintf(w, "     %s: %s\n", st.State[k].Name, st.State[k].Value)
		}
	}
}

func commas(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// writeMemProfile writes the allocations made so far (pprof's allocs
// profile: go tool pprof -sample_index=alloc_space) to path.
func writeMemProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
