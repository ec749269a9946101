package store

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"testing"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/state"
)

// recentKey is the 9-byte packed state numbered i.
func recentKey(i int) []byte {
	k := make([]byte, 9)
	binary.LittleEndian.PutUint64(k, uint64(i)*0x9E3779B97F4A7C15)
	k[8] = byte(i)
	return k
}

// TestRecentCheck runs two checks of a table against a file of old keys and
// compares what survives with a map: every candidate the file holds is
// found (marked), every other one survives exactly once, and keys kept by
// Retain are not candidates of the next check.
func TestRecentCheck(t *testing.T) {
	for _, sigBits := range []int{0, 40, 64} {
		t.Run(fmt.Sprintf("sig%d", sigBits), func(t *testing.T) {
			tab, err := NewRecent(9, budget.New(0), RecentOptions{SigBits: sigBits, Bytes: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewSource(1))
			old := map[int]bool{} // keys in the file D
			var file []byte
			for len(old) < 30000 {
				i := rng.Intn(1 << 30)
				if !old[i] {
					old[i] = true
					file = append(file, tabKey(tab, i)...)
				}
			}
			// D holds some keys twice (revisited states): a key found in
			// two places still counts once.
			file = append(file, file[:5000*tab.KeyLen()]...)
			next := 1 << 30 // fresh keys, never in D
			for check := 0; check < 2; check++ {
				slots := map[int]uint64{}
				for len(slots) < 20000 {
					var i int
					if rng.Intn(3) == 0 {
						i = next
						next++
					} else {
						i = rng.Intn(1 << 30)
					}
					if _, ok := slots[i]; ok {
						continue
					}
					k := recentKey(i)
					found, _, at := tab.Find(k, state.Hash(k))
					if found {
						if check == 0 {
							t.Fatalf("key %d found before it was inserted", i)
						}
						continue // kept from the first check
					}
					if err := tab.Insert(at, k, state.Hash(k), int64(i), 0); err != nil {
						t.Fatal(err)
					}
					slots[i] = at
				}
				tab.Prepare()
				marked := int64(0)
				if check == 0 {
					// The whole file at once, in three parts (the file
					// holds some keys twice: each must count once).
					marked = tab.MarkOldParallel(file, 0, 3)
				} else {
					for off := 0; off < len(file); off += 1000 * tab.KeyLen() {
						marked += tab.MarkOld(file[off:min(off+1000*tab.KeyLen(), len(file))], 0, nil)
					}
				}
				wantMarked := int64(0)
				for i, at := range slots {
					if tab.Survives(at) == old[i] {
						t.Fatalf("check %d: key %d (in D: %v) survives: %v", check, i, old[i], !old[i])
					}
					if tab.Survives(at) {
						t.Fatalf("check %d: key %d survives twice", check, i)
					}
					if old[i] {
						wantMarked++
					}
				}
				if marked != wantMarked {
					t.Fatalf("check %d: MarkOld marked %d, want %d", check, marked, wantMarked)
				}
				// The survivors join D, as the engine moves them.
				for i := range slots {
					if !old[i] {
						old[i] = true
						file = append(file, tabKey(tab, i)...)
					}
				}
				tab.Retain()
			}
		})
	}
}

// tabKey is key i as tab's file D holds it.
func tabKey(tab *Recent, i int) []byte {
	k := make([]byte, tab.KeyLen())
	tab.Key(recentKey(i), k)
	return k
}

// BenchmarkRecentMarkOld measures a check's scan of D: blocks of 140 KB of
// 9-byte states against 45,000 candidates (mcslock2 under a tenth of its
// exact peak), one in a hundred entries a candidate.
func BenchmarkRecentMarkOld(b *testing.B) {
	for _, sigBits := range []int{0, 40} {
		b.Run(fmt.Sprintf("sig%d", sigBits), func(b *testing.B) {
			tab, err := NewRecent(9, budget.New(0), RecentOptions{SigBits: sigBits, Bytes: 6 << 20})
			if err != nil {
				b.Fatal(err)
			}
			const cands, entries = 45000, 15500
			for i := 0; i < cands; i++ {
				k := recentKey(i)
				_, _, at := tab.Find(k, state.Hash(k))
				if err := tab.Insert(at, k, state.Hash(k), int64(i), 0); err != nil {
					b.Fatal(err)
				}
			}
			var block []byte
			for e := 0; e < entries; e++ {
				i := cands + e
				if e%100 == 0 {
					i = e % cands
				}
				block = append(block, tabKey(tab, i)...)
			}
			tab.Prepare()
			b.SetBytes(int64(len(block)))
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				tab.MarkOld(block, 0, nil)
				clear(tab.marked) // every pass finds the same candidates
			}
		})
	}
}
