package explore_test

import (
	"context"
	"math"
	"testing"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
)

// TestLocality measures a ring of four states, 0 -> 1 -> 2 -> 3 -> 0, with a
// rule that changes nothing: three states have only forward transitions
// (k = 1), the last one goes back three levels (k = -3).
func TestLocality(t *testing.T) {
	src := `
var x: 0..3;
startstate begin x := 0; end;
rule "next" true ==> begin x := (x + 1) % 4; end;
rule "stay" true ==> begin x := x; end;
`
	res := verify.Check(context.Background(), "ring.m", []byte(src), verify.Options{Options: job.Options{Locality: true, Deadlock: "off"}})
	l := res.Locality
	if res.Verdict != verify.Pass || l == nil {
		t.Fatalf("verdict %s (%s), locality %v", res.Verdict, res.Reason, l)
	}
	if l.States != 4 || l.Transitions != 4 || l.SelfLoops != 4 {
		t.Fatalf("states %d, transitions %d, self-loops %d; want 4, 4, 4", l.States, l.Transitions, l.SelfLoops)
	}
	want := map[int][2]float64{-1: {0, 0}, 0: {0, 0}, 1: {0.75, math.Sqrt(0.75 - 0.75*0.75)}}
	for _, d := range l.Delta {
		w := want[d.K]
		if math.Abs(d.Mean-w[0]) > 1e-12 || math.Abs(d.StdDev-w[1]) > 1e-12 {
			t.Errorf("k=%d: E %g σ %g, want %g %g", d.K, d.Mean, d.StdDev, w[0], w[1])
		}
	}
	if math.Abs(l.SumAvg-0.75) > 1e-12 {
		t.Errorf("SumAvg %g, want 0.75", l.SumAvg)
	}
	if len(l.Histogram) != 2 || l.Histogram[0] != (job.LocalityCount{K: -3, Count: 1}) || l.Histogram[1] != (job.LocalityCount{K: 1, Count: 3}) {
		t.Errorf("histogram %v, want [-3:1 1:3]", l.Histogram)
	}
	// Engines that cannot measure it refuse the option.
	res = verify.Check(context.Background(), "ring.m", []byte(src), verify.Options{Options: job.Options{Locality: true, Algorithm: "dfs"}})
	if res.Verdict != verify.Error {
		t.Errorf("dfs with --locality: verdict %s, want error", res.Verdict)
	}
}
