package explore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
)

// comparable strips a result of what may differ between runs that did the
// same search: times, rates and memory figures, the number of workers, the
// value of the
// omission bound of hash compaction (the tables differ).
func comparable(t *testing.T, r *verify.Result) string {
	t.Helper()
	c := *r
	c.Seconds, c.StatesPerSec, c.RulesPerSec = 0, 0, 0
	c.PeakBytes, c.VisitedBytes, c.EngineBytesPerState, c.RSSBytes = 0, 0, 0, 0
	c.Diagnostics = nil
	c.Workers = 0
	// Hash compaction bounds the omission probability per part's table.
	if c.OmissionBound > 0 {
		c.OmissionBound = 1
	}
	b, err := json.MarshalIndent(&c, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hasNote reports whether a diagnostic of r contains s.
func hasNote(r *verify.Result, s string) bool {
	for _, d := range r.Diagnostics {
		if strings.Contains(d.Message, s) {
			return true
		}
	}
	return false
}

// withoutCovers is r without its cover counts.
func withoutCovers(r *verify.Result) *verify.Result {
	c := *r
	c.Covers = nil
	return &c
}

// parallelCase is a model and the options it runs with.
type parallelCase struct {
	name string
	file string
	opts verify.Options
}

// testdataCases runs every testdata model with the options its header
// names.
func testdataCases(t *testing.T) []parallelCase {
	t.Helper()
	files, err := filepath.Glob("testdata/*.m")
	if err != nil || len(files) == 0 {
		t.Fatal("no testdata models")
	}
	var out []parallelCase
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want := locusHeader(src)
		if want == nil {
			t.Fatalf("%s: missing '-- locus:' header", file)
		}
		o := verify.Options{Options: job.Options{Symmetry: want["symmetry"], Deadlock: want["deadlock"]}}
		if o.Symmetry == "" {
			o.Symmetry = "off"
		}
		o.MaxErrors, _ = strconv.Atoi(want["maxerrors"])
		out = append(out, parallelCase{filepath.Base(file), file, o})
	}
	return out
}

// corpusCases are corpus models that fail in several ways, with several
// violations per run, hash compaction and symmetry, and pass with many
// levels.
func corpusCases() []parallelCase {
	dir := "../../../shared/models/"
	opt := func(f func(*verify.Options)) verify.Options {
		o := verify.Options{Options: job.Options{Symmetry: "off"}}
		if f != nil {
			f(&o)
		}
		return o
	}
	return []parallelCase{
		{"mcslock1 sym", dir + "cmurphi/mux/mcslock1.m", opt(func(o *verify.Options) { o.Symmetry = "exact" })},
		{"mcslock1 heuristic", dir + "cmurphi/mux/mcslock1.m", opt(func(o *verify.Options) { o.Symmetry = "heuristic" })},
		{"cache3", dir + "cmurphi/others/cache3.m", opt(func(o *verify.Options) { o.Symmetry = "exact" })},
		{"ns", dir + "cmurphi/secur/ns.m", opt(func(o *verify.Options) { o.Symmetry = "exact" })},
		{"german hash compaction", "../../examples/german.m", opt(func(o *verify.Options) { o.HashCompaction = 40; o.Symmetry = "exact" })},
		{"arbiter invariant", dir + "cmurphi/others/arbiter.m", opt(nil)},
		{"arbiter max-errors 4", dir + "cmurphi/others/arbiter.m", opt(func(o *verify.Options) { o.MaxErrors = 4 })},
		{"arbiter no deadlock", dir + "cmurphi/others/arbiter.m", opt(func(o *verify.Options) { o.Deadlock = "off"; o.MaxErrors = 3 })},
		{"sort5", dir + "cmurphi/toy/sort5.m", opt(nil)},
		{"multiple deadlocks", dir + "rumur/multiple-deadlocks.m", opt(func(o *verify.Options) { o.MaxErrors = 2 })},
		{"bound 5", dir + "cmurphi/mux/mcslock1.m", opt(func(o *verify.Options) { o.Bound = 5 })},
	}
}

// outboxSizes are the outbox bounds the parallel tests run with: as
// planned, and one successor, so that nearly every round ends where some
// part's outboxes filled (the state that did not fit undone, the others'
// records waiting for the next round) and outboxes that were empty grow
// to take a state's successors.
var outboxSizes = []struct {
	name    string
	records int
}{{"", 0}, {", outboxes of one successor", 1}}

// TestParallelSameAsSequential runs models with 1 worker and with 2, 3
// and 4: the results must be the same in every field but times and
// memory (states, rules, levels, covers, violations and their traces).
func TestParallelSameAsSequential(t *testing.T) {
	cases := append(testdataCases(t), corpusCases()...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := os.ReadFile(c.file)
			if err != nil {
				if strings.Contains(c.file, "shared/models") {
					t.Fatalf("corpus model missing: %v", err)
				}
				t.Fatal(err)
			}
			one := verify.Check(context.Background(), c.file, src, c.opts)
			want := comparable(t, one)
			for _, size := range outboxSizes {
				restore := explore.SetOutboxRecords(size.records)
				for _, n := range []int{2, 3, 4} {
					o := c.opts
					o.Workers = n
					got := verify.Check(context.Background(), c.file, src, o)
					w := want
					if hasNote(got, "cover statements' counts may include") {
						// Counted as the parts expanded, past the stop: the
						// rest must agree.
						w = comparable(t, withoutCovers(one))
						got = withoutCovers(got)
					}
					if g := comparable(t, got); g != w {
						restore()
						t.Fatalf("%d workers%s:\n%s\none worker:\n%s", n, size.name, g, w)
					}
					if got.Workers != n && !strings.Contains(c.name, "liveness") {
						restore()
						t.Fatalf("ran on %d workers, want %d", got.Workers, n)
					}
				}
				restore()
			}
		})
	}
}

