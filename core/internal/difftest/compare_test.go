package difftest

// This file compares one model under Locus and under the reference.

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/internal/modelgen"
	"github.com/locus-mc/locus/core/internal/reference"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/symmetry"
	"github.com/locus-mc/locus/core/verify"
)

// Budgets: models with more states, or whose reference search runs more
// loop iterations, calls and symmetry images, are skipped (the generator
// aims well below). Longer runs (the fuzz target) may raise them.
var (
	maxStates       = 1500
	maxWork   int64 = 1_000_000
	// timeBudget, if set, bounds the time one comparison may take (go
	// test -fuzz stops a worker after 10 s on one input); a model that
	// needs more is skipped.
	timeBudget time.Duration
)

// outcome is what one comparison found.
type outcome struct {
	skipped    string   // why the model was not compared ("" if it was)
	problems   []string // disagreements
	states     int      // reachable states compared
	asymmetric bool     // compared without symmetry: the model is not symmetric
}

// compare runs model src under Locus and the reference with the options
// of gm and reports every disagreement.
func compare(src string, gm modelgen.Model) outcome {
	var out outcome
	var deadline time.Time
	if timeBudget > 0 {
		deadline = time.Now().Add(timeBudget)
	}
	ast, errs := murphi.ParseFile("gen.m", []byte(src))
	if errs.HasErrors() {
		out.problems = append(out.problems, "the model does not parse: "+errs.Error())
		return out
	}
	ck, errs := murphi.Check(ast)
	if errs.HasErrors() {
		out.problems = append(out.problems, "the model does not check: "+errs.Error())
		return out
	}
	ref, err := reference.New(ck)
	if err != nil {
		out.skipped = "reference: " + err.Error()
		return out
	}
	m, diags := verify.Compile("gen.m", []byte(src))
	if m == nil {
		out.problems = append(out.problems, fmt.Sprintf("Locus rejects a model the checker accepts: %v", diags))
		return out
	}
	opts := reference.Options{Symmetry: gm.Symmetry, Deadlock: gm.Deadlock, MaxErrors: gm.MaxErrors,
		Bound: gm.Bound, MaxStates: maxStates, MaxWork: maxWork, Deadline: deadline, PerRule: !gm.Symmetry}

	// The reachable graph, state by state.
	rg, err := ref.Graph(opts)
	if err != nil {
		out.skipped = "reference graph: " + err.Error()
		return out
	}
	if opts.Symmetry && rg.Asymmetric != "" {
		// Symmetry reduction is only meaningful for symmetric models:
		// compare this one without it.
		out.asymmetric = true
		opts.Symmetry, opts.PerRule, gm.Symmetry = false, true, false
		if rg, err = ref.Graph(opts); err != nil {
			out.skipped = "reference graph: " + err.Error()
			return out
		}
	}
	sym := opts.Symmetry && ref.Symmetric()
	lg, problems, tooBig := locusGraph(m, ref, sym, opts.PerRule, symmetry.Exact, maxStates, deadline)
	if !deadline.IsZero() && time.Now().After(deadline) {
		out.skipped = "out of time"
		return out
	}
	if tooBig {
		out.problems = append(out.problems, fmt.Sprintf("Locus's graph has more than %d states, the reference's %d", maxStates, len(rg.Nodes)))
		return out
	}
	out.problems = append(out.problems, problems...)
	out.problems = append(out.problems, diffGraphs(rg, lg)...)
	if sym {
		// Heuristic reduction may keep several representatives of an
		// orbit, but each must stay in it and behave as the orbit does.
		hg, problems, tooBig := locusGraph(m, ref, sym, false, symmetry.Heuristic, 4*maxStates, deadline)
		if hg != nil && !tooBig {
			for _, p := range append(problems, diffGraphs(rg, hg)...) {
				out.problems = append(out.problems, "heuristic symmetry: "+p)
			}
		}
	}
	if len(out.problems) > 0 {
		return out // the graphs already disagree: the counts will too
	}
	out.states = len(rg.Nodes)

	// The verdict and the counts of a search, as a user sees them.
	rr, err := ref.Check(opts)
	if err != nil {
		out.skipped = "reference check: " + err.Error()
		return out
	}
	for _, p := range diffResults(src, m, gm, rr, sym, deadline) {
		if p == slowLocus {
			out.skipped = "Locus took more than " + locusTimeout.String()
			continue
		}
		out.problems = append(out.problems, p)
	}
	return out
}

