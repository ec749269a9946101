package storagefs_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/locus-mc/locus/storagefs"
	"github.com/locus-mc/locus/storagefs/storagetest"
)

// memoryHarness runs the suite on NewMemory.
var memoryHarness = storagetest.Harness{
	Kind: "memory",
	New: func(t testing.TB, opts storagefs.Options) storagefs.FS {
		return storagefs.NewMemory(opts)
	},
	Vanish: func(t testing.TB, fs storagefs.FS) {
		if err := storagefs.VanishMemory(fs); err != nil {
			t.Fatal(err)
		}
	},
}

// osHarness runs the suite on NewOS over a fresh temporary directory;
// stores remember their directory for Reopen and Vanish.
func osHarness() storagetest.Harness {
	dirs := map[storagefs.FS]string{}
	return storagetest.Harness{
		Kind: "os",
		New: func(t testing.TB, opts storagefs.Options) storagefs.FS {
			dir := filepath.Join(t.TempDir(), "store")
			fs, err := storagefs.NewOS(dir, opts)
			if err != nil {
				t.Fatalf("NewOS(%q) = %v", dir, err)
			}
			dirs[fs] = dir
			return fs
		},
		Reopen: func(t testing.TB, fs storagefs.FS, opts storagefs.Options) storagefs.FS {
			fs2, err := storagefs.NewOS(dirs[fs], opts)
			if err != nil {
				t.Fatalf("NewOS(%q) again = %v", dirs[fs], err)
			}
			return fs2
		},
		Vanish: func(t testing.TB, fs storagefs.FS) {
			if err := os.RemoveAll(dirs[fs]); err != nil {
				t.Fatal(err)
			}
		},
	}
}

func TestMemory(t *testing.T) { storagetest.Run(t, memoryHarness) }

func TestOS(t *testing.T) { storagetest.Run(t, osHarness()) }

func BenchmarkMemory(b *testing.B) {
	storagetest.Bench(b, func(testing.TB) storagefs.FS { return storagefs.NewMemory(storagefs.Options{}) })
}

func BenchmarkOS(b *testing.B) {
	storagetest.Bench(b, func(tb testing.TB) storagefs.FS {
		fs, err := storagefs.NewOS(tb.TempDir(), storagefs.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		return fs
	})
}

// TestOSRecycle: the OS store reuses removed segments' files; what a reused
// file held must never show through (a shorter segment written over a
// longer one), no listing may show a free file, and none outlives the
// store, or a store that died (a new store removes what it left).
func TestOSRecycle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	fs, err := storagefs.NewOS(dir, storagefs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	long := make([]byte, 100_000)
	for i := range long {
		long[i] = byte(i)
	}
	for i := 0; i < 40; i++ {
		name := fmt.Sprintf("q-%04d", i)
		if err := fs.WriteSegment(name, long[:len(long)-i*1000]); err != nil {
			t.Fatal(err)
		}
		if err := fs.RemoveSegment(name); err != nil {
			t.Fatal(err)
		}
	}
	short := []byte("a short segment")
	for i := 0; i < 40; i++ {
		name := fmt.Sprintf("s-%04d", i)
		if err := fs.WriteSegment(name, short); err != nil {
			t.Fatal(err)
		}
		got, err := fs.ReadSegment(name, nil)
		if err != nil || !bytes.Equal(got, short) {
			t.Fatalf("segment %s reads %d bytes %q..., %v; want %q", name, len(got), got[:min(len(got), 20)], err, short)
		}
	}
	if err := fs.WriteSegment("s-0000", short); !errors.Is(err, storagefs.ErrExist) {
		t.Fatalf("writing an existing segment: %v, want ErrExist", err)
	}
	// Free files are on disk now (the last 40 writes reused at most 32 of
	// the removed 40; fresh removals make more).
	for i := 0; i < 10; i++ {
		if err := fs.RemoveSegment(fmt.Sprintf("s-%04d", i)); err != nil {
			t.Fatal(err)
		}
	}
	segs, err := fs.ListSegments("")
	if err != nil || len(segs) != 30 {
		t.Fatalf("ListSegments: %d segments, %v; want 30", len(segs), err)
	}
	if free, _ := filepath.Glob(filepath.Join(dir, ".free-*")); len(free) == 0 {
		t.Fatal("no free file kept: nothing was recycled")
	}
	// A store that died leaves its free files; the next one removes them.
	fs2, err := storagefs.NewOS(dir, storagefs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if free, _ := filepath.Glob(filepath.Join(dir, ".free-*")); len(free) != 0 {
		t.Fatalf("a new store left %d free files of a dead one", len(free))
	}
	for i := 0; i < 12; i++ {
		if err := fs2.RemoveSegment(fmt.Sprintf("s-%04d", 10+i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := fs2.Close(); err != nil {
		t.Fatal(err)
	}
	if free, _ := filepath.Glob(filepath.Join(dir, ".free-*")); len(free) != 0 {
		t.Fatalf("closing the store left %d free files", len(free))
	}
	fs.Close()
}
