//go:build !js

package explore_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/internal/modelgen"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/core/wasmgen/wazerorun"
)

// TestGeneratedSameAsClosuresOnRandomModels is TestGeneratedSameAsClosures
// on models drawn by core/internal/modelgen (the differential test's, which
// compares the closures with the reference interpreter): loops with
// computed bounds and steps, while loops, shifts, runtime errors of every
// kind, functions and procedures, aliases, unions, undefined values, cover
// properties. Each runs with the model's symmetry, deadlock and depth
// options (a depth of 8 at most).
func TestGeneratedSameAsClosuresOnRandomModels(t *testing.T) {
	seeds := uint64(400)
	if testing.Short() {
		seeds = 100
	}
	rt := wazerorun.Runtime{}
	// A few models reach millions of states: searches stop at this depth
	// (the result says so, in both).
	const maxDepth = 8
	// What the generator does not cover (the closures would run those
	// models), and one error at most (the generated search stops at the
	// first).
	omit := modelgen.Omit{Unsigned: true}
	generated, kinds, uncovered := 0, map[string]int{}, map[string]int{}
	symmetric, symGenerated := 0, 0
	for seed := uint64(0); seed < seeds; seed++ {
		gm := modelgen.GenerateOmitting(modelgen.NewRand(seed), omit)
		if gm.Bound == 0 {
			gm.Bound = maxDepth
		}
		// The models the draw marks symmetric (most of those with a
		// scalarset) run under exact reduction, or heuristic for odd
		// seeds; the generated code reduces as the closures do.
		sym := "off"
		if gm.Symmetry {
			sym = [2]string{"exact", "heuristic"}[seed%2]
			symmetric++
		}
		opts := verify.Options{Options: job.Options{Symmetry: sym, Deadlock: gm.Deadlock, Bound: gm.Bound}}
		t.Run(fmt.Sprint("seed-", seed), func(t *testing.T) {
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("--- model:\n%s", gm.Source)
				}
			})
			got, why := compareGenerated(t, "gen.m", []byte(gm.Source), opts, rt)
			switch {
			case why == "":
				generated++
				kinds[string(got.Verdict)]++
				if gm.Symmetry {
					symGenerated++
				}
			case why == "rejected":
			default:
				if i := strings.Index(why, "does not cover "); i >= 0 {
					why = why[i+len("does not cover "):]
					if j := strings.LastIndex(why, ": "); j >= 0 {
						why = why[:j] // the note's end: where the search ran
					}
					if k := strings.Index(why, ": "); k >= 0 && strings.HasPrefix(why, "gen.m:") {
						why = why[k+2:] // the position
					}
				} else if strings.Contains(why, "bounds on recursion") {
					why = "recursion past the generated code's bounds"
				} else {
					why = "a trap (run-time check), the closures ran it again"
				}
				uncovered[why]++
			}
		})
	}
	// The generator must cover enough of them, passing and failing, for
	// the comparison to mean something.
	if generated < int(seeds)/3 || kinds["pass"] == 0 || kinds["fail"] == 0 || symGenerated < symmetric/4 {
		t.Fatalf("only %d of %d models ran in generated code (verdicts %v; %d of %d under symmetry reduction)", generated, seeds, kinds, symGenerated, symmetric)
	}
	t.Logf("%d of %d models ran in generated code (verdicts %v; %d of the %d under symmetry reduction); the others: %v", generated, seeds, kinds, symGenerated, symmetric, uncovered)
}
