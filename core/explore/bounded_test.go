package explore_test

// Tests of the engines that search in a bounded memory by forgetting
// states (state caching, DFS with replacement, randomized BFS): on models
// of testdata/bounded, with caches far smaller than the state space, they
// must visit exactly the states exact BFS visits, find its violations with
// traces that replay, stop incomplete when what they must keep does not
// fit, and never exceed their budget.

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/storagefs"
)

func compileTestModel(t *testing.T, file string) (*compile.Model, []byte) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m, diags := verify.Compile(file, src)
	if m == nil {
		t.Fatalf("%s: %v", file, diags)
	}
	return m, src
}

// visitedSet runs an engine and returns the distinct states it kept and
// its result.
func visitedSet(t *testing.T, m *compile.Model, opts explore.Options) (map[string]bool, *explore.Result) {
	t.Helper()
	seen := map[string]bool{}
	opts.Observe = func(s []byte) { seen[string(s)] = true }
	if opts.Symmetry == 0 {
		opts.Symmetry = explore.SymmetryOff
	}
	return seen, explore.Run(context.Background(), m, opts)
}

// TestForgettingEnginesVisitEverything: with caches of a tenth to a half
// of the state space, every cycle-detecting engine ends in pass, having
// kept every state exact BFS keeps, and more insertions than states.
func TestForgettingEnginesVisitEverything(t *testing.T) {
	for _, file := range []string{"testdata/bounded/ring.m", "testdata/bounded/wide.m"} {
		m, _ := compileTestModel(t, file)
		dfsCache := 0.3
		if strings.HasSuffix(file, "ring.m") {
			dfsCache = 1.1 // depth-first search of the torus runs through every state
		}
		want, ref := visitedSet(t, m, explore.Options{Algorithm: "bfs"})
		if ref.Verdict != explore.Pass {
			t.Fatalf("%s: bfs %v %s", file, ref.Verdict, ref.Reason)
		}
		for _, tc := range []struct {
			algo  string
			cache float64 // share of the state space
			param map[string]float64
		}{
			{"cache-dfs", dfsCache, nil},
			{"cache-dfs", dfsCache, map[string]float64{"strategy": 0}},
			{"cache-dfs", dfsCache, map[string]float64{"strategy": 4}},
			{"cache-alt", 0.6, map[string]float64{"bfs": 2, "dfs": 2}},
			{"cache-bfs", 0.5, nil},
			{"cache-bfs", 0.6, map[string]float64{"strategy": 2}},
			{"cache-bfs", 0.6, map[string]float64{"width": 16}},
			{"cache-sweep", 0.5, nil},
			{"dfs-replace", dfsCache, nil},
			{"dfs-replace", dfsCache, map[string]float64{"strategy": 4}},
		} {
			if tc.cache > 1 {
				// The whole state space and more: no test of forgetting.
				continue
			}
			params := map[string]float64{"cache": float64(int(tc.cache * float64(len(want)))), "max-revisits": 0}
			for k, v := range tc.param {
				params[k] = v
			}
			t.Run(file+"/"+tc.algo, func(t *testing.T) {
				got, r := visitedSet(t, m, explore.Options{Algorithm: tc.algo, Params: params, Seed: 3})
				if r.Verdict != explore.Pass || r.Guarantee != job.GuaranteeExact {
					t.Fatalf("%v (%s), guarantee %s; want an exact pass", r.Verdict, r.Reason, r.Guarantee)
				}
				if len(got) != len(want) {
					t.Fatalf("kept %d distinct states, bfs %d", len(got), len(want))
				}
				for s := range want {
					if !got[s] {
						t.Fatalf("a state bfs visits was never kept")
					}
				}
				if r.StatesExact || r.StatesVisited < int64(len(want)) {
					t.Fatalf("states exact %v, %d insertions: the cache should have forgotten states", r.StatesExact, r.StatesVisited)
				}
				if int64(len(want)) > r.CacheStates*2 && r.MaxStack > r.CacheStates {
					t.Fatalf("kept %d states that could not be forgotten in a cache of %d", r.MaxStack, r.CacheStates)
				}
			})
		}
	}
}

