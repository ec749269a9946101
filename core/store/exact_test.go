package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"sync"
	"testing"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/state"
)

func TestExactInsertLookup(t *testing.T) {
	for _, size := range []int{1, 3, 8, 13, 64} {
		b := budget.New(0)
		tab, err := NewExact(size, b, state.Hash)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, size)
		const n = 50000
		key := func(i int) []byte {
			for j := range buf {
				buf[j] = 0
			}
			var w [8]byte
			binary.LittleEndian.PutUint64(w[:], uint64(i))
			copy(buf, w[:])
			return buf
		}
		limit := n
		if size == 1 {
			limit = 256
		}
		for i := 0; i < limit; i++ {
			k := key(i)
			idx, added, err := tab.Insert(k, state.Hash(k))
			if err != nil || !added || idx != int64(i) {
				t.Fatalf("size %d: insert %d = %d,%v,%v", size, i, idx, added, err)
			}
		}
		for i := 0; i < limit; i++ {
			k := key(i)
			if idx := tab.Lookup(k, state.Hash(k)); idx != int64(i) {
				t.Fatalf("size %d: lookup %d = %d", size, i, idx)
			}
			if _, added, _ := tab.Insert(k, state.Hash(k)); added {
				t.Fatalf("size %d: duplicate %d added", size, i)
			}
			if string(tab.Get(int64(i))) != string(k) {
				t.Fatalf("size %d: Get(%d) wrong", size, i)
			}
		}
		if tab.Len() != int64(limit) {
			t.Fatalf("Len = %d", tab.Len())
		}
		if b.Used() != tab.Bytes() {
			t.Fatalf("budget used %d, table holds %d", b.Used(), tab.Bytes())
		}
	}
}

func TestExactBudget(t *testing.T) {
	b := budget.New(64 << 10)
	tab, err := NewExact(16, b, state.Hash)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	var ex *budget.ErrExhausted
	for i := 0; i < 1<<20; i++ {
		binary.LittleEndian.PutUint64(buf, uint64(i))
		_, _, err := tab.Insert(buf, state.Hash(buf))
		if err != nil {
			if !errors.As(err, &ex) {
				t.Fatalf("unexpected error %v", err)
			}
			if b.Used() > b.Limit() {
				t.Fatalf("used %d over limit %d", b.Used(), b.Limit())
			}
			return
		}
	}
	t.Fatal("budget never exhausted")
}

func TestExactFindInsertAt(t *testing.T) {
	b := budget.New(0)
	tab, err := NewExact(12, b, state.Hash)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 12)
	for i := 0; i < 20000; i++ {
		binary.LittleEndian.PutUint64(buf, uint64(i*7919))
		h := state.Hash(buf)
		idx, at := tab.Find(buf, h)
		if idx != -1 {
			t.Fatalf("Find(%d) = %d before insert", i, idx)
		}
		got, err := tab.InsertAt(at, buf, h)
		if err != nil || got != int64(i) {
			t.Fatalf("InsertAt(%d) = %d, %v", i, got, err)
		}
		if idx, _ := tab.Find(buf, h); idx != int64(i) {
			t.Fatalf("Find after insert = %d", idx)
		}
	}
	for i := 0; i < 20000; i++ {
		binary.LittleEndian.PutUint64(buf, uint64(i*7919))
		if idx := tab.Lookup(buf, state.Hash(buf)); idx != int64(i) {
			t.Fatalf("Lookup(%d) = %d", i, idx)
		}
	}
}

// randomState fills buf with the low bits of a random state of the given
// width (the bits past it zero, as packed states have them).
func randomState(rng *rand.Rand, buf []byte, stateBits int) []byte {
	rng.Read(buf)
	if r := stateBits % 8; r != 0 {
		buf[len(buf)-1] &= byte(1)<<uint(r) - 1
	}
	return buf
}

