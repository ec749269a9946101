//go:build !js

package explore_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/core/wasmgen"
	"github.com/locus-mc/locus/core/wasmgen/nativerun"
	"github.com/locus-mc/locus/core/wasmgen/wazerorun"
	"github.com/locus-mc/locus/storagefs"
)

// TestGeneratedSameAsClosures runs every testdata model and some corpus
// models once on the compiled closures and once with generated code
// (core/wasmgen, run by wazero): the results must be the same in every
// field but times and memory. A model the generator does not cover runs
// on the closures and says why; enough models must be covered that the
// comparison means something.
func TestGeneratedSameAsClosures(t *testing.T) { sameAsClosures(t, wazerorun.Runtime{}) }

// TestTranslatedSameAsClosures is TestGeneratedSameAsClosures for the
// modules translated to Go and built as programs (nativerun).
func TestTranslatedSameAsClosures(t *testing.T) { sameAsClosures(t, nativeRuntime(t)) }

// nativeRuntime is nativerun's runtime, building into a directory of the
// test's.
func nativeRuntime(t *testing.T) wasmgen.Runtime {
	if why := nativerun.Available(); why != "" {
		t.Skip(why)
	}
	return nativerun.Runtime{CacheDir: t.TempDir()}
}

func sameAsClosures(t *testing.T, rt wasmgen.Runtime) {
	// Unbounded, so that large modules (adash, sci) are compared too.
	defer explore.SetGeneratedMaxCode(0)()
	dir := "../../../shared/models/"
	cases := testdataCases(t)
	files, err := filepath.Glob(dir + "rumur/*.m")
	if err != nil || len(files) < 100 {
		t.Fatalf("the rumur corpus is missing (%d models)", len(files))
	}
	files = append(files, dir+"cmurphi/others/arbiter.m", dir+"cmurphi/toy/sort5.m", dir+"cmurphi/toy/pingpong.m",
		dir+"cmurphi/others/cache3.m", dir+"cmurphi/dash/adash.m", dir+"cmurphi/sym/list6.m", // alias rules; unions
		dir+"cmurphi/sci/sci.m", dir+"cmurphi/others/dp4.m", // functions
		dir+"cmurphi/multiset+sym/newlist6.m", // multisets, chooses
		dir+"cmurphi/secur/ns.m")              // rule priorities
	files = append(files, "../../examples/bakery.m") // a ruleset over a range, a while loop
	symFiles, err := filepath.Glob(dir + "cmurphi/sym/*.m")
	if err != nil || len(symFiles) == 0 {
		t.Fatal("the cmurphi corpus is missing")
	}
	for _, f := range files {
		name := strings.TrimPrefix(strings.TrimPrefix(f, dir), "../../")
		cases = append(cases, parallelCase{name, f, verify.Options{Options: job.Options{Symmetry: "off"}}})
	}
	// Models with scalarsets again with symmetry reduction, which
	// generated code does as the Reducer (see wasmgen's canon); the
	// larger ones (n_peterson) only so.
	for _, f := range symFiles {
		if !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(bytes.ToLower(src), []byte("scalarset")) {
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(f, dir), "../../")
		for _, mode := range []string{"exact", "heuristic"} {
			cases = append(cases, parallelCase{name + " sym=" + mode, f, verify.Options{Options: job.Options{Symmetry: mode}}})
		}
	}
	// Hash compaction: the models with a violation (the trail rebuilds
	// their traces from parents and rules, the states being gone), and
	// models of many queue chunks (2^14 states each), which the search
	// reuses as it goes.
	for _, c := range testdataCases(t) {
		c.name += " hash=40"
		c.opts.HashCompaction = 40
		cases = append(cases, c)
	}
	for _, c := range []parallelCase{
		{"cmurphi/sym/mcslock1.m", dir + "cmurphi/sym/mcslock1.m", verify.Options{Options: job.Options{Symmetry: "off"}}},
		{"cmurphi/sym/n_peterson.m", dir + "cmurphi/sym/n_peterson.m", verify.Options{Options: job.Options{Symmetry: "exact"}}},
		{"cmurphi/others/dp4.m", dir + "cmurphi/others/dp4.m", verify.Options{Options: job.Options{Symmetry: "off"}}},
	} {
		c.name += " hash=64"
		c.opts.HashCompaction = 64
		cases = append(cases, c)
	}
	// Reading records ahead (pass 2b), which searches do only past
	// millions of states, from the first: the models with a violation
	// and a few of the corpus.
	readAhead := len(cases)
	for _, c := range testdataCases(t) {
		c.name += " read-ahead"
		cases = append(cases, c)
	}
	for _, f := range []string{"cmurphi/others/cache3.m", "cmurphi/dash/adash.m", "cmurphi/others/dp4.m"} {
		cases = append(cases, parallelCase{f + " read-ahead", dir + f, verify.Options{Options: job.Options{Symmetry: "off"}}})
	}
	var generated atomic.Int64
	run := func(t *testing.T, c parallelCase) {
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if _, why := compareGenerated(t, c.file, src, c.opts, rt); why != "" {
			t.Logf("closures: %s", why)
		} else {
			generated.Add(1)
		}
	}
	// Two at a time (go test's -parallel is the number of cores): a
	// translated model is a go build each, whose link is one thread.
	t.Run("models", func(t *testing.T) {
		for _, c := range cases[:readAhead] {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				run(t, c)
			})
		}
	})
	for _, c := range cases[readAhead:] {
		t.Run(c.name, func(t *testing.T) {
			defer explore.SetGeneratedReadAhead(1)()
			run(t, c)
		})
	}
	if n := int(generated.Load()); n < len(cases)/3 {
		t.Fatalf("only %d of %d models ran in generated code", n, len(cases))
	}
	t.Logf("%d of %d models ran in generated code", generated.Load(), len(cases))
}

