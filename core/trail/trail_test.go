package trail

import (
	"errors"
	"testing"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/storagefs"
)

// TestAppendGet writes a trail of n records (a chain and a tree mixed) and
// reads every record back, in memory and spilled to disk under a budget
// too small to hold it, for each rule width.
func TestAppendGet(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rules  int
		budget int64
		disk   bool
	}{
		{"memory, 1-byte rules", 200, 0, false},
		{"memory, 2-byte rules", 70000, 0, false},
		{"memory, 3-byte rules", 1 << 20, 0, false},
		{"memory, 4-byte rules", 1 << 30, 0, false},
		{"spilled", 300, 4 * chunkBytes, true},
		{"spilled, 4-byte rules", 1 << 30, 4 * chunkBytes, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := budget.New(tc.budget)
			var fs storagefs.FS
			if tc.disk {
				fs = storagefs.NewMemory(storagefs.Options{})
			}
			tr, err := New(b, fs, "trail-", tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			const n = 200000
			parent := func(i int64) int64 {
				if i%1000 == 0 {
					return None
				}
				return i / 2
			}
			rule := func(i int64) uint32 { return uint32(i*7919) % uint32(tc.rules) }
			for i := int64(0); i < n; i++ {
				id, err := tr.Append(parent(i), rule(i))
				if err != nil {
					t.Fatalf("append %d: %v", i, err)
				}
				if id != i {
					t.Fatalf("append %d gave id %d", i, id)
				}
			}
			if tc.disk && tr.DiskBytes() == 0 {
				t.Fatalf("nothing spilled under a budget of %d", tc.budget)
			}
			if b.Used() > tc.budget && tc.budget > 0 {
				t.Fatalf("used %d of a budget of %d", b.Used(), tc.budget)
			}
			for _, i := range []int64{0, 1, 999, 1000, 4095, 65535, 123456, n - 1, 77, 150000, 3} {
				p, r, err := tr.Get(i)
				if err != nil || p != parent(i) || r != rule(i) {
					t.Fatalf("Get(%d) = %d, %d, %v; want %d, %d", i, p, r, err, parent(i), rule(i))
				}
			}
			path, err := tr.Path(2047)
			if err != nil {
				t.Fatal(err)
			}
			for k := 1; k < len(path); k++ {
				if p, _, _ := tr.Get(path[k]); p != path[k-1] {
					t.Fatalf("path %v: %d's parent is %d", path, path[k], p)
				}
			}
			if p, _, _ := tr.Get(path[0]); p != None || path[len(path)-1] != 2047 {
				t.Fatalf("path %v does not run from a root to 2047", path)
			}
			if _, _, err := tr.Get(n); err == nil {
				t.Fatal("Get past the end succeeded")
			}
			if err := tr.Close(); err != nil {
				t.Fatal(err)
			}
			if b.Used() != 0 {
				t.Fatalf("%d bytes still reserved after Close", b.Used())
			}
			if fs != nil {
				if segs, _ := fs.ListSegments("trail-"); len(segs) != 0 {
					t.Fatalf("%d segments left after Close", len(segs))
				}
			}
		})
	}
}

// TestExhausted: without a store, a trail past its budget fails with
// budget.ErrExhausted rather than growing.
func TestExhausted(t *testing.T) {
	b := budget.New(2 * chunkBytes)
	tr, err := New(b, nil, "trail-", 10)
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(0); ; i++ {
		_, err := tr.Append(i-1, 0)
		if err == nil {
			continue
		}
		var ex *budget.ErrExhausted
		if !errors.As(err, &ex) {
			t.Fatalf("error %v, want ErrExhausted", err)
		}
		if b.Used() > b.Limit() {
			t.Fatalf("used %d over the limit %d", b.Used(), b.Limit())
		}
		break
	}
}