func TestExactBits(t *testing.T) {
	for _, width := range []int{1, 7, 9, 31, 63, 64, 65, 70, 127, 130, 437} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			b := budget.New(0)
			tab, err := NewExactBits(width, b, state.Hash)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewSource(int64(width)))
			n := 30000
			if width < 16 {
				n = 1 << width
			}
			bytes := (width + 7) / 8
			seen := map[string]int64{}
			var order []string
			for len(order) < n {
				s := randomState(rng, make([]byte, bytes), width)
				if _, dup := seen[string(s)]; dup && width >= 16 {
					continue
				}
				idx, added, err := tab.Insert(s, state.Hash(s))
				if err != nil {
					t.Fatal(err)
				}
				if want, dup := seen[string(s)]; dup {
					if added || idx != want {
						t.Fatalf("state %x inserted again: index %d added %v, first index %d", s, idx, added, want)
					}
					continue
				}
				if !added || idx != int64(len(order)) {
					t.Fatalf("insert %d = %d, %v", len(order), idx, added)
				}
				seen[string(s)] = idx
				order = append(order, string(s))
			}
			if tab.Len() != int64(len(order)) {
				t.Fatalf("Len = %d, want %d", tab.Len(), len(order))
			}
			dst := make([]byte, bytes)
			for i, s := range order {
				if got := tab.Get(int64(i)); string(got) != s {
					t.Fatalf("Get(%d) = %x, want %x", i, got, s)
				}
				tab.Read(int64(i), dst)
				if string(dst) != s {
					t.Fatalf("Read(%d) = %x, want %x", i, dst, s)
				}
				if idx := tab.Lookup([]byte(s), state.Hash([]byte(s))); idx != int64(i) {
					t.Fatalf("Lookup(%x) = %d, want %d", s, idx, i)
				}
			}
			if b.Used() != tab.Bytes() {
				t.Fatalf("budget used %d, table holds %d", b.Used(), tab.Bytes())
			}
			tab.Release()
			if b.Used() != 0 {
				t.Fatalf("budget used %d after Release", b.Used())
			}
		})
	}
}

// TestExactCompact checks the memory a large set holds and its peak: close
// to the states' own bits plus one index entry each, with no doubling.
func TestExactCompact(t *testing.T) {
	const width = 70 // mcslock2's states
	b := budget.New(0)
	tab, err := NewExactBits(width, b, state.Hash)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(7))
	buf := make([]byte, (width+7)/8)
	n := 1 << 20
	if testing.Short() {
		n = 1 << 17
	}
	worst := 0.0
	for i := 0; i < n; i++ {
		s := randomState(rng, buf, width)
		if _, _, err := tab.Insert(s, state.Hash(s)); err != nil {
			t.Fatal(err)
		}
		if i >= 1<<16 && i%4096 == 0 {
			// Allow the arena's last chunk, allocated whole.
			worst = max(worst, float64(b.Peak()-int64(tab.chunkBytes))/float64(tab.Len()))
		}
	}
	perState := float64(tab.Bytes()) / float64(tab.Len())
	peak := float64(b.Peak()) / float64(tab.Len())
	bound := 1.3 * (width/8.0 + 8)
	t.Logf("%d states: %.2f bytes/state held, %.2f at the peak, %.2f worst peak so far (bound %.2f)", tab.Len(), perState, peak, worst, bound)
	if peak > bound || worst > bound {
		t.Fatalf("peak %.2f (worst %.2f) bytes per state; want at most %.2f", peak, worst, bound)
	}
}

// TestExactBudgetFull checks that a set the budget will not let grow fills
// its index further instead of stopping at the growth point, and never
// exceeds the budget.
func TestExactBudgetFull(t *testing.T) {
	const width = 70
	limit := int64(4 << 20)
	b := budget.New(limit)
	tab, err := NewExactBits(width, b, state.Hash)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(3))
	buf := make([]byte, (width+7)/8)
	var ex *budget.ErrExhausted
	for {
		s := randomState(rng, buf, width)
		_, _, err := tab.Insert(s, state.Hash(s))
		if b.Used() > limit || b.Peak() > limit {
			t.Fatalf("used %d (peak %d) over the limit %d", b.Used(), b.Peak(), limit)
		}
		if err != nil {
			if !errors.As(err, &ex) {
				t.Fatalf("unexpected error %v", err)
			}
			break
		}
	}
	perState := float64(limit) / float64(tab.Len())
	t.Logf("%d states in %d bytes: %.2f bytes per state", tab.Len(), limit, perState)
	if perState > width/8.0+8/0.8+1 {
		t.Fatalf("a %d-byte budget held only %d states (%.2f bytes each)", limit, tab.Len(), perState)
	}
}

// benchSet is a set of a million 70-bit states, built once.
var benchSet struct {
	sync.Once
	tab    *Exact
	keys   [][]byte
	hashes []uint64
}

// BenchmarkExactFind measures lookups of states that are present (most
// successors are) in a set of a million 70-bit states.
func BenchmarkExactFind(b *testing.B) {
	const width, n = 70, 1 << 20
	bs := &benchSet
	bs.Do(func() {
		tab, err := NewExactBits(width, budget.New(0), state.Hash)
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewSource(1))
		bs.tab = tab
		bs.keys = make([][]byte, n)
		bs.hashes = make([]uint64, n)
		for i := range bs.keys {
			bs.keys[i] = randomState(rng, make([]byte, (width+7)/8), width)
			bs.hashes[i] = state.Hash(bs.keys[i])
			tab.Insert(bs.keys[i], bs.hashes[i])
		}
	})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i & (n - 1)
		if idx, _ := bs.tab.Find(bs.keys[k], bs.hashes[k]); idx < 0 {
			b.Fatal("lost a state")
		}
	}
}