// TestGeneratedOutOfMemory runs models under budgets their generated
// search cannot hold (the module keeps every state, the queue and the
// trail in its memory) but the closures can, by spilling to storage: the
// closures must run the search again, with a note saying so, and the
// result must be theirs (the same verdict and counts as an unbudgeted
// run), never an incomplete verdict.
func TestGeneratedOutOfMemory(t *testing.T) { outOfMemory(t, wazerorun.Runtime{}) }

// TestTranslatedOutOfMemory is TestGeneratedOutOfMemory for nativerun.
func TestTranslatedOutOfMemory(t *testing.T) { outOfMemory(t, nativeRuntime(t)) }

func outOfMemory(t *testing.T, rt wasmgen.Runtime) {
	for _, tc := range []struct {
		file     string
		fraction float64 // of the budget for the queue's memory part
		scale    float64 // budget as a share of the generated code's unbudgeted peak
	}{
		{"testdata/wide.m", 0, 0.9},
		{"../../examples/german.m", 0.01, 0.85},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			opts := job.Options{Algorithm: "bfs", Symmetry: "off"}
			base := verify.Check(context.Background(), tc.file, src, verify.Options{Options: opts})
			gen := verify.Check(context.Background(), tc.file, src, verify.Options{Options: opts, Generated: rt})
			if gen.CodeGen != rt.Name() || gen.Verdict != verify.Pass || *gen.States != *base.States {
				t.Fatalf("unbudgeted, the generated code must run this model: code_gen %q, %s (%+v)", gen.CodeGen, gen.Verdict, gen.Diagnostics)
			}
			opts.MemoryBytes = int64(float64(gen.PeakBytes) * tc.scale)
			opts.QueueFraction = tc.fraction
			want := verify.Check(context.Background(), tc.file, src, verify.Options{Options: opts, FS: storagefs.NewMemory(storagefs.Options{})})
			got := verify.Check(context.Background(), tc.file, src, verify.Options{Options: opts, FS: storagefs.NewMemory(storagefs.Options{}), Generated: rt})
			if got.Verdict != verify.Pass || *got.States != *base.States || got.RulesFired != base.RulesFired {
				t.Fatalf("under %d bytes: %s, %d states, %d rules (%s); unbudgeted: %d states, %d rules", opts.MemoryBytes, got.Verdict, *got.States, got.RulesFired, got.Reason, *base.States, base.RulesFired)
			}
			if got.CodeGen != "" {
				t.Fatalf("under %d bytes the generated code completed the search (code_gen %q): the budget does not test running out", opts.MemoryBytes, got.CodeGen)
			}
			note := ""
			for _, d := range got.Diagnostics {
				if strings.Contains(d.Message, "ran again on the compiled closures") {
					note = d.Message
				}
			}
			if note == "" {
				t.Fatalf("no note says the closures ran the search again: %+v", got.Diagnostics)
			}
			t.Log(note)
			if got.DiskWritten == 0 {
				t.Fatalf("the closures did not spill under %d bytes", opts.MemoryBytes)
			}
			if g, w := comparable(t, got), comparable(t, want); g != w {
				t.Fatalf("generated, then closures:\n%s\nclosures:\n%s", g, w)
			}
		})
	}
}

