package explore_test

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/verify"
)

// TestAllocationsPerRule checks that the search loop allocates nothing per
// rule firing or per state: what a run allocates (the visited set growing
// part by part, queue and trail chunks) is a few thousand allocations
// however many rules fire. One allocation per state would be 0.25 per rule
// here (mcslock1 fires four rules per state).
func TestAllocationsPerRule(t *testing.T) {
	const file = "../../../shared/models/cmurphi/mux/mcslock1.m"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal("the corpus must be in ../shared/models: ", err)
	}
	m, diags := verify.Compile(file, src)
	if m == nil {
		t.Fatal(diags)
	}
	const most = 0.05 // allocations per rule
	for _, tc := range []struct {
		name string
		sym  explore.SymmetryMode
	}{
		{"off", explore.SymmetryOff},
		{"exact", explore.SymmetryExact},
		{"heuristic", explore.SymmetryHeuristic},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			r := explore.Run(context.Background(), m, explore.Options{Algorithm: "bfs", Symmetry: tc.sym})
			runtime.ReadMemStats(&after)
			if r.Verdict != explore.Pass {
				t.Fatalf("verdict %s: %s", r.Verdict, r.Reason)
			}
			perRule := float64(after.Mallocs-before.Mallocs) / float64(r.RulesFired)
			t.Logf("%d allocations for %d rules: %.5f per rule", after.Mallocs-before.Mallocs, r.RulesFired, perRule)
			if perRule > most {
				t.Errorf("%.5f allocations per rule; want at most %g", perRule, most)
			}
		})
	}
}
