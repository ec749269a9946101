package state

import (
	"testing"
)

func TestHashDistinguishes(t *testing.T) {
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
			h := Hash(buf[:n])
			if prev, ok := seen[h]; ok && string(prev) != string(buf[:n]) {
				t.Fatalf("collision between %x and %x", prev, buf[:n])
			}
			seen[h] = append([]byte(nil), buf[:n]...)
		}
	}
}

func TestHashLengthMatters(t *testing.T) {
	if Hash([]byte{0}) == Hash([]byte{0, 0}) {
		t.Fatal("hash ignores length")
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