// BenchmarkGeneratedMcslock1NoSym runs BenchmarkBFSMcslock1NoSym's search
// in generated code on wazero, natively, to compare with the closures.
func BenchmarkGeneratedMcslock1NoSym(b *testing.B) {
	benchModelOpts(b, "../../../shared/models/cmurphi/mux/mcslock1.m", explore.Options{Algorithm: "bfs", Symmetry: explore.SymmetryOff, Generated: wazerorun.Runtime{}})
}

// TestGeneratedAuto: auto (the browser's default engine) runs its exact
// phase in generated code where the generator covers the model; the
// results must be the closures' (unbudgeted, and under a budget the
// generated search cannot hold, where the closures start over and go on
// past the exact phase).
func TestGeneratedAuto(t *testing.T) {
	generated := 0
	for _, c := range testdataCases(t) {
		t.Run(c.name, func(t *testing.T) {
			src, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			c.opts.Algorithm = "auto"
			want := verify.Check(context.Background(), c.file, src, c.opts)
			o := c.opts
			o.Generated = wazerorun.Runtime{}
			got := verify.Check(context.Background(), c.file, src, o)
			if got.CodeGen != "" {
				generated++
			}
			got.CodeGen = ""
			if g, w := comparable(t, got), comparable(t, want); g != w {
				t.Fatalf("generated:\n%s\nclosures:\n%s", g, w)
			}
		})
	}
	if generated == 0 {
		t.Fatal("no model ran in generated code")
	}
	t.Run("budget", func(t *testing.T) {
		file := "testdata/wide.m"
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		opts := job.Options{Algorithm: "auto", Symmetry: "off"}
		base := verify.Check(context.Background(), file, src, verify.Options{Options: opts})
		opts.MemoryBytes = base.PeakBytes / 2
		want := verify.Check(context.Background(), file, src, verify.Options{Options: opts, FS: storagefs.NewMemory(storagefs.Options{})})
		got := verify.Check(context.Background(), file, src, verify.Options{Options: opts, FS: storagefs.NewMemory(storagefs.Options{}), Generated: wazerorun.Runtime{}})
		if got.CodeGen != "" || !slices.ContainsFunc(got.Diagnostics, func(d verify.Diagnostic) bool {
			return strings.Contains(d.Message, "ran again on the compiled closures")
		}) {
			t.Fatalf("code_gen %q, notes %+v: the generated search should have run out of memory", got.CodeGen, got.Diagnostics)
		}
		if len(want.Phases) < 2 {
			t.Fatalf("phases %v: the budget does not take auto past its exact phase", want.Phases)
		}
		for _, r := range []*verify.Result{got, want} {
			if r.Disk != nil {
				for i := range r.Disk.Cloud {
					r.Disk.Cloud[i].Seconds = 0 // times
				}
			}
		}
		if g, w := comparable(t, got), comparable(t, want); g != w {
			t.Fatalf("generated, then closures:\n%s\nclosures:\n%s", g, w)
		}
	})
	// Between: the exact states do not fit, their 64-bit hashes do. The
	// search runs again in generated code with hash compaction, with the
	// exact search's counts, and says so.
	t.Run("compact", func(t *testing.T) {
		file := "../../../shared/models/cmurphi/sci/sci.m"
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		opts := job.Options{Algorithm: "auto", Symmetry: "off"}
		exact := verify.Check(context.Background(), file, src, verify.Options{Options: opts, Generated: wazerorun.Runtime{}})
		compact := verify.Check(context.Background(), file, src, verify.Options{Options: job.Options{Algorithm: "bfs", Symmetry: "off", HashCompaction: 64}, Generated: wazerorun.Runtime{}})
		if exact.CodeGen == "" || compact.CodeGen == "" || compact.PeakBytes >= exact.PeakBytes {
			t.Fatalf("unbudgeted: exact %q, %d bytes; compact %q, %d bytes", exact.CodeGen, exact.PeakBytes, compact.CodeGen, compact.PeakBytes)
		}
		opts.MemoryBytes = (exact.PeakBytes + compact.PeakBytes) / 2
		got := verify.Check(context.Background(), file, src, verify.Options{Options: opts, FS: storagefs.NewMemory(storagefs.Options{}), Generated: wazerorun.Runtime{}})
		if got.CodeGen != "wazero" || !slices.Equal(got.Phases, []string{"compact"}) || got.Verdict != verify.Pass || *got.States != *exact.States ||
			got.RulesFired != exact.RulesFired || got.Guarantee != "omission-bound" || !slices.ContainsFunc(got.Diagnostics, func(d verify.Diagnostic) bool {
			return strings.Contains(d.Message, "ran again from the start in it, with 64-bit hash compaction")
		}) {
			t.Fatalf("under %d bytes: code_gen %q, phases %v, %s, %d states, %d rules, %s, %+v; exact: %d states, %d rules",
				opts.MemoryBytes, got.CodeGen, got.Phases, got.Verdict, *got.States, got.RulesFired, got.Guarantee, got.Diagnostics, *exact.States, exact.RulesFired)
		}
		if got.PeakBytes > opts.MemoryBytes {
			t.Fatalf("peak %d bytes over the budget of %d", got.PeakBytes, opts.MemoryBytes)
		}
	})
}

