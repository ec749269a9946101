package state

import (
	"math/rand/v2"
	"testing"
)

var hashes = []struct {
	name string
	hash func([]byte) uint64
}{{"Hash", Hash}, {"LaneHash", LaneHash}}

func TestHashDistinguishes(t *testing.T) {
	for _, hf := range hashes {
		seen := map[uint64][]byte{}
		buf := make([]byte, 40)
		for n := 0; n <= 40; n++ {
			for i := 0; i < 200; i++ {
				for j := range buf[:n] {
					buf[j] = 0
				}
				if n > 0 {
					buf[i%n] = byte(i)
				}
				h := hf.hash(buf[:n])
				if prev, ok := seen[h]; ok && string(prev) != string(buf[:n]) {
					t.Fatalf("%s: collision between %x and %x", hf.name, prev, buf[:n])
				}
				seen[h] = append([]byte(nil), buf[:n]...)
			}
		}
	}
}

// TestLaneHashAvalanche flips a random bit of random inputs and checks
// that every output bit flips about half the time: the generated search
// indexes by the top bits and by bits 32-40, so none may be weak.
func TestLaneHashAvalanche(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 7, 8, 9, 25, 33, 141} {
		const trials = 400
		var flips [64]int
		in := make([]byte, n)
		for range trials {
			for i := range in {
				in[i] = byte(rng.Uint32())
			}
			h := LaneHash(in)
			bit := rng.IntN(8 * n)
			in[bit/8] ^= 1 << (bit % 8)
			d := h ^ LaneHash(in)
			for k := range flips {
				flips[k] += int(d >> k & 1)
			}
		}
		for k, c := range flips {
			if c < trials*35/100 || c > trials*65/100 {
				t.Errorf("%d bytes: output bit %d flipped %d times in %d", n, k, c, trials)
			}
		}
	}
}

func TestHashLengthMatters(t *testing.T) {
	for _, hf := range hashes {
		if hf.hash([]byte{0}) == hf.hash([]byte{0, 0}) {
			t.Fatalf("%s ignores length", hf.name)
		}
	}
	if HashSeed([]byte{1, 2, 3}, 1) == HashSeed([]byte{1, 2, 3}, 2) {
		t.Fatal("hash ignores seed")
	}
}

func BenchmarkHash32(b *testing.B) {
	buf := make([]byte, 32)
	b.SetBytes(32)
	b.ReportAllocs()
	var s uint64
	for i := 0; i < b.N; i++ {
		buf[0] = byte(i)
		s += Hash(buf)
	}
	_ = s
}
