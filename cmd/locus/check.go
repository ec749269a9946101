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
	"runtime/pprof"
	"strings"

	"github.com/locus-mc/locus/core/budget"
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

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("locus check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		opts       verify.Options
		ndl        bool
		jsonOut    bool
		progress   bool
		cpuprofile string
		diskDir    string
		format     string
	)
	fs.StringVar(&opts.Algorithm, "algo", "bfs", "search algorithm: bfs or dfs")
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
	fs.BoolVar(&jsonOut, "json", false, "print the result as one JSON object")
	fs.BoolVar(&progress, "progress", false, "print progress to stderr")
	fs.StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile to this file")
	fs.StringVar(&diskDir, "disk-dir", "", "directory for queue files when the queue's memory share is full (default: a temporary directory)")
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
				return exitPass
			}
			return exitRejected
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
		return exitRejected
	}
	if ndl {
		opts.Deadlock = "off"
	}
	trace := opts.Trace
	if trace == "diff" {
		opts.Trace = "full" // the engine keeps full states; printing shows the changes
	}
	if format != "locus" && format != "cmurphi" {
		fmt.Fprintf(stderr, "locus check: unknown trace format %q (locus or cmurphi)\n", format)
		return exitRejected
	}
	if format == "cmurphi" {
		trace = "cmurphi-" + trace
	}
	if opts.Bound < 0 {
		fmt.Fprintf(stderr, "locus check: -bound must not be negative\n")
		return exitRejected
	}
	if err := verify.ValidateOptions(opts); err != nil {
		fmt.Fprintf(stderr, "locus check: %v\n", err)
		return exitRejected
	}
	file := files[0]
	src, err := os.ReadFile(file)
	if err != nil {
		return report(stdout, stderr, jsonOut, &verify.Result{Verdict: verify.Error, Reason: err.Error()}, file, trace, nil)
	}
	if fsys, cleanup, err := diskFS(diskDir); err != nil {
		fmt.Fprintf(stderr, "locus check: %v\n", err)
		return exitError
	} else {
		defer cleanup()
		opts.FS = fsys
	}
	if progress {
		opts.Progress = func(p verify.Progress) {
			fmt.Fprintf(stderr, "  %7.1fs  %12d states  %13d rules  level %4d  queue %d+%d  mem %s\n",
				p.Seconds, p.States, p.RulesFired, p.Level, p.QueueMemory, p.QueueDisk, budget.FormatBytes(p.MemoryBytes))
		}
		opts.ProgressEvery = 1000
	}
	if cpuprofile != "" {
		f, err := os.Create(cpuprofile)
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res := verify.Check(ctx, file, src, opts)
	res.RSSBytes = peakRSS()
	return report(stdout, stderr, jsonOut, res, file, trace, src)
}

func report(stdout, stderr io.Writer, jsonOut bool, res *verify.Result, file, trace string, src []byte) int {
	if jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if strings.HasSuffix(trace, "none") {
			stripTraces(res)
		}
		enc.Encode(res)
		return exitCode(res.Verdict)
	}
	printHuman(stdout, stderr, res, file, trace, src)
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
		fmt.Fprintf(ew, "%s:%d:%d: %s%s\n", d.File, d.Line, d.Col, sev, d.Message)
		if d.Line >= 1 && d.Line <= len(lines) {
			// The source line, and a caret under the column (tabs kept so
			// that it lines up).
			line := strings.TrimRight(lines[d.Line-1], "\r")
			var pad []rune
			for i, r := range []rune(line) {
				if i >= d.Col-1 {
					break
				}
				if r == '\t' {
					pad = append(pad, '\t')
				} else {
					pad = append(pad, ' ')
				}
			}
			fmt.Fprintf(ew, "    %s\n    %s^\n", line, string(pad))
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
	if res.States != nil {
		fmt.Fprintf(w, "States:       %s\n", commas(*res.States))
	}
	fmt.Fprintf(w, "Rules fired:  %s\n", commas(res.RulesFired))
	fmt.Fprintf(w, "Depth:        %d\n", res.Depth)
	fmt.Fprintf(w, "Time:         %.3f s  (%s states/s, %s rules/s)\n",
		res.Seconds, commas(int64(res.StatesPerSec)), commas(int64(res.RulesPerSec)))
	unit := "bytes"
	if res.BytesPerState == 1 {
		unit = "byte"
	}
	fmt.Fprintf(w, "Memory:       %s engine peak, %s process peak; %d bits (%g %s) per state\n",
		budget.FormatBytes(res.PeakBytes), budget.FormatBytes(res.RSSBytes), res.StateBits, res.BytesPerState, unit)
	if res.DiskWritten > 0 || res.DiskRead > 0 {
		fmt.Fprintf(w, "Disk:         %s written, %s read\n", budget.FormatBytes(res.DiskWritten), budget.FormatBytes(res.DiskRead))
	}
	fmt.Fprintf(w, "Options:      %s, symmetry %s, deadlock %s\n", res.Algorithm, res.Symmetry, res.Deadlock)
	for _, c := range res.Covers {
		fmt.Fprintf(w, "Cover:        %q %s time(s)\n", c.Name, commas(c.Count))
	}
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
