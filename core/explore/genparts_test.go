//go:build !js

package explore_test

import (
	"context"
	"os"
	"testing"

	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/core/wasmgen/wazerorun"
)

// TestGeneratedPartsSameAsOne runs every testdata model and some corpus
// models in generated code on one worker and on two and three (parts of
// the state space, each an instance of the module): the results must be
// the same in every field but times, memory and notes. A search on parts
// that meets a violation runs again on one worker, which reports it, and
// says so; a model whose search cannot run on parts says why.
func TestGeneratedPartsSameAsOne(t *testing.T) {
	defer explore.SetGeneratedMaxCode(0)()
	rt := wazerorun.Runtime{}
	dir := "../../../shared/models/cmurphi/"
	off := verify.Options{Options: job.Options{Symmetry: "off"}}
	exact := verify.Options{Options: job.Options{Symmetry: "exact"}}
	cases := testdataCases(t)
	big := map[string]bool{}
	for _, c := range []parallelCase{
		{"mcslock1", dir + "sym/mcslock1.m", off},
		{"n_peterson exact", dir + "sym/n_peterson.m", exact},
		{"list6 exact", dir + "sym/list6.m", exact},
		{"newlist6 exact", dir + "multiset+sym/newlist6.m", exact},
		{"dp4", dir + "others/dp4.m", off},
		{"sci", dir + "sci/sci.m", off},
	} {
		big[c.name] = true
		cases = append(cases, c)
	}
	parted, reran := 0, 0
	// Every part keeps its share of a large model's states: they are
	// partitioned, not all kept where the start state is.
	var kept []int64
	defer explore.SetPartsKept(func(states []int64) { kept = states })()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			opts := c.opts
			opts.Algorithm = "bfs"
			opts.Generated = rt
			opts.Workers = 1
			want := verify.Check(context.Background(), c.file, src, opts)
			if want.CodeGen == "" {
				t.Skip("not in generated code")
			}
			for _, n := range []int{2, 3} {
				if n == 3 && big[c.name] {
					continue // three compilations of a large module
				}
				opts.Workers = n
				kept = nil
				got := verify.Check(context.Background(), c.file, src, opts)
				if all := *got.States; got.Workers == n && all >= 1000 {
					for k, s := range kept {
						if s < all/int64(2*n) {
							t.Fatalf("part %d of %d kept %d of the %d states", k, n, s, all)
						}
					}
				}
				if g, w := comparable(t, got), comparable(t, want); g != w {
					t.Fatalf("%d parts:\n%s\none worker:\n%s", n, g, w)
				}
				switch {
				case got.Workers == n:
					for _, v := range got.Violations {
						if v.Kind != "cover" { // (found once the search ends)
							t.Fatalf("%d parts reported a violation themselves: %+v", n, v)
						}
					}
					parted++
				case hasNote(got, "ran again on one"):
					if want.Verdict == verify.Pass {
						t.Fatalf("%d parts ran again on one worker where it passes: %+v", n, got.Diagnostics)
					}
					reran++
				case hasNote(got, "cover statements") || hasNote(got, "violations a search goes on past") || hasNote(got, "liveness properties"):
				default:
					t.Fatalf("on one worker, not %d, with no reason: %+v", n, got.Diagnostics)
				}
			}
		})
	}
	if parted < 60 || reran < 20 {
		t.Fatalf("only %d searches ran on parts, %d ran again on one worker", parted, reran)
	}
	t.Logf("%d searches ran on parts, %d met a violation and ran again on one worker", parted, reran)
}
