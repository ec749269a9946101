package explore_test

import (
	"context"
	"math"
	"os"
	"strconv"
	"strings"
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
	// A state with no transition counts with δ = 0: 0 -> 1 -> 2, stop.
	line := `
var x: 0..2;
startstate begin x := 0; end;
rule "next" x < 2 ==> begin x := x + 1; end;
`
	res = verify.Check(context.Background(), "line.m", []byte(line), verify.Options{Options: job.Options{Locality: true, Deadlock: "off"}})
	if l := res.Locality; l == nil || l.States != 3 || math.Abs(l.Delta[2].Mean-2.0/3) > 1e-12 || math.Abs(l.Delta[2].StdDev-math.Sqrt(2.0/9)) > 1e-12 {
		t.Errorf("line: %+v, want 3 states, E{Δ(1)} = 2/3, σ(1) = √(2/9)", res.Locality)
	}
	// Engines that cannot measure it refuse the option.
	res = verify.Check(context.Background(), "ring.m", []byte(src), verify.Options{Options: job.Options{Locality: true, Algorithm: "dfs"}})
	if res.Verdict != verify.Error {
		t.Errorf("dfs with --locality: verdict %s, want error", res.Verdict)
	}
}

// TestLocalityTable1 compares the locality of the corpus models that are
// the paper's own (no scalarsets, the same reachable states and rules
// fired as its Table 3) with its Table 1, read from the paper in
// ../shared/papers, to three decimals.
func TestLocalityTable1(t *testing.T) {
	paper, err := os.ReadFile("../../../shared/papers/transition-locality-cbfs-ldbfs.md")
	if err != nil {
		t.Fatal(err)
	}
	table := map[string][]float64{}
	text := string(paper)
	start := strings.Index(text, "**Table 1.**")
	if start < 0 {
		t.Fatal("no Table 1 in the paper")
	}
	for _, line := range strings.Split(text[start:], "\n")[1:] {
		f := strings.Split(line, "\t")
		if len(f) != 8 {
			if len(table) > 0 {
				break
			}
			continue
		}
		var row []float64
		for _, x := range f[1:] {
			v, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err != nil {
				row = nil
				break
			}
			row = append(row, v)
		}
		if row != nil {
			table[strings.TrimSuffix(f[0], "*")] = row
		}
	}
	for name, file := range map[string]string{"cache3": "others/cache3.m", "ns": "secur/ns.m"} {
		want, ok := table[name]
		if !ok {
			t.Fatalf("Table 1 has no row %s (rows: %v)", name, table)
		}
		src, err := os.ReadFile("../../../shared/models/cmurphi/" + file)
		if err != nil {
			t.Fatal(err)
		}
		res := verify.Check(context.Background(), file, src, verify.Options{Options: job.Options{Locality: true, Deadlock: "off"}})
		l := res.Locality
		if l == nil {
			t.Fatalf("%s: no locality (%s %s)", file, res.Verdict, res.Reason)
		}
		got := []float64{l.Delta[0].Mean, l.Delta[0].StdDev, l.Delta[1].Mean, l.Delta[1].StdDev, l.Delta[2].Mean, l.Delta[2].StdDev, l.SumAvg}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 0.0005 {
				t.Errorf("%s: column %d is %.6g, Table 1 says %.6g (all: %v vs %v)", name, i+1, got[i], want[i], got, want)
			}
		}
	}
}
