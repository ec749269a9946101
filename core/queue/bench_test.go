package queue_test

import (
	"testing"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/queue"
	"github.com/locus-mc/locus/storagefs"
)

// benchSteady measures one Push plus one Pop on a queue holding backlog
// records, the steady state of a BFS level; b.N pairs, reported per pair.
func benchSteady(b *testing.B, q queueUnderTest, backlog int) {
	rec := make([]byte, q.RecordSize())
	for i := 0; i < backlog; i++ {
		if err := q.Push(rec); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(rec)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec[0] = byte(i)
		if err := q.Push(rec); err != nil {
			b.Fatal(err)
		}
		if _, err := q.Pop(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if err := q.Close(); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkFIFO(b *testing.B) {
	const rec = 64
	b.Run("memory", func(b *testing.B) {
		benchSteady(b, queue.NewMemory(rec, budget.New(0)), 100_000)
	})
	// A 4 MiB share under a 64 MiB backlog: most records go through disk.
	disk := func(b *testing.B, fs storagefs.FS) {
		q, err := queue.NewDisk(rec, budget.New(0), 4<<20, fs, "bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchSteady(b, q, 1<<20)
	}
	b.Run("disk-memfs", func(b *testing.B) { disk(b, storagefs.NewMemory(storagefs.Options{})) })
	b.Run("disk-osfs", func(b *testing.B) {
		fs, err := storagefs.NewOS(b.TempDir(), storagefs.Options{})
		if err != nil {
			b.Fatal(err)
		}
		disk(b, fs)
	})
	// A share larger than the backlog: never swaps.
	b.Run("disk-in-share", func(b *testing.B) {
		q, err := queue.NewDisk(rec, budget.New(0), 64<<20, storagefs.NewMemory(storagefs.Options{}), "bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchSteady(b, q, 100_000)
	})
}

func BenchmarkLIFO(b *testing.B) {
	b.Run("memory", func(b *testing.B) {
		benchSteady(b, queue.NewMemoryLIFO(64, budget.New(0)), 100_000)
	})
}
