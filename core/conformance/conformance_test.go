// Package conformance checks Locus against the reference results of CMurphi
// 5.4.9 and Rumur recorded in ../shared/models, following that folder's
// README ("What is authoritative"). Expected values are read from the
// manifests at test time; none is written here.
package conformance

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locus-mc/locus/core/verify"
)

// modelsDir finds ../shared/models from the module root. A missing corpus
// is a failure, not a skip.
func modelsDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = parent
	}
	models := filepath.Join(dir, "..", "shared", "models")
	if _, err := os.Stat(filepath.Join(models, "README.md")); err != nil {
		t.Fatalf("conformance corpus missing at %s: %v", models, err)
	}
	return models
}

func readManifest(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = '\t'
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		row := map[string]string{}
		for i, h := range recs[0] {
			if i < len(rec) {
				row[h] = rec[i]
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// deviations are the corpus rows where Locus deliberately gives another
// verdict than the manifest's, each with the reason.
var deviations = map[string]struct{ verdict, why string }{
	"rumur/read-slice.m": {verify.Rejected, "no startstate: an error in the Murphi manual (Rumur warns, then passes with 0 states)"},
}

// check is one run of one model with one set of options and its reference.
type check struct {
	size   int64  // the largest reference state count of the model, if known
	name   string // file and configuration
	file   string
	opts   verify.Options
	expect expectation
	skip   string // reason, if this check has no reference
	// noRefLimit bounds a run that has no reference: it must only end cleanly.
	noRefLimit bool
	// kindAmong: the engine searches in another order than BFS, so its
	// first violation may be another one; the expected kind must then be
	// among the violations it finds when it goes on (max-errors 100).
	kindAmong bool
	deviation string // why the expectation departs from the manifest, if it does
}

type expectation struct {
	verdict      string // pass, fail, rejected
	kind         string // violation kind for fail
	states       int64  // -1: do not compare
	rules        int64
	depth        int // -1: do not compare
	nViolations  int // 0: do not compare
	boundAllowed bool
	rejectOrPass bool
}

var countsRE = regexp.MustCompile(`^\s*(\d+)/(\d+)\s*$`)

func parseCounts(s string) (int64, int64, bool) {
	m := countsRE.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, false
	}
	a, _ := strconv.ParseInt(m[1], 10, 64)
	b, _ := strconv.ParseInt(m[2], 10, 64)
	return a, b, true
}

func rumurChecks(t *testing.T, dir string) []check {
	var out []check
	for _, row := range readManifest(t, filepath.Join(dir, "rumur", "MANIFEST.tsv")) {
		if row["status"] != "active" {
			continue
		}
		file := filepath.Join(dir, "rumur", row["file"])
		c := check{name: "rumur/" + row["file"], file: file}
		c.expect.states, c.expect.depth = -1, -1
		c.opts.Symmetry = "off"
		for _, o := range strings.Split(row["normalized_options"], ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(o), "=")
			switch k {
			case "deadlock-detection":
				c.opts.Deadlock = v
			case "bound":
				n, err := strconv.Atoi(v)
				if err != nil {
					c.skip = "a command-line test: bound=" + v + " is checked by cmd/locus's tests"
				}
				c.opts.Bound = n
				c.expect.boundAllowed = true
			case "max-errors":
				c.opts.MaxErrors, _ = strconv.Atoi(v)
			case "counterexample-trace":
				if v == "off" {
					c.opts.Trace = "none"
				}
			}
		}
		pv := row["portable_verdict"]
		switch {
		case c.skip != "":
		case pv == "pass":
			c.expect.verdict = verify.Pass
			// Rumur's counts without symmetry are tool-independent for
			// complete runs (MURPHI-LANGUAGE.md §7.13): compare them too.
			if s, r, ok := parseCounts(row["rumur_states_rules_nosym"]); ok {
				c.expect.states, c.expect.rules = s, r
			}
		case pv == "reject":
			c.expect.verdict = verify.Rejected
		case pv == "reject-or-tool-limit":
			c.expect.verdict = verify.Rejected
			c.expect.rejectOrPass = true
		case strings.HasPrefix(pv, "fail(") && strings.HasSuffix(pv, ")"):
			c.expect.verdict = verify.Fail
			c.expect.kind = strings.TrimSuffix(strings.TrimPrefix(pv, "fail("), ")")
			if c.opts.MaxErrors > 1 {
				c.expect.nViolations = c.opts.MaxErrors
			}
		default:
			c.skip = "unrecognised portable verdict " + pv
		}
		if d, ok := deviations[c.name]; ok {
			c.expect = expectation{verdict: d.verdict, states: -1, depth: -1}
			c.deviation = d.why
		}
		out = append(out, c)
	}
	return out
}

// cmurphiVerdict parses a measured CMurphi column.
func cmurphiVerdict(s string) (e expectation, ref bool) {
	e.states, e.depth = -1, -1
	s = strings.TrimSpace(s)
	verdict, counts, _ := strings.Cut(s, ";")
	switch {
	case verdict == "pass":
		e.verdict = verify.Pass
		e.states, e.rules, _ = parseCounts(counts)
	case strings.HasPrefix(verdict, "fail("):
		e.verdict = verify.Fail
		switch msg := strings.ToLower(verdict); {
		case strings.Contains(msg, "deadlock"):
			e.kind = "deadlock"
		case strings.Contains(msg, "invariant"):
			e.kind = "invariant"
		case strings.Contains(msg, "assert"):
			e.kind = "assertion"
		case strings.Contains(msg, "error"):
			e.kind = "error-statement"
		default:
			return e, false
		}
	default:
		return e, false // timeout, not measured, crashed, rc=0
	}
	return e, true
}

func cmurphiChecks(t *testing.T, dir string) []check {
	var out []check
	seen := map[string]bool{}
	for _, row := range readManifest(t, filepath.Join(dir, "cmurphi", "MANIFEST.tsv")) {
		name := row["file"]
		if twin := row["identical_to"]; twin != "" && seen[twin] {
			continue // counted once
		}
		seen[name] = true
		file := filepath.Join(dir, "cmurphi", name)
		depth := -1
		if d, err := strconv.Atoi(strings.TrimSpace(row["cmurphi_depth"])); err == nil {
			depth = d
		}
		cmurphiOnly := row["real"] != "" || row["prob_rules"] != ""
		var size int64
		for k, v := range row {
			if strings.HasPrefix(k, "measured_") {
				if _, counts, ok := strings.Cut(v, ";"); ok {
					if n, _, ok := parseCounts(counts); ok && n > size {
						size = n
					}
				}
			}
		}
		configs := []struct {
			col, label, sym, deadlock string
			counts, depth             bool
		}{
			{"measured_cmurphi_nosym", "nosym", "off", "", true, true},
			{"measured_cmurphi_sym1(exact)", "sym exact", "exact", "", true, true},
			{"measured_cmurphi_default(-sym3)", "sym heuristic (verdict)", "heuristic", "", false, false},
			{"measured_cmurphi_ndl_nosym", "ndl nosym", "off", "off", true, true},
			{"measured_cmurphi_ndl", "ndl (verdict)", "exact", "off", false, false},
		}
		for _, cf := range configs {
			col := strings.TrimSpace(row[cf.col])
			if col == "" {
				continue
			}
			c := check{name: fmt.Sprintf("cmurphi/%s [%s]", name, cf.label), file: file, size: size}
			c.opts.Symmetry = cf.sym
			c.opts.Deadlock = cf.deadlock
			e, ref := cmurphiVerdict(col)
			if !cf.counts {
				e.states = -1
			}
			switch {
			case cmurphiOnly:
				// real and probabilistic rules are CMurphi-only: a clean
				// rejection (or a clean run) is all that is asked.
				c.skip = "CMurphi-only real/probabilistic model (" + col + "); must be rejected cleanly"
				c.noRefLimit = true
			case !ref:
				c.skip = "no CMurphi reference (" + col + "); must end cleanly"
				c.noRefLimit = true
			default:
				c.expect = e
				// Depth: CMurphi's diameter; for ns it was measured with
				// deadlock detection off (the deadlocking run stops early).
				if cf.depth && e.verdict == verify.Pass {
					c.expect.depth = depth
				}
			}
			out = append(out, c)
		}
	}
	return out
}

// otherEngines returns, for every failing check, the same check under the
// engines that do not keep every state (and under hash compaction): each
// must find a violation of the same kind, with a trace that replays.
func otherEngines(checks []check) []check {
	var out []check
	for _, c := range checks {
		if c.skip != "" || c.expect.verdict != verify.Fail {
			continue
		}
		engine := func(name string) func(*verify.Options) {
			return func(o *verify.Options) { o.Algorithm = name; o.MemoryBytes = 16 << 20 }
		}
		for _, v := range []struct {
			label     string
			set       func(*verify.Options)
			kindAmong bool
		}{
			{"cbfs", engine("cbfs"), false},
			{"auto", engine("auto"), false},
			{"hash compaction", func(o *verify.Options) { o.HashCompaction = 40 }, false},
			{"cache-bfs", engine("cache-bfs"), false},
			{"cache-sweep", engine("cache-sweep"), false},
			{"cache-dfs", engine("cache-dfs"), true},
			{"cache-alt", engine("cache-alt"), true},
			{"dfs-replace", engine("dfs-replace"), true},
			{"rbfs", engine("rbfs"), true},
			{"dbfs", engine("dbfs"), false},
			{"ldbfs", engine("ldbfs"), false},
			{"ldbfs hash compaction", func(o *verify.Options) {
				o.Algorithm = "ldbfs"
				o.MemoryBytes = 16 << 20
				o.HashCompaction = 40
			}, false},
		} {
			x := c
			x.name += " [" + v.label + "]"
			v.set(&x.opts)
			x.kindAmong = v.kindAmong
			// Counts at a failure are engine-specific; the kind is not.
			x.expect.states = -1
			out = append(out, x)
		}
	}
	return out
}

// parallelWorkers are the worker counts the parallel configurations run.
var parallelWorkers = []int{2, 4}

// parallelConfigs returns every check that runs bfs again on several
// workers: the parallel search must give the same verdicts, counts,
// depths and replaying counterexamples as one worker.
func parallelConfigs(checks []check) []check {
	var out []check
	for _, c := range checks {
		if c.skip != "" || c.opts.Algorithm != "" || c.opts.Workers != 0 {
			continue
		}
		for _, n := range parallelWorkers {
			x := c
			x.name += fmt.Sprintf(" [workers %d]", n)
			x.opts.Workers = n
			out = append(out, x)
		}
	}
	return out
}

type outcome struct {
	name   string
	status string // pass, fail, skip
	msg    string
}

// wasmLimit bounds the models checked under js/wasm, where the suite runs
// several times slower: the native run covers the large ones (the engine
// code is the same), the wasm run shows the engine works on that platform.
const wasmLimit = 150000

func TestConformance(t *testing.T) {
	dir := modelsDir(t)
	checks := append(rumurChecks(t, dir), cmurphiChecks(t, dir)...)
	if len(checks) < 300 {
		t.Fatalf("only %d checks found; is the corpus complete?", len(checks))
	}
	checks = append(checks, otherEngines(checks)...)
	if runtime.GOOS != "js" {
		// Under js/wasm goroutines share one thread: the browser runs
		// parallel parts in Web Workers instead (wasm/worker).
		checks = append(checks, parallelConfigs(checks)...)
	}
	if runtime.GOOS == "js" {
		var small []check
		for _, c := range checks {
			if c.size <= wasmLimit && !c.noRefLimit {
				small = append(small, c)
			}
		}
		t.Logf("js/wasm: running the %d of %d checks on models of at most %d states", len(small), len(checks), wasmLimit)
		checks = small
	}
	results := make([]outcome, len(checks))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range checks {
		i := i
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = runCheck(checks[i])
		}()
	}
	wg.Wait()
	var passed, failed, skipped int
	var skips []string
	for _, r := range results {
		switch r.status {
		case "pass":
			passed++
		case "skip":
			skipped++
			skips = append(skips, r.name+": "+r.msg)
		default:
			failed++
			t.Errorf("%s: %s", r.name, r.msg)
		}
	}
	sort.Strings(skips)
	for _, s := range skips {
		t.Logf("skip %s", s)
	}
	for _, c := range checks {
		if c.deviation != "" {
			t.Logf("deviation %s: %s, by design: %s", c.name, c.expect.verdict, c.deviation)
		}
	}
	line := fmt.Sprintf("conformance: %d passed, %d failed, %d skipped", passed, failed, skipped)
	t.Log(line)
	fmt.Fprintln(os.Stderr, line)
}