// TestSweepLine: the ring's progress measure wraps around, so the sweep
// goes on from the regress transitions' destinations; it still visits
// every state.
func TestSweepLine(t *testing.T) {
	m, _ := compileTestModel(t, "testdata/bounded/ring.m")
	if m.Progress == nil {
		t.Fatal("the progress measure was not compiled")
	}
	want, _ := visitedSet(t, m, explore.Options{Algorithm: "bfs"})
	got, r := visitedSet(t, m, explore.Options{Algorithm: "cache-sweep", Params: map[string]float64{"cache": 100, "max-revisits": 0}})
	if r.Verdict != explore.Pass || len(got) != len(want) {
		t.Fatalf("%v (%s): %d states, want %d", r.Verdict, r.Reason, len(got), len(want))
	}
	note := strings.Join(r.Notes, "; ")
	if !strings.Contains(note, "sweep-line") || strings.Contains(note, "sweep-line: 1 sweep(s)") || strings.Contains(note, " 0 state(s) deleted") {
		t.Fatalf("notes %q: want several sweeps and states deleted behind them", note)
	}
}

// TestForgettingEnginesFindViolations: deep.m fails 150 steps deep; with
// caches of a third of its states (depth-first search needs room for its
// 201-state path) each engine finds the violation and its trace replays
// on the model.
func TestForgettingEnginesFindViolations(t *testing.T) {
	file := "testdata/bounded/deep.m"
	_, src := compileTestModel(t, file)
	for _, tc := range []struct {
		algo string
		opts job.Options
	}{
		{"cache-bfs", job.Options{Params: map[string]float64{"cache": 200}}},
		{"cache-dfs", job.Options{Params: map[string]float64{"cache": 300}}},
		{"cache-alt", job.Options{Params: map[string]float64{"cache": 300}}},
		{"cache-sweep", job.Options{Params: map[string]float64{"cache": 200}}},
		{"dfs-replace", job.Options{Params: map[string]float64{"cache": 300}}},
		{"rbfs", job.Options{MemoryBytes: 256 << 10, Seed: 5}},
	} {
		t.Run(tc.algo, func(t *testing.T) {
			o := tc.opts
			o.Algorithm, o.Symmetry = tc.algo, "off"
			res := verify.Check(context.Background(), file, src, verify.Options{Options: o})
			if res.Verdict != verify.Fail || res.Violation == nil || res.Violation.Kind != "invariant" {
				t.Fatalf("%s %s %+v, want an invariant violation", res.Verdict, res.Reason, res.Violation)
			}
			m, _ := verify.Compile(file, src)
			if err := verify.Replay(m, res.Violation); err != nil {
				t.Fatalf("the trace does not replay: %v", err)
			}
			if len(res.Violation.Trace) < 152 {
				t.Fatalf("a trace of %d steps; the violation is 151 steps deep", len(res.Violation.Trace))
			}
		})
	}
}

// TestWhatMustBeKeptDoesNotFit: the TD-tree of wide.m's BFS and the DFS
// stack of deep.m's chain need more than the cache; the runs end
// incomplete and say why.
func TestWhatMustBeKeptDoesNotFit(t *testing.T) {
	for _, tc := range []struct {
		file, algo string
		cache      float64
		want       string
	}{
		{"testdata/bounded/wide.m", "cache-bfs", 200, "TD-tree"},
		{"testdata/bounded/deep.m", "dfs-replace", 100, "depth-first stack"},
		{"testdata/bounded/deep.m", "cache-dfs", 100, "TD-tree"},
	} {
		t.Run(tc.algo, func(t *testing.T) {
			m, _ := compileTestModel(t, tc.file)
			r := explore.Run(context.Background(), m, explore.Options{Algorithm: tc.algo, Symmetry: explore.SymmetryOff,
				Deadlock: explore.DeadlockOff, Params: map[string]float64{"cache": tc.cache}})
			if r.Verdict != explore.Incomplete || !strings.Contains(r.Reason, tc.want) {
				t.Fatalf("%v (%s), want incomplete because the %s does not fit", r.Verdict, r.Reason, tc.want)
			}
		})
	}
}

// TestBudgetsHold runs every forgetting engine under budgets from ample to
// too small: the engine's peak never passes the budget, and a run that
// cannot fit ends incomplete, not in error.
func TestBudgetsHold(t *testing.T) {
	m, _ := compileTestModel(t, "testdata/bounded/wide.m")
	for _, algo := range []string{"cache-bfs", "cache-dfs", "cache-alt", "cache-sweep", "dfs-replace", "rbfs"} {
		for _, budget := range []int64{4 << 20, 256 << 10, 64 << 10, 16 << 10} {
			params := map[string]float64{"max-revisits": 50}
			if algo == "rbfs" {
				params = nil
			}
			r := explore.Run(context.Background(), m, explore.Options{Algorithm: algo, Symmetry: explore.SymmetryOff, MemoryBytes: budget,
				Params: params, Seed: 1, FS: storagefs.NewMemory(storagefs.Options{})})
			if r.PeakBytes > budget {
				t.Errorf("%s under %d bytes: peak %d", algo, budget, r.PeakBytes)
			}
			if r.Verdict == explore.Error || r.Verdict == explore.Fail {
				t.Errorf("%s under %d bytes: %v %s", algo, budget, r.Verdict, r.Reason)
			}
		}
	}
}