// TestParallelDeterministic runs a failing model many times on 4 workers:
// the same violation and trace every time.
func TestParallelDeterministic(t *testing.T) {
	file := "../../../shared/models/cmurphi/others/arbiter.m"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	o := verify.Options{Options: job.Options{Symmetry: "off", MaxErrors: 5, Workers: 4}}
	first := comparable(t, verify.Check(context.Background(), file, src, o))
	for i := 0; i < 10; i++ {
		if got := comparable(t, verify.Check(context.Background(), file, src, o)); got != first {
			t.Fatalf("run %d differs:\n%s\nfirst:\n%s", i, got, first)
		}
	}
}

// TestParallelProgressAndCancel checks that a parallel run reports
// progress and stops when cancelled, with an incomplete verdict.
func TestParallelProgressAndCancel(t *testing.T) {
	file := "../../../shared/models/cmurphi/mux/mcslock1.m"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var samples atomic.Int64
	var lastStates atomic.Int64
	o := verify.Options{Options: job.Options{Symmetry: "off", Workers: 2, ProgressEvery: 1}}
	o.Progress = func(p job.Progress) {
		lastStates.Store(p.States)
		if samples.Add(1) == 3 {
			cancel()
		}
	}
	r := verify.Check(ctx, file, src, o)
	if samples.Load() < 3 {
		t.Fatalf("%d progress samples", samples.Load())
	}
	if r.Verdict != verify.Incomplete || !strings.Contains(r.Reason, "cancelled") {
		t.Fatalf("verdict %s (%s), want incomplete (cancelled)", r.Verdict, r.Reason)
	}
	if lastStates.Load() <= 0 {
		t.Fatalf("progress showed %d states", lastStates.Load())
	}
}

// TestParallelOneWorkerFallback checks the engines and options that run
// on one worker: liveness and locality, with a note; other engines refuse
// workers.
func TestParallelOneWorkerFallback(t *testing.T) {
	src, err := os.ReadFile("testdata/liveness.m")
	if err != nil {
		t.Fatal(err)
	}
	r := verify.Check(context.Background(), "liveness.m", src, verify.Options{Options: job.Options{Symmetry: "off", Workers: 2}})
	found := false
	for _, d := range r.Diagnostics {
		found = found || strings.Contains(d.Message, "one worker")
	}
	if !found {
		t.Fatalf("no note that liveness ran on one worker: %+v", r.Diagnostics)
	}
	if err := explore.Check(explore.Options{Algorithm: "dfs", Workers: 2}); err == nil {
		t.Fatal("dfs accepted 2 workers")
	}
	if err := explore.Check(explore.Options{Algorithm: "bfs", Workers: explore.MaxWorkers + 1}); err == nil {
		t.Fatal("bfs accepted more than MaxWorkers workers")
	}
}

