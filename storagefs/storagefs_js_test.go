//go:build js && wasm

package storagefs_test

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall/js"
	"testing"
	"time"

	"github.com/locus-mc/locus/storagefs"
	"github.com/locus-mc/locus/storagefs/storagetest"
)

var storeSeq int

// uniqueName returns a store name no earlier run used, since IndexedDB
// and OPFS outlive a test process in a browser profile.
func uniqueName(kind string) string {
	storeSeq++
	return fmt.Sprintf("locus-test-%s-%d-%d", kind, time.Now().UnixNano(), storeSeq)
}

// browserHarness runs the suite on a browser backend; open is NewIndexedDB
// or NewOPFS, vanish deletes the database or directory by name.
func browserHarness(kind string, open func(string, storagefs.Options) (storagefs.FS, error), vanish func(string) error) storagetest.Harness {
	names := map[storagefs.FS]string{}
	return storagetest.Harness{
		Kind: kind,
		New: func(t testing.TB, opts storagefs.Options) storagefs.FS {
			name := uniqueName(kind)
			fs, err := open(name, opts)
			if err != nil {
				t.Fatalf("open %s store %q = %v", kind, name, err)
			}
			names[fs] = name
			t.Cleanup(func() { vanish(name) })
			return fs
		},
		Reopen: func(t testing.TB, fs storagefs.FS, opts storagefs.Options) storagefs.FS {
			fs2, err := open(names[fs], opts)
			if err != nil {
				t.Fatalf("reopen %s store %q = %v", kind, names[fs], err)
			}
			return fs2
		},
		Vanish: func(t testing.TB, fs storagefs.FS) {
			if err := vanish(names[fs]); err != nil {
				t.Fatalf("deleting %s store %q = %v", kind, names[fs], err)
			}
		},
	}
}

var (
	idbHarness  = browserHarness("indexeddb", storagefs.NewIndexedDB, storagefs.VanishIndexedDB)
	opfsHarness = browserHarness("opfs", storagefs.NewOPFS, storagefs.VanishOPFS)
)

func requireIndexedDB(t testing.TB) {
	t.Helper()
	if js.Global().Get("indexedDB").Type() != js.TypeObject {
		t.Fatal("no IndexedDB here: under Node run with NODE_OPTIONS=--require=fake-indexeddb/auto")
	}
}

// requireOPFS skips t where OPFS is absent (Node, a page), unless
// LOCUS_REQUIRE_OPFS is set: the browser test sets it in its Worker, so a
// detection bug there fails instead of skipping.
func requireOPFS(t testing.TB) {
	t.Helper()
	if storagefs.OPFSAvailable() {
		return
	}
	if os.Getenv("LOCUS_REQUIRE_OPFS") != "" {
		t.Fatal("OPFS sync access handles not detected, but LOCUS_REQUIRE_OPFS is set")
	}
	t.Skip("OPFS sync access handles exist only in a browser's dedicated Worker")
}

func TestIndexedDB(t *testing.T) {
	requireIndexedDB(t)
	storagetest.Run(t, idbHarness)
}

func TestOPFS(t *testing.T) {
	requireOPFS(t)
	storagetest.Run(t, opfsHarness)
}

// TestOpenBrowser checks detection: OPFS where it exists, else a clear
// ErrUnavailable from NewOPFS and IndexedDB from OpenBrowser.
func TestOpenBrowser(t *testing.T) {
	requireIndexedDB(t)
	name := uniqueName("browser")
	want := "indexeddb"
	if storagefs.OPFSAvailable() {
		want = "opfs"
		defer storagefs.VanishOPFS(name)
	} else {
		_, err := storagefs.NewOPFS(name, storagefs.Options{})
		if !errors.Is(err, storagefs.ErrUnavailable) {
			t.Fatalf("NewOPFS without OPFS = %v, want ErrUnavailable", err)
		}
		if os.Getenv("LOCUS_REQUIRE_OPFS") != "" {
			t.Fatal("OPFS sync access handles not detected, but LOCUS_REQUIRE_OPFS is set")
		}
	}
	defer storagefs.VanishIndexedDB(name)
	fs, err := storagefs.OpenBrowser(name, storagefs.Options{})
	if err != nil {
		t.Fatalf("OpenBrowser = %v", err)
	}
	defer fs.Close()
	if fs.Kind() != want {
		t.Fatalf("OpenBrowser chose %q, want %q", fs.Kind(), want)
	}
	if err := fs.WriteSegment("probe", []byte("ok")); err != nil {
		t.Fatalf("WriteSegment on the chosen store = %v", err)
	}
}

// quotaLimit returns the origin quota the browser test imposed, in bytes;
// the quota test only makes sense under it.
func quotaLimit(t *testing.T) int64 {
	q, _ := strconv.ParseInt(os.Getenv("LOCUS_ORIGIN_QUOTA"), 10, 64)
	if q <= 0 {
		t.Skip("LOCUS_ORIGIN_QUOTA not set: the browser test sets it after capping the origin's quota")
	}
	return q
}

func TestOPFSQuota(t *testing.T) {
	requireOPFS(t)
	storagetest.FillUntilQuota(t, opfsHarness, quotaLimit(t))
}

func BenchmarkIndexedDB(b *testing.B) {
	requireIndexedDB(b)
	storagetest.Bench(b, func(tb testing.TB) storagefs.FS { return idbHarness.New(tb, storagefs.Options{}) })
}

func BenchmarkOPFS(b *testing.B) {
	requireOPFS(b)
	storagetest.Bench(b, func(tb testing.TB) storagefs.FS { return opfsHarness.New(tb, storagefs.Options{}) })
}
