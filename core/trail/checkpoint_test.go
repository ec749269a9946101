package trail

import (
	"testing"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/storagefs"
)

// TestCheckpointRestore checkpoints a trail partly spilled to disk and
// restores it in a fresh budget, for budgets whose chunks are full-sized
// and scaled down (under 64 chunks' worth): every record reads back.
func TestCheckpointRestore(t *testing.T) {
	for _, limit := range []int64{64 * chunkBytes, 256 << 10} {
		b := budget.New(limit)
		fs := storagefs.NewMemory(storagefs.Options{})
		tr, err := New(b, fs, "trail-", 300)
		if err != nil {
			t.Fatal(err)
		}
		const n = 100000
		for i := int64(0); i < n; i++ {
			if _, err := tr.Append(i/2, uint32(i%300)); err != nil {
				t.Fatalf("budget %d: append %d: %v", limit, i, err)
			}
			if i == n/2 {
				if err := tr.Spill(); err != nil {
					t.Fatal(err)
				}
			}
		}
		st, err := tr.Checkpoint("ck-trail")
		if err != nil {
			t.Fatal(err)
		}
		tr.KeepSegments()
		tr.Close()
		back, err := Restore(budget.New(limit), fs, "trail-", st)
		if err != nil {
			t.Fatalf("budget %d: restore: %v", limit, err)
		}
		for i := int64(0); i < n; i++ {
			p, r, err := back.Get(i)
			if err != nil || p != i/2 || r != uint32(i%300) {
				t.Fatalf("budget %d: record %d = (%d, %d, %v), want (%d, %d)", limit, i, p, r, err, i/2, i%300)
			}
		}
	}
}
