package explore_test

import (
	"context"
	"github.com/locus-mc/locus/core/job"
	"os"
	"testing"

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
