package store

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/state"
)

func stateOf(i int, size int) []byte {
	b := make([]byte, size)
	var w [8]byte
	binary.LittleEndian.PutUint64(w[:], uint64(i)*0x9E3779B97F4A7C15)
	copy(b, w[:])
	if size >= 12 {
		binary.LittleEndian.PutUint32(b[8:], uint32(i))
	}
	return b
}

// TestCompactNoFalseNegatives: every state inserted is found again, across
// part growth, for several signature widths; the count and the budget agree.
func TestCompactNoFalseNegatives(t *testing.T) {
	for _, bits := range []int{16, 24, 40, 64} {
		for _, ids := range []bool{false, true} {
			b := budget.New(0)
			tab, err := NewCompact(13, b, TableOptions{SigBits: bits, IDs: ids})
			if err != nil {
				t.Fatal(err)
			}
			const n = 100000
			kept := 0
			for i := 0; i < n; i++ {
				s := stateOf(i, 13)
				h := state.Hash(s)
				found, _, at := tab.Find(s, h)
				if found {
					continue // a signature collision (likely at 16 bits)
				}
				if err := tab.Insert(at, s, h, int64(kept), 0); err != nil {
					t.Fatal(err)
				}
				kept++
			}
			if tab.Len() != int64(kept) || (bits >= 40 && kept != n) {
				t.Fatalf("%d bits: Len %d, kept %d of %d", bits, tab.Len(), kept, n)
			}
			if len(tab.parts) < 2 {
				t.Fatalf("%d bits: no growth from a small first part (%d parts)", bits, len(tab.parts))
			}
			for i := 0; i < n; i++ {
				s := stateOf(i, 13)
				if found, id, _ := tab.Find(s, state.Hash(s)); !found || (ids && bits == 64 && id != int64(i)) {
					t.Fatalf("%d bits: state %d not found again (found %v, id %d)", bits, i, found, id)
				}
			}
			if b.Used() != tab.Bytes() {
				t.Fatalf("budget %d, table %d bytes", b.Used(), tab.Bytes())
			}
			tab.Release()
			if b.Used() != 0 {
				t.Fatalf("%d bytes reserved after Release", b.Used())
			}
		}
	}
}

// TestOmissionBound checks the bound against its formula for one part and
// that it shrinks by 2^-k as signatures widen.
func TestOmissionBound(t *testing.T) {
	bound := func(bits int) (float64, *Table) {
		tab, err := NewCompact(13, budget.New(0), TableOptions{SigBits: bits, Capacity: 50000})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 40000; i++ {
			s := stateOf(i, 13)
			h := state.Hash(s)
			if found, _, at := tab.Find(s, h); !found {
				tab.Insert(at, s, h, 0, 0)
			}
		}
		return tab.Stats().OmissionBound, tab
	}
	b40, tab := bound(40)
	p := tab.parts[0]
	if len(tab.parts) != 1 {
		t.Fatalf("%d parts, want 1", len(tab.parts))
	}
	a := float64(p.n) / float64(p.slots)
	want := float64(p.slots) * a * a / (2 * (1 - a)) / (math.Exp2(40) - 1)
	if math.Abs(b40-want) > 1e-6*want {
		t.Fatalf("bound %g, want %g", b40, want)
	}
	b48, _ := bound(48)
	if r := b40 / b48; r < 250 || r > 260 {
		t.Fatalf("40-bit bound / 48-bit bound = %g, want 256", r)
	}
	if tab.Stats().Kind != KindCompact {
		t.Fatalf("kind %s", tab.Stats().Kind)
	}
}

// TestCacheEvictsOldest: states sharing a home slot fill its window; the
// next one evicts the entry with the oldest stamp, and the others stay.
func TestCacheEvictsOldest(t *testing.T) {
	for _, bits := range []int{0, 40} {
		tab, err := NewCache(9, budget.New(0), TableOptions{SigBits: bits, Capacity: 64, Window: 4})
		if err != nil {
			t.Fatal(err)
		}
		const home = 5
		stamps := []int{3, 1, 4, 2} // the second entry is the oldest
		for i, st := range stamps {
			s := stateOf(i, 9)
			found, _, at := tab.Find(s, home)
			if found {
				t.Fatal("found before insertion")
			}
			tab.Insert(at, s, home, int64(i), st)
		}
		s := stateOf(99, 9)
		_, _, at := tab.Find(s, home)
		tab.Insert(at, s, home, 99, 5)
		for i := range stamps {
			found, _, _ := tab.Find(stateOf(i, 9), home)
			if found != (i != 1) {
				t.Fatalf("%d bits: state %d (stamp %d) found %v after the eviction", bits, i, stamps[i], found)
			}
		}
		st := tab.Stats()
		if st.Kind != KindCache || st.Evicted != 1 || st.Inserted != 5 || tab.Len() != 4 {
			t.Fatalf("%d bits: stats %+v, len %d", bits, st, tab.Len())
		}
		if (st.OmissionBound > 0) != (bits > 0) {
			t.Fatalf("%d bits: omission bound %g", bits, st.OmissionBound)
		}
	}
}

// TestToCache: a Compact table that can no longer grow becomes a cache;
// states of its older parts are still found.
func TestToCache(t *testing.T) {
	b := budget.New(1 << 20)
	tab, err := NewCompact(13, b, TableOptions{SigBits: 40, Stamps: true})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for ; ; n++ {
		s := stateOf(n, 13)
		h := state.Hash(s)
		_, _, at := tab.Find(s, h)
		if err := tab.Insert(at, s, h, 0, n/1000); err != nil {
			var ex *budget.ErrExhausted
			if !errors.As(err, &ex) {
				t.Fatal(err)
			}
			break
		}
	}
	if b.Used() > b.Limit() {
		t.Fatalf("used %d over %d", b.Used(), b.Limit())
	}
	old := len(tab.parts[0].data) / tab.entry // states of the first part are all still there
	tab.ToCache()
	for i := n; i < n+20000; i++ {
		s := stateOf(i, 13)
		h := state.Hash(s)
		found, _, at := tab.Find(s, h)
		if !found {
			if err := tab.Insert(at, s, h, 0, i/1000); err != nil {
				t.Fatalf("cache insert: %v", err)
			}
		}
	}
	for i := 0; i < old*8/10 && i < n; i++ {
		s := stateOf(i, 13)
		if found, _, _ := tab.Find(s, state.Hash(s)); !found {
			t.Fatalf("state %d of the frozen part lost", i)
		}
	}
	if !tab.IsCache() || tab.Stats().Evicted == 0 {
		t.Fatalf("cache %v, evicted %d", tab.IsCache(), tab.Stats().Evicted)
	}
}

// TestTableBudget: a table refuses to grow past its budget.
func TestTableBudget(t *testing.T) {
	if _, err := NewCache(100, budget.New(1000), TableOptions{Capacity: 1 << 20}); err == nil {
		t.Fatal("a cache larger than the budget was made")
	}
	if _, err := NewCompact(10, budget.New(0), TableOptions{SigBits: 8}); err == nil {
		t.Fatal("8-bit signatures accepted")
	}
}
