package storagefs_test

import (
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
