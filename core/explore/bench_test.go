package explore_test

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/verify"
)

// benchModel runs a whole exploration per iteration and reports rules
// fired per second and heap allocations per rule firing (which must stay
// near zero: the hot loop allocates nothing per rule).
func benchModel(b *testing.B, file string, sym explore.SymmetryMode) {
	benchModelOpts(b, file, explore.Options{Algorithm: "bfs", Symmetry: sym})
}

// benchModelOpts is benchModel with the options given; a run given a
// runtime for generated code must have run in it.
func benchModelOpts(b *testing.B, file string, opts explore.Options) {
	src, err := os.ReadFile(file)
	if err != nil {
		b.Skip("corpus model not available: ", err)
	}
	m, diags := verify.Compile(file, src)
	if m == nil {
		b.Fatal(diags)
	}
	b.ReportAllocs()
	var rules int64
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := explore.Run(context.Background(), m, opts)
		if r.Verdict != explore.Pass {
			b.Fatalf("verdict %s: %s", r.Verdict, r.Reason)
		}
		if opts.Generated != nil && r.CodeGen == "" {
			b.Fatalf("the closures ran the search: %v", r.Notes)
		}
		rules += r.RulesFired
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(rules)/b.Elapsed().Seconds(), "rules/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(rules), "allocs/rule")
}

func BenchmarkBFSMcslock1NoSym(b *testing.B) {
	benchModel(b, "../../../shared/models/cmurphi/mux/mcslock1.m", explore.SymmetryOff)
}

func BenchmarkBFSPetersonExact(b *testing.B) {
	benchModel(b, "../../../shared/models/cmurphi/mux/n_peterson.m", explore.SymmetryExact)
}

func BenchmarkBFSPetersonHeuristic(b *testing.B) {
	benchModel(b, "../../../shared/models/cmurphi/mux/n_peterson.m", explore.SymmetryHeuristic)
}

func BenchmarkBFSGermanExact(b *testing.B) {
	benchModel(b, "../../examples/german.m", explore.SymmetryExact)
}

// benchBounded runs a memory-bounded engine on mcslock1 (symmetry, 23636
// states) with a cache of a third of its states, reporting rules fired
// per second and allocations per rule (near zero: the node table, the open
// set and the queue are arenas allocated once).
func benchBounded(b *testing.B, algo string, opts explore.Options) {
	src, err := os.ReadFile("../../../shared/models/cmurphi/mux/mcslock1.m")
	if err != nil {
		b.Skip("corpus model not available: ", err)
	}
	m, diags := verify.Compile("mcslock1.m", src)
	if m == nil {
		b.Fatal(diags)
	}
	opts.Algorithm = algo
	b.ReportAllocs()
	var rules int64
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := explore.Run(context.Background(), m, opts)
		if r.Verdict != explore.Pass {
			b.Fatalf("verdict %s: %s", r.Verdict, r.Reason)
		}
		rules += r.RulesFired
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(rules)/b.Elapsed().Seconds(), "rules/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(rules), "allocs/rule")
}

func BenchmarkCacheBFSMcslock1(b *testing.B) {
	benchBounded(b, "cache-bfs", explore.Options{Params: map[string]float64{"cache": 8000}})
}

func BenchmarkCacheDFSMcslock1(b *testing.B) {
	benchBounded(b, "cache-dfs", explore.Options{Params: map[string]float64{"cache": 8000}})
}

func BenchmarkDFSReplaceMcslock1(b *testing.B) {
	benchBounded(b, "dfs-replace", explore.Options{Params: map[string]float64{"cache": 8000}})
}

func BenchmarkRBFSMcslock1(b *testing.B) {
	benchBounded(b, "rbfs", explore.Options{MemoryBytes: 4 << 20, HashBits: 40})
}
