package sigfile_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/sigfile"
	"github.com/locus-mc/locus/storagefs"
)

func entry(i int) []byte {
	e := make([]byte, 6)
	binary.LittleEndian.PutUint32(e, uint32(i*7919))
	binary.LittleEndian.PutUint16(e[4:], uint16(i))
	return e
}

func hash(k []byte) uint64 { return uint64(binary.LittleEndian.Uint32(k)) * 0x9E3779B97F4A7C15 }

// TestFile appends entries across several blocks and reads them back from
// the blocks, the tail and its index; a checkpoint restores the same file.
func TestFile(t *testing.T) {
	const per = 100
	for _, n := range []int{0, 1, per - 1, per, 3*per + 17} {
		fs := storagefs.NewMemory(storagefs.Options{})
		b := budget.New(1 << 20)
		f, err := sigfile.New(fs, b, "D-", 6, per)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.IndexTail(4, hash); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			if err := f.Append(entry(i)); err != nil {
				t.Fatal(err)
			}
		}
		check := func(f *sigfile.File, what string) {
			t.Helper()
			if f.Len() != int64(n) || f.Blocks() != n/per || f.TailLen() != n%per {
				t.Fatalf("%s n=%d: %d entries, %d blocks, %d in the tail", what, n, f.Len(), f.Blocks(), f.TailLen())
			}
			for i := 0; i < n; i++ {
				var got []byte
				if i/per < f.Blocks() {
					data, err := f.Block(i / per)
					if err != nil {
						t.Fatal(err)
					}
					got = data[i%per*6 : i%per*6+6]
				} else {
					got = f.Tail()[i%per*6 : i%per*6+6]
					e, ok := f.LookupTail(entry(i)[:4])
					if !ok || string(e) != string(entry(i)) {
						t.Fatalf("%s n=%d: the tail's index lost entry %d", what, n, i)
					}
				}
				if string(got) != string(entry(i)) {
					t.Fatalf("%s n=%d: entry %d is %x, want %x", what, n, i, got, entry(i))
				}
			}
			if _, ok := f.LookupTail(entry(n + 1)[:4]); ok {
				t.Fatalf("%s n=%d: the tail's index finds an entry never appended", what, n)
			}
		}
		check(f, "appended")
		st, err := f.Checkpoint("ck-tail")
		if err != nil {
			t.Fatal(err)
		}
		f.KeepSegments()
		f.Close()
		if b.Used() != 0 {
			t.Fatalf("n=%d: %d bytes still reserved after Close", n, b.Used())
		}
		g, err := sigfile.Restore(fs, b, "D-", st)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.IndexTail(4, hash); err != nil {
			t.Fatal(err)
		}
		check(g, "restored")
		g.Close()
		if segs, _ := fs.ListSegments("D-"); len(segs) != 0 {
			t.Fatalf("n=%d: Close left %d blocks", n, len(segs))
		}
	}
}

// TestFileBudget: a file's buffers come from the budget, and a budget too
// small for them is an ErrExhausted.
func TestFileBudget(t *testing.T) {
	fs := storagefs.NewMemory(storagefs.Options{})
	_, err := sigfile.New(fs, budget.New(1000), "D-", 6, 100)
	var ex *budget.ErrExhausted
	if !errors.As(err, &ex) {
		t.Fatalf("New under a 1000-byte budget = %v, want ErrExhausted", err)
	}
}
