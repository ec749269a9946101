// Package state holds what every engine does with packed state vectors:
// hashing and, later, signatures and compression codecs.
package state

import (
	"encoding/binary"
	"math/bits"
)

// The hash is xxHash64's word-at-a-time scheme: only 64-bit multiplies and
// rotations, which compile to single instructions natively and under wasm
// alike (a 64x64->128-bit multiply has no wasm instruction; STACK-NOTES
// measured 128-bit-multiply hashes 3.5-4.5x slower there).
const (
	p1 = 0x9E3779B185EBCA87
	p2 = 0xC2B2AE3D27D4EB4F
	p3 = 0x165667B19E3779F9
	p4 = 0x85EBCA77C2B2AE63
	p5 = 0x27D4EB2F165667C5
)

// Hash returns a 64-bit hash of b.
func Hash(b []byte) uint64 { return HashSeed(b, 0) }

// HashSeed returns a 64-bit hash of b under a seed (independent hash
// functions for signatures and partitioning).
func HashSeed(b []byte, seed uint64) uint64 {
	h := seed + p5 + uint64(len(b))
	for len(b) >= 8 {
		k := binary.LittleEndian.Uint64(b) * p2
		k = bits.RotateLeft64(k, 31) * p1
		h ^= k
		h = bits.RotateLeft64(h, 27)*p1 + p4
		b = b[8:]
	}
	if len(b) >= 4 {
		h ^= uint64(binary.LittleEndian.Uint32(b)) * p1
		h = bits.RotateLeft64(h, 23)*p2 + p3
		b = b[4:]
	}
	for _, c := range b {
		h ^= uint64(c) * p5
		h = bits.RotateLeft64(h, 11) * p1
	}
	h ^= h >> 33
	h *= p2
	h ^= h >> 29
	h *= p3
	h ^= h >> 32
	return h
}
