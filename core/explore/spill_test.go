package explore_test

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/job"

	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/storagefs"
)

// TestQueueSpill runs BFS and DFS under a memory budget smaller than what
// the run needs without a disk (visited set plus a full in-memory queue):
// the queue must spill to storage, and the counts must not change.
func TestQueueSpill(t *testing.T) {
	for _, tc := range []struct {
		file     string
		algos    []string
		fraction float64 // of the budget for the queue's memory part
		scale    float64 // budget as a share of the unbudgeted peak
	}{
		// BFS's queue holds most of this model's states at once.
		{"testdata/wide.m", []string{"bfs"}, 0, 0.65},
		// Depth-first search's stack grows nearly as large as the visited set.
		{"testdata/deepstack.m", []string{"dfs"}, 0.1, 0.95},
		{"../../examples/german.m", []string{"bfs"}, 0.01, 0.95},
	} {
		src, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		for _, algo := range tc.algos {
			base := verify.Check(context.Background(), tc.file, src, verify.Options{Options: job.Options{Algorithm: algo, Symmetry: "off"}})
			budget := int64(float64(base.PeakBytes) * tc.scale)
			fsys := storagefs.NewMemory(storagefs.Options{})
			res := verify.Check(context.Background(), tc.file, src, verify.Options{
				Options: job.Options{Algorithm: algo, Symmetry: "off", MemoryBytes: budget, QueueFraction: tc.fraction}, FS: fsys,
			})
			name := tc.file + "/" + algo
			if res.Verdict != verify.Pass || res.States == nil || *res.States != *base.States || res.RulesFired != base.RulesFired {
				if res.States == nil {
					t.Fatalf("%s: run under %d bytes: %s (%s)", name, budget, res.Verdict, res.Reason)
				}
				t.Fatalf("%s: run under %d bytes: %s %v/%d (%s); unbudgeted run %v/%d", name, budget, res.Verdict, *res.States, res.RulesFired, res.Reason, *base.States, base.RulesFired)
			}
			if res.DiskWritten == 0 || res.DiskRead == 0 {
				t.Fatalf("%s: no disk traffic (written %d, read %d)", name, res.DiskWritten, res.DiskRead)
			}
			if res.PeakBytes > budget || budget >= base.PeakBytes {
				t.Fatalf("%s: budget %d, peak %d, unbudgeted peak %d", name, budget, res.PeakBytes, base.PeakBytes)
			}
		}
	}
}

