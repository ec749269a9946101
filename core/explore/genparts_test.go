//go:build !js

package explore_test

import (
	"context"
	"os"
	"testing"

	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/core/wasmgen"
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
	dir := "../../../shared/models/cmurphi/"
	off := verify.Options{Options: job.Options{Symmetry: "off"}}
	exact := verify.Options{Options: job.Options{Symmetry: "exact"}}
	cases := testdataCases(t)
	big := map[string]bool{}
	for _, c := range []parallelCase{
		{"mcslock1", dir + "sym/mcslock1.m", off},
		{"mcslock1 bound=20", dir + "sym/mcslock1.m", verify.Options{Options: job.Options{Symmetry: "off", Bound: 20}}},
		{"n_peterson exact", dir + "sym/n_peterson.m", exact},
		{"list6 exact", dir + "sym/list6.m", exact},
		{"newlist6 exact", dir + "multiset+sym/newlist6.m", exact},
		{"dp4", dir + "others/dp4.m", off},
		{"sci", dir + "sci/sci.m", off},
	} {
		big[c.name] = true
		cases = append(cases, c)
	}
	// Hash compaction: the testdata again, and models of many queue
	// chunks (2^14 states each), which a part reuses as it goes.
	for _, c := range testdataCases(t) {
		c.name += " hash=40"
		c.opts.HashCompaction = 40
		cases = append(cases, c)
	}
	for _, c := range []parallelCase{
		{"mcslock1 hash=64", dir + "sym/mcslock1.m", off},
		{"n_peterson exact hash=64", dir + "sym/n_peterson.m", exact},
	} {
		c.opts.HashCompaction = 64
		big[c.name] = true
		cases = append(cases, c)
	}
	partsSameAsOne(t, wazerorun.Runtime{}, cases, func(name string) []int {
		if big[name] {
			return []int{2} // (three compilations of a large module)
		}
		return []int{2, 3}
	}, 120, 40)
}

// TestTranslatedPartsSameAsOne is TestGeneratedPartsSameAsOne for the
// modules translated to Go (nativerun), whose parts are processes that
// share their outboxes and inboxes with the host (on Linux), on fewer
// models: each is a build.
func TestTranslatedPartsSameAsOne(t *testing.T) {
	rt := nativeRuntime(t)
	dir := "../../../shared/models/cmurphi/"
	var cases []parallelCase
	for _, c := range testdataCases(t) {
		switch c.name {
		case "deadlock.m", "symmetry-trace.m", "wide.m", "multiset-ops.m", "cover-ruleset.m", "divzero.m":
			cases = append(cases, c)
		}
	}
	cases = append(cases, parallelCase{"mcslock1", dir + "sym/mcslock1.m", verify.Options{Options: job.Options{Symmetry: "off"}}},
		parallelCase{"mcslock1 hash=64", dir + "sym/mcslock1.m", verify.Options{Options: job.Options{Symmetry: "off", HashCompaction: 64}}},
		parallelCase{"n_peterson exact", dir + "sym/n_peterson.m", verify.Options{Options: job.Options{Symmetry: "exact"}}})
	partsSameAsOne(t, rt, cases, func(string) []int { return []int{2, 3} }, 10, 4)
}

// partsSameAsOne runs each case on one worker and on each number of parts
// workers gives, and compares; at least minParted searches must run on
// parts and minReran meet a violation there and run again on one worker.
func partsSameAsOne(t *testing.T, rt wasmgen.Runtime, cases []parallelCase, workers func(name string) []int, minParted, minReran int) {
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
			for _, n := range workers(c.name) {
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
				case hasNote(got, "violations a search goes on past") || hasNote(got, "liveness properties"):
				default:
					t.Fatalf("on one worker, not %d, with no reason: %+v", n, got.Diagnostics)
				}
			}
		})
	}
	if parted < minParted || reran < minReran {
		t.Fatalf("only %d searches ran on parts, %d ran again on one worker", parted, reran)
	}
	t.Logf("%d searches ran on parts, %d met a violation and ran again on one worker", parted, reran)
}