// TestRBFS: a run is reproducible from its seed, and ends either in a pass
// with an omission estimate or incomplete, never in a plain pass.
func TestRBFS(t *testing.T) {
	m, _ := compileTestModel(t, "testdata/bounded/wide.m")
	run := func(seed int64, budget int64) *explore.Result {
		return explore.Run(context.Background(), m, explore.Options{Algorithm: "rbfs", Symmetry: explore.SymmetryOff, MemoryBytes: budget, Seed: seed,
			HashBits: 40, Params: map[string]float64{"g": 0.5, "k": 50}, FS: storagefs.NewMemory(storagefs.Options{})})
	}
	a, b := run(7, 48<<10), run(7, 48<<10)
	if a.StatesVisited != b.StatesVisited || len(a.Visits) != len(b.Visits) || a.RulesFired != b.RulesFired {
		t.Fatalf("seed 7 twice: %d/%d insertions, %d/%d visits", a.StatesVisited, b.StatesVisited, len(a.Visits), len(b.Visits))
	}
	differ := false
	for seed := int64(1); seed <= 6; seed++ {
		r := run(seed, 48<<10)
		if r.StatesVisited != a.StatesVisited {
			differ = true
		}
		switch r.Verdict {
		case explore.Pass:
			if r.Guarantee != job.GuaranteeOmissionEstimate || r.OmissionEstimate == nil || *r.OmissionEstimate >= 0.01 {
				t.Fatalf("seed %d: a pass with guarantee %s, estimate %v", seed, r.Guarantee, r.OmissionEstimate)
			}
		case explore.Incomplete:
			if r.Guarantee != job.GuaranteeNotComplete {
				t.Fatalf("seed %d: incomplete with guarantee %s", seed, r.Guarantee)
			}
		default:
			t.Fatalf("seed %d: %v %s", seed, r.Verdict, r.Reason)
		}
		if len(r.Visits) == 0 {
			t.Fatalf("seed %d: no visit recorded", seed)
		}
	}
	if !differ {
		t.Fatalf("six seeds gave the same run")
	}
	// Ample memory: one visit, nothing left out, an estimate of 0.
	r := run(1, 8<<20)
	if r.Verdict != explore.Pass || *r.OmissionEstimate != 0 || r.Visits[len(r.Visits)-1].Dropped != 0 {
		t.Fatalf("ample memory: %v %s %+v", r.Verdict, r.Reason, r.Visits)
	}
}

// TestRBFSVisitsFollowTheDepth: padded.m is 13 levels deep with 140-bit
// states. A visit of [N, 3N] levels for N state bits (Fig. 3 read
// literally) never ended under a small cache: the state overhead reached
// its limit inside visit 1 and the observer sampled nothing. Visits as long
// as the depth found give several visits, samples from the first one, and
// an estimate that falls from one visit to the next; a run the observer
// accepts has met every state.
func TestRBFSVisitsFollowTheDepth(t *testing.T) {
	m, _ := compileTestModel(t, "testdata/bounded/padded.m")
	falls := false
	for seed := int64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			seen := map[string]bool{}
			r := explore.Run(context.Background(), m, explore.Options{Algorithm: "rbfs", Symmetry: explore.SymmetryOff,
				Deadlock: explore.DeadlockOff, MemoryBytes: 32000, Seed: seed, Params: map[string]float64{"k": 40},
				FS: storagefs.NewMemory(storagefs.Options{}), Observe: func(s []byte) { seen[string(s)] = true }})
			if r.CacheStates*4 > 4096 {
				t.Fatalf("a cache of %d states: the test wants one far smaller than the 4096 states", r.CacheStates)
			}
			switch r.Verdict {
			case explore.Pass:
				if len(seen) != 4096 {
					t.Fatalf("accepted (estimate %v) after meeting %d of the 4096 states", *r.OmissionEstimate, len(seen))
				}
			case explore.Incomplete:
			default:
				t.Fatalf("%v %s", r.Verdict, r.Reason)
			}
			if len(r.Visits) < 2 {
				t.Fatalf("%d visit(s) (%+v), want several", len(r.Visits), r.Visits)
			}
			first, last := r.Visits[0], r.Visits[len(r.Visits)-1]
			if first.Samples == 0 {
				t.Fatalf("visit 1 of %d levels sampled nothing", first.Levels)
			}
			if last.PomIs < first.PomIs {
				falls = true
			}
		})
	}
	if !falls {
		t.Fatalf("in no run did PomIs fall from visit 1 to the last")
	}
}