// TestParallelSpill runs the parallel search under budgets at which the
// sequential search passes only because it spills to storage: from the
// smallest budget at which one worker passes (found by bisection) up to a
// share of the unbudgeted peak. One worker must pass under every budget
// from there up (the trail spills for the visited set as for itself, so
// more memory never fails a run); 2 and 4 workers must pass too from 2%
// above it, spilling where one worker does, with the same states and
// rules and their peak within the budget; 2 workers must run in parallel
// (4 may run on one under a budget too small for 4 visited sets, saying
// so).
func TestParallelSpill(t *testing.T) {
	peterson, err := os.ReadFile("../../../shared/models/cmurphi/mux/n_peterson.m")
	if err != nil {
		t.Fatal(err)
	}
	wide, err := os.ReadFile("testdata/wide.m")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		src      []byte
		symmetry string
		top      float64 // the largest budget tried, of the unbudgeted peak
		// fine is how many budgets are tried in steps of a 300th either
		// side of the smallest: where the trail spills, whether one
		// worker passes changes from step to step.
		fine int
	}{
		// Nearly every state is on the last level: the queue spills.
		{"wide.m", wide, "off", 2.0 / 3, 0},
		// Small states, many levels: the trail is a large part of the
		// budget, and spills when the visited sets need its room.
		{"n_peterson N=6", regexp.MustCompile(`N: *7;`).ReplaceAll(peterson, []byte("N: 6;")), "exact", 0.9, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if bytes.Equal(tc.src, peterson) {
				t.Fatal("n_peterson.m no longer declares N: 7")
			}
			run := func(budget int64, workers int) *verify.Result {
				return verify.Check(context.Background(), tc.name, tc.src, verify.Options{
					Options: job.Options{Symmetry: tc.symmetry, Workers: workers, MemoryBytes: budget},
					FS:      storagefs.NewMemory(storagefs.Options{}),
				})
			}
			base := run(0, 1)
			if base.Verdict != verify.Pass {
				t.Fatalf("unbudgeted: %s (%s)", base.Verdict, base.Reason)
			}
			most := int64(float64(base.PeakBytes) * tc.top)
			lo, hi := base.PeakBytes/8, most
			if r := run(lo, 1); r.Verdict == verify.Pass {
				t.Fatalf("one worker passes under %d bytes, an eighth of its unbudgeted peak", lo)
			}
			if r := run(hi, 1); r.Verdict != verify.Pass {
				t.Fatalf("one worker under %d bytes: %s (%s)", hi, r.Verdict, r.Reason)
			}
			for hi-lo > hi/500 {
				mid := (lo + hi) / 2
				if run(mid, 1).Verdict == verify.Pass {
					hi = mid
				} else {
					lo = mid
				}
			}
			budgets := []int64{hi, hi + hi/100, hi + hi/50, hi + hi/25, hi + hi/12, most}
			fine := tc.fine
			if runtime.GOOS == "js" {
				// Ten times slower: the smallest budget only (the
				// accounting is the same code natively).
				budgets, fine = budgets[:1], 0
			}
			for k := 1; k <= fine; k++ {
				budgets = append(budgets, hi-int64(k)*hi/300, hi+int64(k)*hi/300)
			}
			slices.Sort(budgets)
			passed := 0
			least := int64(-1) // the smallest budget tried under which one worker passed
			for _, budget := range budgets {
				one := run(budget, 1)
				if one.Verdict != verify.Pass {
					if least >= 0 {
						// The trail spills for the set as it does
						// for itself: more memory never fails a run.
						t.Fatalf("one worker passes under %d bytes and not under %d: %s (%s)", least, budget, one.Verdict, one.Reason)
					}
					continue // only where one worker passes
				}
				if least < 0 {
					least = budget
				}
				passed++
				for _, n := range []int{2, 4} {
					got := run(budget, n)
					if got.Verdict != verify.Pass && budget < hi+hi/50 {
						// The workers' outboxes and extra sets may
						// need up to 2% more than one worker.
						continue
					}
					if got.Verdict != verify.Pass {
						t.Fatalf("%d workers under %d bytes (one worker passes from %d): %s (%s)", n, budget, hi, got.Verdict, got.Reason)
					}
					if *got.States != *one.States || got.RulesFired != one.RulesFired {
						t.Fatalf("%d workers under %d bytes: %d states, %d rules; one worker: %d, %d", n, budget, *got.States, got.RulesFired, *one.States, one.RulesFired)
					}
					if (one.DiskWritten > 0 && got.DiskWritten == 0) || got.PeakBytes > budget {
						t.Fatalf("%d workers under %d bytes: %d bytes written, peak %d", n, budget, got.DiskWritten, got.PeakBytes)
					}
					if got.Workers != n && (n == 2 || len(got.Diagnostics) == 0 || !strings.Contains(got.Diagnostics[0].Message, "too small to hold")) {
						t.Fatalf("%d workers under %d bytes ran on %d: %+v", n, budget, got.Workers, got.Diagnostics)
					}
				}
			}
			t.Logf("one worker passes from %d bytes; compared at %d budgets", hi, passed)
		})
	}
}

// TestSpillProgressDiskBytes follows the progress of a run whose queue
// spills, with one worker and with two: while states are queued on disk
// the samples say how many bytes the run holds there, never more than it
// wrote.
func TestSpillProgressDiskBytes(t *testing.T) {
	src, err := os.ReadFile("testdata/wide.m")
	if err != nil {
		t.Fatal(err)
	}
	base := verify.Check(context.Background(), "wide.m", src, verify.Options{Options: job.Options{Symmetry: "off"}})
	for _, workers := range []int{1, 2} {
		t.Run(strconv.Itoa(workers), func(t *testing.T) {
			spilled := 0
			res := verify.Check(context.Background(), "wide.m", src, verify.Options{
				Options: job.Options{Algorithm: "bfs", Symmetry: "off", Workers: workers, MemoryBytes: base.PeakBytes * 6 / 10, ProgressEvery: 1},
				FS:      storagefs.NewMemory(storagefs.Options{}),
				Progress: func(p verify.Progress) {
					if p.QueueDisk == 0 {
						return
					}
					spilled++
					if p.DiskBytes < p.QueueDisk || p.DiskBytes > p.BytesWritten {
						t.Errorf("%d states queued on disk, %d bytes on disk, %d written", p.QueueDisk, p.DiskBytes, p.BytesWritten)
					}
				}})
			if res.Verdict != verify.Pass || spilled == 0 {
				t.Fatalf("%s (%s), %d samples with states on disk", res.Verdict, res.Reason, spilled)
			}
		})
	}
}