// replay checks every counterexample of res on the model, independently of
// the engine that found it.
func replay(c check, src []byte, res *verify.Result) error {
	m, _ := verify.Compile(c.file, src)
	if m == nil {
		return fmt.Errorf("the model no longer compiles")
	}
	vs := res.Violations
	if len(vs) == 0 {
		vs = []verify.Violation{*res.Violation}
	}
	for i := range vs {
		if err := verify.Replay(m, &vs[i]); err != nil {
			return fmt.Errorf("violation %d (%s): %w", i+1, vs[i].Kind, err)
		}
	}
	return nil
}

// hasKind reports whether res has a violation of kind.
func hasKind(res *verify.Result, kind string) bool {
	if res.Violation != nil && res.Violation.Kind == kind {
		return true
	}
	for _, v := range res.Violations {
		if v.Kind == kind {
			return true
		}
	}
	return false
}

func runCheck(c check) outcome {
	src, err := os.ReadFile(c.file)
	if err != nil {
		return outcome{c.name, "fail", err.Error()}
	}
	ctx := context.Background()
	if c.noRefLimit {
		// No reference: the run must only end cleanly; give it a budget
		// so that a huge model ends as "incomplete" instead of running
		// for hours.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		c.opts.MemoryBytes = 512 << 20
	}
	res := verify.Check(ctx, c.file, src, c.opts)
	if c.skip != "" {
		if res.Verdict == verify.Error {
			return outcome{c.name, "fail", "did not end cleanly: " + res.Reason}
		}
		return outcome{c.name, "skip", fmt.Sprintf("%s [ran: %s]", c.skip, res.Verdict)}
	}
	e := c.expect
	got := res.Verdict
	switch {
	case got == e.verdict:
	case e.boundAllowed && e.verdict == verify.Pass && got == verify.Incomplete && strings.Contains(res.Reason, "bound"):
		// A bounded run with no violation: Locus says "incomplete" when the
		// bound cut the search, Rumur "pass".
	case e.rejectOrPass && got == verify.Pass:
	default:
		msg := fmt.Sprintf("verdict %s, want %s", got, e.verdict)
		if res.Reason != "" {
			msg += " (" + res.Reason + ")"
		}
		if res.Violation != nil {
			msg += fmt.Sprintf(" [%s: %s]", res.Violation.Kind, res.Violation.Message)
		}
		if len(res.Diagnostics) > 0 {
			d := res.Diagnostics[0]
			msg += fmt.Sprintf(" [%d:%d: %s]", d.Line, d.Col, d.Message)
		}
		return outcome{c.name, "fail", msg}
	}
	if got == verify.Fail {
		if res.Violation == nil {
			return outcome{c.name, "fail", "fail without a violation"}
		}
		if e.kind != "" && res.Violation.Kind != e.kind && c.kindAmong {
			// Another order found another violation first: go on and
			// look for the expected kind among the others.
			more := c.opts
			more.MaxErrors = 100
			res = verify.Check(ctx, c.file, src, more)
			if !hasKind(res, e.kind) {
				return outcome{c.name, "fail", fmt.Sprintf("no violation of kind %s among %d found (first: %s, %s)", e.kind, max(len(res.Violations), 1), res.Violation.Kind, res.Violation.Message)}
			}
		} else if e.kind != "" && res.Violation.Kind != e.kind {
			return outcome{c.name, "fail", fmt.Sprintf("violation kind %s (%s), want %s", res.Violation.Kind, res.Violation.Message, e.kind)}
		}
		if c.opts.Trace != "none" && res.Violation.Kind != "cover" {
			if err := replay(c, src, res); err != nil {
				return outcome{c.name, "fail", "the counterexample does not replay: " + err.Error()}
			}
		}
		if e.nViolations > 0 {
			n := len(res.Violations)
			if n == 0 {
				n = 1
			}
			if n != e.nViolations {
				return outcome{c.name, "fail", fmt.Sprintf("%d violations, want %d", n, e.nViolations)}
			}
		}
	}
	if got == verify.Pass || (got == verify.Incomplete && e.boundAllowed) {
		if e.states >= 0 {
			if res.States == nil || *res.States != e.states || res.RulesFired != e.rules {
				s := int64(-1)
				if res.States != nil {
					s = *res.States
				}
				return outcome{c.name, "fail", fmt.Sprintf("%d states / %d rules fired, want %d / %d", s, res.RulesFired, e.states, e.rules)}
			}
		}
		if e.depth >= 0 && res.Depth != e.depth {
			return outcome{c.name, "fail", fmt.Sprintf("depth %d, want %d", res.Depth, e.depth)}
		}
	}
	return outcome{c.name, "pass", ""}
}
