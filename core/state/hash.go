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
	return avalanche(h)
}

// avalanche is xxHash64's last mix: every bit of the result depends on
// every bit of h.
func avalanche(h uint64) uint64 {
	h ^= h >> 33
	h *= p2
	h ^= h >> 29
	h *= p3
	h ^= h >> 32
	return h
}

// LaneHash returns a 64-bit hash of b, quicker than Hash on a long b: its
// words go round-robin into four accumulators, each mixed by xxHash64's
// round, so their multiplies overlap instead of each waiting for the last (the generated search hashes every successor with it: a
// 141-byte state took 18 dependent rounds). The last partial word is its
// bytes, little-endian, zero-extended.
func LaneHash(b []byte) uint64 {
	acc := LaneSeeds
	i := 0
	for ; len(b) >= 8; i++ {
		acc[i&3] = laneRound(acc[i&3], binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	n := uint64(i)*8 + uint64(len(b))
	if len(b) > 0 {
		var w [8]byte
		copy(w[:], b)
		acc[i&3] = laneRound(acc[i&3], binary.LittleEndian.Uint64(w[:]))
	}
	return laneFinish(acc, n)
}

// The primes laneRound and laneFinish multiply by, for code that
// generates LaneHash (core/wasmgen).
const (
	LanePrime1 = p1
	LanePrime2 = p2
	LanePrime3 = p3
)

// LaneSeeds are LaneHash's accumulators before the first word
// (xxHash64's, seed 0: p1+p2 and -p1, wrapped to 64 bits).
var LaneSeeds = [4]uint64{p1 + p2 - 1<<64, p2, 0, 1<<64 - p1}

// laneRound mixes word w into accumulator acc.
func laneRound(acc, w uint64) uint64 { return bits.RotateLeft64(acc+w*p2, 31) * p1 }

// laneFinish merges the accumulators and the length n and mixes the
// result so that every bit of it depends on every input bit.
func laneFinish(acc [4]uint64, n uint64) uint64 {
	return avalanche(bits.RotateLeft64(acc[0], 1) + bits.RotateLeft64(acc[1], 7) +
		bits.RotateLeft64(acc[2], 12) + bits.RotateLeft64(acc[3], 18) + n)
}