// TestParallelBudget runs out of memory on several workers: incomplete,
// with the reason, and the peak within the budget.
func TestParallelBudget(t *testing.T) {
	file := "../../../shared/models/cmurphi/mux/mcslock1.m"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const limit = 4 << 20
	r := verify.Check(context.Background(), file, src, verify.Options{Options: job.Options{Symmetry: "off", Workers: 2, MemoryBytes: limit}})
	if r.Verdict != verify.Incomplete || !strings.Contains(r.Reason, "exhausted") {
		t.Fatalf("verdict %s (%s), want incomplete (exhausted)", r.Verdict, r.Reason)
	}
	if r.PeakBytes > limit || r.PeakBytes < limit/2 {
		t.Fatalf("peak %d bytes under a %d budget", r.PeakBytes, limit)
	}
}

// chanParts is a PartTransport over channels to parts served by
// verify.ServePart on goroutines: the wire protocol the browser's Web
// Workers speak, in one process.
type chanParts struct {
	to, from []chan []byte
	errs     chan error
}

func newChanParts(t *testing.T, file string, src []byte, o verify.Options) *chanParts {
	t.Helper()
	n := o.Workers
	c := &chanParts{to: make([]chan []byte, n), from: make([]chan []byte, n), errs: make(chan error, n)}
	for i := 1; i < n; i++ {
		c.to[i], c.from[i] = make(chan []byte, 1), make(chan []byte, 1)
		go func(i int) {
			recv := func() ([]byte, error) { return <-c.to[i], nil }
			send := func(b []byte) error { c.from[i] <- append([]byte(nil), b...); return nil }
			c.errs <- verify.ServePart(context.Background(), file, src, o, i, n, recv, send)
		}(i)
	}
	return c
}

func (c *chanParts) Send(i int, msg []byte) error {
	c.to[i] <- append([]byte(nil), msg...)
	return nil
}

func (c *chanParts) Recv(i int) ([]byte, error) { return <-c.from[i], nil }

// TestParallelRemoteParts runs parts through the wire protocol: the same
// results as one worker, and every part served to its close.
func TestParallelRemoteParts(t *testing.T) {
	var cases []parallelCase
	for _, c := range append(testdataCases(t), corpusCases()...) {
		switch c.name {
		case "deadlock.m", "maxerrors.m", "cover.m", "assume.m", "undefined-read.m", "mcslock1 sym",
			"german hash compaction", "arbiter max-errors 4", "sort5", "bound 5":
			cases = append(cases, c)
		}
	}
	if len(cases) != 10 {
		t.Fatalf("%d cases found, want 10", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			want := comparable(t, verify.Check(context.Background(), c.file, src, c.opts))
			for _, size := range outboxSizes {
				restore := explore.SetOutboxRecords(size.records)
				for _, n := range []int{2, 3} {
					o := c.opts
					o.Workers = n
					parts := newChanParts(t, c.file, src, o)
					o.Parts = parts
					got := verify.Check(context.Background(), c.file, src, o)
					for i := 1; i < n; i++ {
						if err := <-parts.errs; err != nil {
							restore()
							t.Fatalf("part: %v", err)
						}
					}
					if g := comparable(t, got); g != want {
						restore()
						t.Fatalf("%d workers%s, remote parts:\n%s\none worker:\n%s", n, size.name, g, want)
					}
				}
				restore()
			}
		})
	}
}

// releasingParts is a chanParts that records its release.
type releasingParts struct {
	*chanParts
	released bool
}

func (r *releasingParts) Release() { r.released = true }

