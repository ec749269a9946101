package storagetest

// This file implements the segment throughput benchmarks.

import (
	"fmt"
	"testing"

	"github.com/locus-mc/locus/storagefs"
)

// BenchSizes are the segment sizes benchmarked: a block of ldbfs's
// signature file D (256 KiB), a queue's smallest segment, and the largest.
var BenchSizes = []int{256 << 10, 1 << 20, 16 << 20}

// Bench measures whole-segment writes and reads on stores from newFS, one
// sub-benchmark per operation and size; MB/s is the figure of merit.
func Bench(b *testing.B, newFS func(b testing.TB) storagefs.FS) {
	for _, size := range BenchSizes {
		b.Run("write-"+sizeName(size), func(b *testing.B) {
			fs := newFS(b)
			defer fs.Close()
			data := Pattern(1, size)
			b.SetBytes(int64(size))
			b.ResetTimer()
			// After every syncBatch writes (64 MiB, at least 8 segments)
			// and at the end, a timed Sync makes sure the segments are in
			// the store, for stores that write behind the caller; then,
			// untimed, they are removed to keep the store small. The
			// engines Sync only at checkpoints, so a stream of segments
			// between Syncs is what they write; a Sync every few segments
			// would time its own latency more than the store's rate.
			syncBatch := max(8, (64<<20)/size)
			var names []string
			flush := func() {
				if err := fs.Sync(); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				for _, name := range names {
					if err := fs.RemoveSegment(name); err != nil {
						b.Fatal(err)
					}
				}
				if err := fs.Sync(); err != nil {
					b.Fatal(err)
				}
				names = names[:0]
				b.StartTimer()
			}
			for i := 0; i < b.N; i++ {
				name := fmt.Sprintf("w-%d", i)
				if err := fs.WriteSegment(name, data); err != nil {
					b.Fatal(err)
				}
				if names = append(names, name); len(names) == syncBatch {
					flush()
				}
			}
			flush()
		})
		b.Run("read-"+sizeName(size), func(b *testing.B) {
			fs := newFS(b)
			defer fs.Close()
			// 16 MiB of segments, read in turn: stores that pack segments
			// together (IndexedDB) read each from the middle of a pack,
			// as the engines read a signature file's blocks.
			names := make([]string, max(1, (16<<20)/size))
			for i := range names {
				names[i] = fmt.Sprintf("r-%d", i)
				if err := fs.WriteSegment(names[i], Pattern(2, size)); err != nil {
					b.Fatal(err)
				}
			}
			// Read from the store, not from a write-behind queue.
			if err := fs.Sync(); err != nil {
				b.Fatal(err)
			}
			buf := make([]byte, 0, size)
			b.SetBytes(int64(size))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var err error
				if buf, err = fs.ReadSegment(names[i%len(names)], buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// sizeName names a size in whole MiB or, below 1 MiB, KiB.
func sizeName(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dMiB", n>>20)
}
