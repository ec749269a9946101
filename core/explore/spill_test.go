package explore_test

import (
	"context"
	"os"
	"testing"

	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/storagefs"
)

// TestQueueSpill runs BFS and DFS with a queue share far smaller than the
// frontier: the queue must spill to storage and the counts must not change.
func TestQueueSpill(t *testing.T) {
	const file = "../../examples/german.m"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, algo := range []string{"bfs", "dfs"} {
		base := verify.Check(context.Background(), file, src, verify.Options{Algorithm: algo, Symmetry: "off"})
		fsys := storagefs.NewMemory(storagefs.Options{})
		res := verify.Check(context.Background(), file, src, verify.Options{
			Algorithm: algo, Symmetry: "off", MemoryBytes: 16 << 20, QueueFraction: 0.001, FS: fsys,
		})
		if res.Verdict != verify.Pass || *res.States != *base.States || res.RulesFired != base.RulesFired {
			t.Fatalf("%s: spilling run %s %v/%d (%s), plain run %v/%d", algo, res.Verdict, *res.States, res.RulesFired, res.Reason, *base.States, base.RulesFired)
		}
		if res.DiskWritten == 0 || res.DiskRead == 0 {
			t.Fatalf("%s: no disk traffic (written %d, read %d)", algo, res.DiskWritten, res.DiskRead)
		}
		if res.PeakBytes > 16<<20 {
			t.Fatalf("%s: peak %d over the budget", algo, res.PeakBytes)
		}
	}
}
