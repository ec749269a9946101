package storagetest

// This file implements the segment throughput benchmarks.

import (
	"fmt"
	"testing"

	"github.com/locus-mc/locus/storagefs"
)

// BenchSizes are the segment sizes benchmarked: the smallest and largest
// the engines write.
var BenchSizes = []int{1 << 20, 16 << 20}

// Bench measures whole-segment writes and reads on stores from newFS, one
// sub-benchmark per operation and size; MB/s is the figure of merit.
func Bench(b *testing.B, newFS func(b testing.TB) storagefs.FS) {
	for _, size := range BenchSizes {
		b.Run(fmt.Sprintf("write-%dMiB", size>>20), func(b *testing.B) {
			fs := newFS(b)
			defer fs.Close()
			data := Pattern(1, size)
			b.SetBytes(int64(size))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				name := fmt.Sprintf("w-%d", i)
				if err := fs.WriteSegment(name, data); err != nil {
					b.Fatal(err)
				}
				// Keep the store small; removal is not what is measured.
				b.StopTimer()
				if err := fs.RemoveSegment(name); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
		b.Run(fmt.Sprintf("read-%dMiB", size>>20), func(b *testing.B) {
			fs := newFS(b)
			defer fs.Close()
			if err := fs.WriteSegment("r", Pattern(2, size)); err != nil {
				b.Fatal(err)
			}
			buf := make([]byte, 0, size)
			b.SetBytes(int64(size))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var err error
				if buf, err = fs.ReadSegment("r", buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
