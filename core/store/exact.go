// Package store holds visited sets. Every set stores packed state vectors in
// pointer-free arenas, so the garbage collector never scans them, and
// reserves its bytes from the run's budget before growing.
package store

import (
	"bytes"
	"math/bits"

	"github.com/locus-mc/locus/core/budget"
)

// Exact is an exact visited set: open addressing (linear probing) over a
// table of uint64 entries, each holding a state's index into a chunked
// arena plus 24 bits of its hash as a tag, so most misses never touch the
// arena. Indexes are dense (0, 1, 2, ... in insertion order), which lets
// engines keep per-state data in parallel columns.
type Exact struct {
	recSize   int
	slots     []uint64 // 0 = empty; else tag<<40 | (index+1)
	mask      uint64
	n         int64
	chunks    [][]byte
	chunkRecs int // records per chunk, a power of two
	chunkBits uint
	b         *budget.Budget
	hashFn    func([]byte) uint64
}

const (
	idxBits  = 40
	idxMask  = 1<<idxBits - 1
	maxLoad  = 0.70
	minSlots = 1 << 10
)

// MaxStates is the largest number of states an Exact set can index.
const MaxStates = idxMask - 1

// NewExact returns an empty set of recSize-byte states. hash must be the
// hash function the caller uses for Insert (needed to rehash on growth).
func NewExact(recSize int, b *budget.Budget, hash func([]byte) uint64) (*Exact, error) {
	t := &Exact{recSize: recSize, b: b, hashFn: hash}
	// Chunks of about 1 MiB (less under a small budget) keep growth
	// smooth and allocations bounded.
	target := int64(1 << 20)
	if l := b.Limit(); l > 0 && l/64 < target {
		target = l / 64
		if target < 4096 {
			target = 4096
		}
	}
	recs := int(target) / recSize
	if recs < 1 {
		recs = 1
	}
	t.chunkBits = uint(bits.Len(uint(recs)) - 1)
	t.chunkRecs = 1 << t.chunkBits
	if err := t.resize(minSlots); err != nil {
		return nil, err
	}
	return t, nil
}

// Len returns the number of states stored.
func (t *Exact) Len() int64 { return t.n }

// Bytes returns the memory the set holds.
func (t *Exact) Bytes() int64 {
	return int64(len(t.slots))*8 + int64(len(t.chunks))*int64(t.chunkRecs*t.recSize)
}

// Get returns the stored state with index i (valid as long as the set lives).
func (t *Exact) Get(i int64) []byte {
	c := t.chunks[i>>t.chunkBits]
	off := int(i&int64(t.chunkRecs-1)) * t.recSize
	return c[off : off+t.recSize : off+t.recSize]
}

// Lookup returns the index of state s (with hash h), or -1.
func (t *Exact) Lookup(s []byte, h uint64) int64 {
	idx, _ := t.Find(s, h)
	return idx
}

// Find returns the index of state s (with hash h), or -1 and the position
// where InsertAt can add it (valid until the set next changes).
func (t *Exact) Find(s []byte, h uint64) (idx int64, at uint64) {
	tag := h >> (64 - 24) << idxBits
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		e := t.slots[i]
		if e == 0 {
			return -1, i
		}
		if e&^idxMask == tag {
			idx := int64(e&idxMask) - 1
			if bytes.Equal(t.Get(idx), s) {
				return idx, i
			}
		}
	}
}

// InsertAt adds state s, known to be absent, at the position Find returned
// (with no change to the set in between), and returns its index.
func (t *Exact) InsertAt(at uint64, s []byte, h uint64) (int64, error) {
	if float64(t.n+1) > maxLoad*float64(len(t.slots)) {
		idx, _, err := t.Insert(s, h) // grows, then probes again
		return idx, err
	}
	idx := t.n
	if err := t.store(idx, s); err != nil {
		return -1, err
	}
	t.slots[at] = h>>(64-24)<<idxBits | uint64(idx+1)
	t.n++
	return idx, nil
}

// store copies s into the arena as record idx, growing the arena.
func (t *Exact) store(idx int64, s []byte) error {
	if idx >= MaxStates {
		return &budget.ErrExhausted{Part: "visited set index", Need: 1, Limit: t.b.Limit()}
	}
	if int(idx>>t.chunkBits) == len(t.chunks) {
		size := int64(t.chunkRecs * t.recSize)
		if !t.b.Reserve("visited", size) {
			return &budget.ErrExhausted{Part: "visited set", Need: size, Limit: t.b.Limit()}
		}
		t.chunks = append(t.chunks, make([]byte, t.chunkRecs*t.recSize))
	}
	copy(t.Get(idx), s)
	return nil
}

// Insert adds state s (with hash h) if absent. It returns the state's index
// and whether it was added. An error (wrapping *budget.ErrExhausted) means
// the set could not grow; the state was not added.
func (t *Exact) Insert(s []byte, h uint64) (idx int64, added bool, err error) {
	tag := h >> (64 - 24) << idxBits
	i := h & t.mask
	for {
		e := t.slots[i]
		if e == 0 {
			break
		}
		if e&^idxMask == tag {
			idx := int64(e&idxMask) - 1
			if bytes.Equal(t.Get(idx), s) {
				return idx, false, nil
			}
		}
		i = (i + 1) & t.mask
	}
	if float64(t.n+1) > maxLoad*float64(len(t.slots)) {
		if err := t.resize(2 * len(t.slots)); err != nil {
			return -1, false, err
		}
		return t.Insert(s, h)
	}
	idx = t.n
	if err := t.store(idx, s); err != nil {
		return -1, false, err
	}
	t.slots[i] = tag | uint64(idx+1)
	t.n++
	return idx, true, nil
}

func (t *Exact) resize(n int) error {
	size := int64(n) * 8
	if !t.b.Reserve("visited", size) {
		return &budget.ErrExhausted{Part: "visited set table", Need: size, Limit: t.b.Limit()}
	}
	old := t.slots
	t.slots = make([]uint64, n)
	t.mask = uint64(n - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		idx := int64(e&idxMask) - 1
		h := t.hashFn(t.Get(idx))
		i := h & t.mask
		for t.slots[i] != 0 {
			i = (i + 1) & t.mask
		}
		t.slots[i] = e
	}
	t.b.Release("visited", int64(len(old))*8)
	return nil
}

// Release gives all memory back to the budget.
func (t *Exact) Release() {
	t.b.Release("visited", t.Bytes())
	t.slots, t.chunks = nil, nil
}