// BenchmarkGeneratedList6NoSym and BenchmarkBFSList6NoSym compare wazero's
// run of the generated module with the closures on a model of unions.
func BenchmarkGeneratedList6NoSym(b *testing.B) {
	benchModelOpts(b, "../../../shared/models/cmurphi/sym/list6.m", explore.Options{Algorithm: "bfs", Symmetry: explore.SymmetryOff, Generated: wazerorun.Runtime{}})
}

func BenchmarkBFSList6NoSym(b *testing.B) {
	benchModelOpts(b, "../../../shared/models/cmurphi/sym/list6.m", explore.Options{Algorithm: "bfs", Symmetry: explore.SymmetryOff})
}

// BenchmarkGeneratedCache3NoSym and BenchmarkBFSCache3NoSym: the same on
// the largest table model (6.8 M states; about a minute each).
func BenchmarkGeneratedCache3NoSym(b *testing.B) {
	benchModelOpts(b, "../../../shared/models/cmurphi/sym/cache3.m", explore.Options{Algorithm: "bfs", Symmetry: explore.SymmetryOff, Generated: wazerorun.Runtime{}})
}

func BenchmarkBFSCache3NoSym(b *testing.B) {
	benchModelOpts(b, "../../../shared/models/cmurphi/sym/cache3.m", explore.Options{Algorithm: "bfs", Symmetry: explore.SymmetryOff})
}

// TestGeneratedCodeBound: a model whose module would pass the code bound
// runs on the closures and says why; a smaller one still runs in generated
// code. (The corpus has no model above the shipped bound, so the test
// lowers it: adash's module is 0.37 MB, others/cache3's 0.09 MB.)
func TestGeneratedCodeBound(t *testing.T) {
	defer explore.SetGeneratedMaxCode(256 << 10)()
	dir := "../../../shared/models/cmurphi/"
	for _, c := range []struct {
		file      string
		generated bool
	}{{"dash/adash.m", false}, {"others/cache3.m", true}} {
		src, err := os.ReadFile(dir + c.file)
		if err != nil {
			t.Fatal(err)
		}
		o := verify.Options{Options: job.Options{Symmetry: "off", Workers: 1, Algorithm: "bfs"}}
		o.Generated = wazerorun.Runtime{}
		got := verify.Check(context.Background(), c.file, src, o)
		if (got.CodeGen != "") != c.generated {
			t.Fatalf("%s: code_gen %q, want generated %v; notes %+v", c.file, got.CodeGen, c.generated, got.Diagnostics)
		}
		if !c.generated {
			found := false
			for _, d := range got.Diagnostics {
				found = found || strings.Contains(d.Message, "bytes of code")
			}
			if !found {
				t.Fatalf("%s: no note says the module is too large: %+v", c.file, got.Diagnostics)
			}
		}
	}
}

