// Package state holds what every engine does with packed state vectors:
// hashing and, later, signatures and compression codecs.
package state

import (
	"encoding/binary"
	"math/bits"
)

// Multiply-based mixing (the "mum" step of wyhash-style hashes): a 64x64→128
// bit multiply folded to 64 bits. STACK-NOTES measured such hashes 3.5-4.5x
// slower under wasm than natively, against 5-7x for CRC32.
const (
	k0 = 0xa0761d6478bd642f
	k1 = 0xe7037ed1a0b428db
	k2 = 0x8ebc6af09c88c6e3
	k3 = 0x589965cc75374cc3
)

func mum(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// Hash returns a 64-bit hash of b.
func Hash(b []byte) uint64 {
	return HashSeed(b, 0)
}

// HashSeed returns a 64-bit hash of b under a seed (independent hash
// functions for signatures and partitioning).
func HashSeed(b []byte, seed uint64) uint64 {
	n := len(b)
	h := seed ^ k0 ^ mum(uint64(n)^k1, k2)
	for len(b) >= 16 {
		h = mum(binary.LittleEndian.Uint64(b)^k1, binary.LittleEndian.Uint64(b[8:])^h)
		b = b[16:]
	}
	var a, c uint64
	switch {
	case len(b) >= 8:
		a = binary.LittleEndian.Uint64(b)
		c = tail(b[8:])
	default:
		a = tail(b)
	}
	h = mum(a^k1^h, c^k3)
	return mum(h^k0, uint64(n)^k2)
}

// tail loads up to 8 bytes little-endian.
func tail(b []byte) uint64 {
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}
