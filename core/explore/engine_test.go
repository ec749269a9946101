package explore_test

import (
	"context"
	"github.com/locus-mc/locus/core/job"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/core/wasmgen"
)

// TestModels runs every testdata model, whose first line states the
// expected outcome: "-- locus: verdict=fail kind=deadlock states=12 ...".
// Each model runs under every exact engine, which must all agree.
func TestModels(t *testing.T) {
	files, err := filepath.Glob("testdata/*.m")
	if err != nil || len(files) == 0 {
		t.Fatal("no testdata models")
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want := locusHeader(src)
		if want == nil {
			t.Fatalf("%s: missing '-- locus:' header", file)
		}
		for _, eng := range explore.Engines() {
			algo := eng.Name
			t.Run(filepath.Base(file)+"/"+algo, func(t *testing.T) {
				opts := verify.Options{Options: job.Options{Algorithm: algo, Symmetry: want["symmetry"], Deadlock: want["deadlock"]}}
				if opts.Symmetry == "" {
					opts.Symmetry = "off"
				}
				opts.MaxErrors, _ = strconv.Atoi(want["maxerrors"])
				if eng.UsesStorage {
					opts.MemoryBytes = 16 << 20 // their caches take all of it
				}
				res := verify.Check(context.Background(), file, src, opts)
				if res.Verdict != want["verdict"] {
					t.Fatalf("verdict %s (%s %v %v), want %s", res.Verdict, res.Reason, res.Violation, res.Diagnostics, want["verdict"])
				}
				if res.Verdict == verify.Pass && (res.Guarantee == job.GuaranteeOmissionEstimate) != (res.OmissionEstimate != nil) {
					t.Fatalf("a pass with guarantee %q and estimate %v", res.Guarantee, res.OmissionEstimate)
				}
				if algo == "rbfs" && res.Verdict == verify.Pass && res.Guarantee != job.GuaranteeOmissionEstimate {
					// Randomized BFS proves nothing: its pass carries the
					// observer's estimate, never the plain guarantee.
					t.Fatalf("rbfs passed with guarantee %q", res.Guarantee)
				}
				if k := want["kind"]; k != "" && (res.Violation == nil || res.Violation.Kind != k) {
					t.Fatalf("violation %+v, want kind %s", res.Violation, k)
				}
				if n := want["violations"]; n != "" {
					got := len(res.Violations)
					if got == 0 && res.Violation != nil {
						got = 1
					}
					if strconv.Itoa(got) != n {
						t.Fatalf("%d violations, want %s", got, n)
					}
				}
				if res.States == nil {
					// Only an engine that forgets states may not count them.
					if eng.Exact {
						t.Fatalf("%s gave no state count (visited %d)", algo, res.StatesVisited)
					}
				} else {
					if s := want["states"]; s != "" && strconv.FormatInt(*res.States, 10) != s {
						t.Fatalf("states %v, want %s", *res.States, s)
					}
					if r := want["rules"]; r != "" && strconv.FormatInt(res.RulesFired, 10) != r {
						t.Fatalf("rules fired %d, want %s", res.RulesFired, r)
					}
				}
				if res.Verdict == verify.Fail && res.Violation != nil && res.Violation.Kind != "cover" && len(res.Violation.Trace) == 0 {
					t.Fatalf("violation without a trace")
				}
			})
		}
	}
}

// locusHeader reads a testdata model's first line, "-- locus: key=value
// ...", into a map; nil if the line is not such a header.
func locusHeader(src []byte) map[string]string {
	header, _, _ := strings.Cut(string(src), "\n")
	rest, ok := strings.CutPrefix(header, "-- locus:")
	if !ok {
		return nil
	}
	want := map[string]string{}
	for _, kv := range strings.Fields(rest) {
		k, v, _ := strings.Cut(kv, "=")
		want[k] = v
	}
	return want
}

// generatorBug reports whether the note on a search that went back to the
// closures says the generated code is wrong (it did not load, failed,
// found a violation the closures do not confirm, or filled a wasm memory
// with no budget set, which the models compared here are far from: a
// search that does not reduce as it should gets there), not that it does
// not cover the model or stopped at a run-time check: the closures'
// result hides such a bug from a comparison of results.
func generatorBug(note string) bool {
	for _, s := range []string{"did not load", "the generated search failed", "the generated search returned", "disagrees with the closures",
		"reached the 4 GiB of a WebAssembly memory"} {
		if strings.Contains(note, s) {
			return true
		}
	}
	return false
}

// compareGenerated checks the model src once on the compiled closures and
// once with generated code run by rt (one worker, bfs): the results must
// be the same in every field but times and memory. It returns the second
// result and why the closures ran it ("" if rt did), and fails where that
// says the generated code is wrong (generatorBug), where no note says
// why, and where a model written for the generator's features (header
// codegen=covered) ran on the closures: a trap would hide a bug there.
func compareGenerated(t *testing.T, file string, src []byte, opts verify.Options, rt wasmgen.Runtime) (got *verify.Result, why string) {
	t.Helper()
	opts.Workers = 1
	opts.Algorithm = "bfs"
	want := verify.Check(context.Background(), file, src, opts)
	opts.Generated = rt
	got = verify.Check(context.Background(), file, src, opts)
	if got.CodeGen == "" {
		for _, d := range got.Diagnostics {
			if strings.Contains(d.Message, "closures") {
				why = d.Message
			}
		}
		switch {
		case generatorBug(why):
			t.Fatal(why)
		case strings.Contains(why, "stopped at a run-time check") && (want.Verdict == verify.Pass || want.Verdict == verify.Incomplete):
			// A check the closures never failed: a wrong state or wrong
			// code, which their rerun would hide.
			t.Fatalf("the generated code trapped where the closures found no error: %s", why)
		case why == "" && want.Verdict != verify.Rejected:
			t.Fatalf("the closures ran the search and no note says why: %+v", got.Diagnostics)
		case locusHeader(src)["codegen"] == "covered" && !(opts.HashCompaction > 0 && strings.Contains(why, "under hash compaction")):
			// (Liveness needs every state's id, which a compact index
			// does not keep: the header speaks of exact searches.)
			t.Fatalf("a codegen=covered model ran on the closures: %s", why)
		}
		if why == "" {
			why = "rejected"
		}
	} else if got.CodeGen != rt.Name() {
		t.Fatalf("code_gen %q, want %s", got.CodeGen, rt.Name())
	}
	got.CodeGen = ""
	got.Diagnostics, want.Diagnostics = nil, nil
	if g, w := comparable(t, got), comparable(t, want); g != w {
		t.Fatalf("generated:\n%s\nclosures:\n%s", g, w)
	}
	return got, why
}