// TestGeneratedCancelled: a generated search cancelled mid-way ends
// incomplete, and its reason counts the states it found (the trail, which
// the closures count, is filled only for a counterexample).
func TestGeneratedCancelled(t *testing.T) {
	file := "testdata/wide.m"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := verify.Options{Options: job.Options{Algorithm: "bfs", Symmetry: "off", ProgressEvery: 1}, Generated: wazerorun.Runtime{}}
	opts.Progress = func(p verify.Progress) {
		if p.States > 10000 {
			cancel()
		}
	}
	r := verify.Check(ctx, file, src, opts)
	if r.CodeGen != "wazero" || r.Verdict != verify.Incomplete {
		t.Fatalf("code_gen %q, %s (%s)", r.CodeGen, r.Verdict, r.Reason)
	}
	want := fmt.Sprintf("after %d states", *r.States)
	if *r.States <= 10000 || !strings.Contains(r.Reason, want) {
		t.Fatalf("reason %q, %d states: want %q", r.Reason, *r.States, want)
	}
}

// TestGeneratedCancelledChecksWaiting: a generated search that checks
// invariants when it expands states (wasmgen's CheckAtExpansion) and is
// cancelled checks the states it found but did not expand: x = 5 fails
// the invariant, found in the level before the cancellation is seen. The
// closures, checking it when they found it, stopped there: so does the
// result.
//
// The search returns to the host at each level's end here, where the
// progress reports come: generated runs otherwise go on past levels
// within a call.
func TestGeneratedCancelledChecksWaiting(t *testing.T) {
	defer explore.SetGeneratedThroughLevels(false)()
	src := []byte(`var x: 0 .. 9;
startstate x := 0; endstartstate;
rule "step" x < 9 ==> x := x + 1; endrule;
invariant "below five" x < 5;
`)
	m, diags := verify.Compile("steps.m", src)
	if m == nil {
		t.Fatal(diags)
	}
	for _, hash := range []int{0, 40} {
		ctx, cancel := context.WithCancel(context.Background())
		cancelled := false
		opts := explore.Options{Algorithm: "bfs", Symmetry: explore.SymmetryOff, HashBits: hash, ProgressEvery: 1, Generated: wazerorun.Runtime{}}
		opts.Progress = func(p job.Progress) {
			if p.States >= 5 { // x = 4 found; seen once x = 4 is expanded
				cancel()
				cancelled = true
			}
		}
		r := explore.Run(ctx, m, opts)
		cancel()
		if !cancelled {
			t.Fatalf("hash %d: the run was not cancelled, and tests nothing", hash)
		}
		if r.CodeGen != "wazero" || r.Verdict != explore.Fail || len(r.Violations) != 1 || r.Violations[0].Name != "below five" || len(r.Violations[0].Trace) != 6 {
			t.Fatalf("hash %d: code_gen %q, %s (%s), violations %+v", hash, r.CodeGen, r.Verdict, r.Reason, r.Violations)
		}
		if r.States != 5 || r.RulesFired != 5 || r.Reason != "" || !slices.Equal(r.LevelSizes, []int64{1, 1, 1, 1, 1}) {
			t.Fatalf("hash %d: %d states, %d rules, levels %v, reason %q: want the closures' 5, 5, [1 1 1 1 1] and none", hash, r.States, r.RulesFired, r.LevelSizes, r.Reason)
		}
	}
}

// TestGeneratedCompactCollisions checks what hash compaction in generated
// code means when states collide: its index narrowed to 32-bit keys,
// mcslock1's 554,221 states hold about 36 pairs of equal keys, and the
// search must take each later state of a pair for the earlier one, as a
// plain breadth-first search written here does with a set of the keys
// (the top 32 bits of each packed state's hash): the same states and rules
// counted, and fewer states than the model has.
func TestGeneratedCompactCollisions(t *testing.T) {
	for _, rt := range []wasmgen.Runtime{wazerorun.Runtime{}, nativeRuntime(t)} {
		t.Run(rt.Name(), func(t *testing.T) { compactCollisions(t, rt) })
	}
}