// TestAutoParallel runs auto's exact phase on several workers: the same
// results as one worker where it ends there; where the workers' visited
// sets fill the budget, the search starts over on one worker (releasing
// remote parts), which goes on past the exact phase, with the result of
// a one-worker run and a note that says so.
func TestAutoParallel(t *testing.T) {
	dir := "../../../shared/models/"
	auto := func(f func(*verify.Options)) verify.Options {
		o := verify.Options{Options: job.Options{Algorithm: "auto", Symmetry: "off"}}
		if f != nil {
			f(&o)
		}
		return o
	}
	for _, c := range []parallelCase{
		{"mcslock1 sym", dir + "cmurphi/mux/mcslock1.m", auto(func(o *verify.Options) { o.Symmetry = "exact" })},
		{"arbiter invariant", dir + "cmurphi/others/arbiter.m", auto(nil)},
		{"deadlock", "testdata/deadlock.m", auto(nil)},
		{"mcslock1 budget 64 MiB", dir + "cmurphi/mux/mcslock1.m", auto(func(o *verify.Options) { o.MemoryBytes = 64 << 20 })},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			want := comparable(t, verify.Check(context.Background(), c.file, src, c.opts))
			o := c.opts
			o.Workers = 2
			got := verify.Check(context.Background(), c.file, src, o)
			if got.Workers != 2 {
				t.Fatalf("ran on %d workers, want 2", got.Workers)
			}
			if g := comparable(t, got); g != want {
				t.Fatalf("2 workers:\n%s\none worker:\n%s", g, want)
			}
			parts := newChanParts(t, c.file, src, o)
			o.Parts = parts
			if g := comparable(t, verify.Check(context.Background(), c.file, src, o)); g != want {
				t.Fatalf("2 workers, remote parts:\n%s\none worker:\n%s", g, want)
			}
			if err := <-parts.errs; err != nil {
				t.Fatalf("part: %v", err)
			}
		})
	}

	// The grid's 2M states in 32 MiB: one worker goes on with signatures;
	// two fill the budget in their exact sets.
	src := gridModel(1024, 2048)
	const file = "grid.m"
	o := auto(func(o *verify.Options) { o.MemoryBytes = 32 << 20 })
	one := verify.Check(context.Background(), file, src, o)
	if one.Verdict != verify.Pass || len(one.Phases) < 2 {
		t.Fatalf("one worker: %s (%s), phases %v: want a pass past the exact phase", one.Verdict, one.Reason, one.Phases)
	}
	for _, remote := range []bool{false, true} {
		o.Workers = 2
		o.Parts = nil
		var parts *releasingParts
		if remote {
			parts = &releasingParts{chanParts: newChanParts(t, file, src, o)}
			o.Parts = parts
		}
		got := verify.Check(context.Background(), file, src, o)
		note := false
		for _, d := range got.Diagnostics {
			note = note || strings.Contains(d.Message, "started over on one worker")
		}
		if !note {
			t.Fatalf("remote %v: no note that the search started over: %+v", remote, got.Diagnostics)
		}
		if got.Workers > 1 || got.Verdict != one.Verdict || *got.States != *one.States || got.RulesFired != one.RulesFired ||
			strings.Join(got.Phases, ",") != strings.Join(one.Phases, ",") {
			t.Fatalf("remote %v: %s, %d states, %d rules, phases %v on %d workers; one worker: %s, %d, %d, %v",
				remote, got.Verdict, *got.States, got.RulesFired, got.Phases, got.Workers, one.Verdict, *one.States, one.RulesFired, one.Phases)
		}
		if remote {
			if !parts.released {
				t.Fatal("the remote parts were not released")
			}
			if err := <-parts.errs; err != nil {
				t.Fatalf("part: %v", err)
			}
		}
	}
}

// gridModel is a model of a*b states (a pair of counters) and small
// ones: its states outgrow small budgets fast.
func gridModel(a, b int) []byte {
	return []byte(fmt.Sprintf(`var a: 0..%d; b: 0..%d;
startstate begin a := 0; b := 0; end;
rule "a" true ==> begin a := (a + 1) %% %d; end;
rule "b" true ==> begin b := (b + 1) %% %d; end;
`, a-1, b-1, a, b))
}

// TestAutoBudgetMonotone runs auto without storage under budgets from
// one that passes upward: a larger budget never ends a run that a smaller
// one completed. (When the counterexample trail, not the visited set, was
// what met the budget, auto ended incomplete instead of compacting the
// set: 12 MiB passed the grid's first half, 14-18 MiB did not.)
func TestAutoBudgetMonotone(t *testing.T) {
	src := gridModel(1024, 1024)
	for mb := int64(12); mb <= 24; mb += 2 {
		r := verify.Check(context.Background(), "grid.m", src, verify.Options{Options: job.Options{Algorithm: "auto", Symmetry: "off", MemoryBytes: mb << 20}})
		if r.Verdict != verify.Pass {
			t.Fatalf("%d MiB: %s (%s), phases %v", mb, r.Verdict, r.Reason, r.Phases)
		}
	}
}