// diffGraphs compares two graphs.
func diffGraphs(ref, loc *reference.Graph) []string {
	var out []string
	if strings.Join(ref.Starts, "\n") != strings.Join(loc.Starts, "\n") {
		out = append(out, fmt.Sprintf("start states differ:\nreference:\n  %s\nLocus:\n  %s",
			strings.Join(ref.Starts, "\n  "), strings.Join(loc.Starts, "\n  ")))
	}
	var missing, extra []string
	for s := range ref.Nodes {
		if _, ok := loc.Nodes[s]; !ok {
			missing = append(missing, s)
		}
	}
	for s := range loc.Nodes {
		if _, ok := ref.Nodes[s]; !ok {
			extra = append(extra, s)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		out = append(out, fmt.Sprintf("%d states reachable in the reference are not in Locus's graph, e.g. %s", len(missing), missing[0]))
	}
	if len(extra) > 0 {
		out = append(out, fmt.Sprintf("%d states in Locus's graph are not reachable in the reference, e.g. %s", len(extra), extra[0]))
	}
	var keys []string
	for s := range ref.Nodes {
		keys = append(keys, s)
	}
	sort.Strings(keys)
	for _, s := range keys {
		rn, ln := ref.Nodes[s], loc.Nodes[s]
		if rn == nil || ln == nil {
			continue
		}
		if a, b := rn.Record(), ln.Record(); a != b {
			out = append(out, fmt.Sprintf("state %s:\nreference:\n%sLocus:\n%s", s, indent(a), indent(b)))
			break // one is enough to start from
		}
	}
	return out
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}

// runLocus checks src with Locus's one entry point, giving up after a
// while: a model must never make Locus hang.
func runLocus(src string, o verify.Options, deadline time.Time) (*verify.Result, bool) {
	done := make(chan *verify.Result, 1)
	grace := time.Minute // beyond the deadline, a run that goes on hangs
	if deadline.IsZero() {
		deadline = time.Now().Add(locusTimeout)
	} else if timeBudget > 0 {
		if time.Now().After(deadline) {
			return nil, true // out of time already: do not start
		}
		// An engine notices cancellation between batches of states,
		// which can take a while: it is left to stop in the background.
		grace = time.Second
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	go func() { done <- verify.Check(ctx, "gen.m", []byte(src), o) }()
	select {
	case r := <-done:
		if ctx.Err() != nil && r.Verdict == verify.Incomplete {
			// Slow (on a busy machine), not wrong: the caller skips it.
			return nil, true
		}
		return r, true
	case <-time.After(time.Until(deadline) + grace):
		if timeBudget > 0 {
			return nil, true // slow; it stops at its next check
		}
		return nil, false // it ignores cancellation too; leave it running
	}
}

// slowLocus stands for a Locus run that timed out and was cancelled.
const slowLocus = "(slow)"

// locusTimeout is how long one Locus run may take: the models are small,
// so only a hang (or a very busy machine) gets near it.
const locusTimeout = 2 * time.Minute

// diffResults compares the verdict and counts of Locus's search with the
// reference's. Without symmetry everything must match, down to the
// violations found and the counts when the search stopped; with symmetry,
// representatives differ, so which violation comes first may too: then a
// passing run's counts must match.
func diffResults(src string, m *compile.Model, gm modelgen.Model, rr *reference.Result, sym bool, deadline time.Time) []string {
	var out []string
	o := verify.Options{Options: job.Options{Symmetry: "off", Deadlock: gm.Deadlock, MaxErrors: gm.MaxErrors, Bound: gm.Bound}}
	if gm.Symmetry {
		o.Symmetry = "exact"
	}
	lr, ok := runLocus(src, o, deadline)
	if !ok {
		return []string{"Locus hangs (and ignores cancellation)"}
	}
	if lr == nil {
		return []string{slowLocus}
	}
	if lr.Verdict == verify.Error || lr.Verdict == verify.Rejected {
		return []string{fmt.Sprintf("Locus: verdict %s: %s %v", lr.Verdict, lr.Reason, lr.Diagnostics)}
	}
	if lr.Verdict != rr.Verdict {
		out = append(out, fmt.Sprintf("verdict: Locus %s %v (%s), reference %s %v", lr.Verdict, kinds(lr), lr.Reason, rr.Verdict, rr.Violations))
		return out
	}
	if gm.Symmetry && (lr.Symmetry == "off") != rr.SymmetryOff {
		out = append(out, fmt.Sprintf("symmetry: Locus ran with %s, reference turned it off: %v", lr.Symmetry, rr.SymmetryOff))
	}
	states := int64(-1)
	if lr.States != nil {
		states = *lr.States
	}
	if !sym || rr.SymmetryOff || rr.Verdict == "pass" {
		if !sym || rr.SymmetryOff {
			if a, b := strings.Join(kinds(lr), " "), strings.Join(refKinds(rr), " "); a != b {
				out = append(out, fmt.Sprintf("violations: Locus [%s], reference [%s] %v", a, b, rr.Violations))
			}
		}
		if states != rr.States || lr.RulesFired != rr.RulesFired || int64(lr.Depth) != int64(rr.Depth) {
			out = append(out, fmt.Sprintf("counts (states, rules fired, depth): Locus %d %d %d, reference %d %d %d",
				states, lr.RulesFired, lr.Depth, rr.States, rr.RulesFired, rr.Depth))
		}
	}
	if rr.Verdict == "pass" && (!sym || rr.SymmetryOff) {
		// Cover counts, by declaration or statement.
		got := map[murphi.Pos]int64{}
		pos := coverPositions(m)
		for i, c := range lr.Covers {
			got[pos[i]] += c.Count
		}
		for p, n := range rr.Covers {
			if got[p] != n {
				out = append(out, fmt.Sprintf("cover at %s: Locus counts %d, reference %d", m.Position(p), got[p], n))
			}
		}
		for p, n := range got {
			if n != 0 && rr.Covers[p] == 0 {
				out = append(out, fmt.Sprintf("cover at %s: Locus counts %d, reference 0", m.Position(p), n))
			}
		}
	}
	if sym && !rr.SymmetryOff && gm.Bound == 0 {
		// Heuristic symmetry reduction may keep more states, never fewer,
		// and must reach the same verdict.
		h := o
		h.Symmetry = "heuristic"
		hr, ok := runLocus(src, h, deadline)
		switch {
		case !ok:
			out = append(out, "Locus with heuristic symmetry hangs")
		case hr == nil:
			out = append(out, slowLocus)
		case hr.Verdict != rr.Verdict:
			out = append(out, fmt.Sprintf("heuristic symmetry: verdict %s %v, reference %s", hr.Verdict, kinds(hr), rr.Verdict))
		case rr.Verdict == "pass" && (hr.States == nil || *hr.States < rr.States):
			out = append(out, fmt.Sprintf("heuristic symmetry: %s states, fewer than the %d orbits", statesText(hr), rr.States))
		}
	}
	if rr.Verdict == "pass" && gm.Bound == 0 {
		// Every other exact engine visits the same states and fires the
		// same rules.
		for _, e := range explore.Engines() {
			if !e.Exact || e.Name == explore.DefaultAlgorithm {
				continue
			}
			o.Algorithm = e.Name
			er, ok := runLocus(src, o, deadline)
			switch {
			case !ok:
				out = append(out, "Locus's "+e.Name+" hangs")
			case er == nil:
				out = append(out, slowLocus)
			case er.Verdict != "pass" || er.States == nil || *er.States != rr.States || er.RulesFired != rr.RulesFired:
				out = append(out, fmt.Sprintf("%s: Locus %s %v states %s rules %d, reference pass %d %d",
					e.Name, er.Verdict, kinds(er), statesText(er), er.RulesFired, rr.States, rr.RulesFired))
			}
		}
	}
	return out
}

// coverPositions lists where the covers of a Locus result are declared:
// cover properties by declaration, then cover statements.
func coverPositions(m *compile.Model) []murphi.Pos {
	var out []murphi.Pos
	seen := map[murphi.Pos]bool{}
	for _, c := range m.Covers {
		if !seen[c.Pos] {
			seen[c.Pos] = true
			out = append(out, c.Pos)
		}
	}
	for _, c := range m.CoverStmts {
		out = append(out, c.Pos)
	}
	return out
}

// kinds lists a result's violation kinds.
func kinds(r *verify.Result) []string {
	var out []string
	if r.Violation != nil {
		out = append(out, r.Violation.Kind)
	}
	for i, v := range r.Violations {
		if i > 0 {
			out = append(out, v.Kind)
		}
	}
	return out
}

func refKinds(r *reference.Result) []string {
	var out []string
	for _, v := range r.Violations {
		out = append(out, v.Kind)
	}
	return out
}

func statesText(r *verify.Result) string {
	if r.States == nil {
		return "unknown"
	}
	return fmt.Sprint(*r.States)
}