func compactCollisions(t *testing.T, rt wasmgen.Runtime) {
	defer explore.SetGeneratedKeyBits(32)()
	file := "../../../shared/models/cmurphi/sym/mcslock1.m"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m, diags := verify.Compile(file, src)
	if m == nil {
		t.Fatal(diags)
	}
	// The plain search: keys of the states kept, the queue of their slots.
	mc := m.NewMachine()
	buf := make([]byte, m.StateBytes+8)
	seen := map[uint64]bool{}
	var queue [][]int64
	keep := func(slots []int64) {
		m.Pack(slots, buf)
		k := state.LaneHash(buf[:m.StateBytes]) >> 32
		if !seen[k] {
			seen[k] = true
			queue = append(queue, slices.Clone(slots))
		}
	}
	for i := range m.Starts {
		if err, assumed := mc.RunStart(i); err != nil || assumed {
			t.Fatalf("start state %d: %v, %v", i, err, assumed)
		}
		keep(mc.State())
	}
	rules := int64(0)
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for r := range m.Rules {
			fired, err := mc.Fire(cur, r)
			if err != nil {
				t.Fatal(err)
			}
			if fired {
				rules++
				keep(mc.State())
			}
		}
	}
	exact := verify.Check(context.Background(), file, src, verify.Options{Options: job.Options{Symmetry: "off", Workers: 1}})
	if int64(len(seen)) >= *exact.States {
		t.Fatalf("32-bit keys made no collision: %d states, as many as the model's %d", len(seen), *exact.States)
	}
	got := verify.Check(context.Background(), file, src, verify.Options{Options: job.Options{Symmetry: "off", Workers: 1, HashCompaction: 40}, Generated: rt})
	if got.CodeGen != rt.Name() {
		t.Fatalf("code_gen %q: %+v", got.CodeGen, got.Diagnostics)
	}
	if got.Verdict != verify.Pass || *got.States != int64(len(seen)) || got.RulesFired != rules {
		t.Fatalf("generated: %s, %d states, %d rules; the plain search: %d states, %d rules (of %d states)",
			got.Verdict, *got.States, got.RulesFired, len(seen), rules, *exact.States)
	}
	if got.OmissionBound < 1 {
		t.Fatalf("omission bound %g for 32-bit keys on %d states", got.OmissionBound, *got.States)
	}
	t.Logf("%d states of %d kept, %d rules", *got.States, *exact.States, rules)
}

// TestGeneratedDeepTraces compares counterexamples the generated search
// rebuilds from its marks (a state's parent is the first of 32 states with
// a rule to it, or under hash compaction the one its record places among
// them: see wasmgen.MarkShift) with the closures', on a grid whose
// states have two parents each and whose violations lie hundreds of levels
// and two record chunks deep: an invariant, a deadlock, and violations
// recorded on the way (MaxErrors).
func TestGeneratedDeepTraces(t *testing.T) {
	const grid = `
const N: 140;
var x: 0..N; y: 0..N;
startstate begin x := 0; y := 0; end;
rule "x" x < N ==> begin x := x + 1; end;
rule "y" y < N ==> begin y := y + 1; end;
`
	cases := []struct {
		name, src string
		opts      job.Options
	}{
		{"invariant", grid + `invariant "far" !(x = N & y = N - 3);`, job.Options{}},
		{"deadlock", grid, job.Options{}},
		{"recorded", grid + `invariant "edge" x < N | y < 120;`, job.Options{MaxErrors: 5}},
		{"invariant hash=40", grid + `invariant "far" !(x = N & y = N - 3);`, job.Options{HashCompaction: 40}},
		{"recorded hash=40", grid + `invariant "edge" x < N | y < 120;`, job.Options{MaxErrors: 5, HashCompaction: 40}},
	}
	for _, rt := range []wasmgen.Runtime{wazerorun.Runtime{}, nativeRuntime(t)} {
		for _, c := range cases {
			t.Run(rt.Name()+"/"+c.name, func(t *testing.T) {
				c.opts.Symmetry = "off"
				got, why := compareGenerated(t, c.name+".m", []byte(c.src), verify.Options{Options: c.opts}, rt)
				if why != "" {
					t.Fatalf("ran on the closures: %s", why)
				}
				if got.Violation == nil || len(got.Violation.Trace) < 250 {
					t.Fatalf("verdict %s: want a violation with a trace of at least 250 steps", got.Verdict)
				}
				for _, v := range got.Violations {
					if len(v.Trace) < 120 {
						t.Fatalf("a recorded violation's trace of %d steps", len(v.Trace))
					}
				}
			})
		}
	}
}
