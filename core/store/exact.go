// Package store holds visited sets. Every set stores packed state vectors in
// pointer-free arenas, so the garbage collector never scans them, and
// reserves its bytes from the run's budget before growing.
package store

import (
	"encoding/binary"
	"math/bits"

	"github.com/locus-mc/locus/core/budget"
)

// Exact is an exact visited set. States are stored bit-packed in a chunked
// arena, one after another with no padding, and numbered densely (0, 1, 2,
// ... in insertion order), which lets engines keep per-state data in
// parallel columns.
//
// The index is split into 256 parts by the hash's top bits, each an
// open-addressed table of uint64 entries (32 more bits of the hash as a tag
// above the state's number plus one), grown on its own: growing copies one
// part, not the whole index, so the peak stays close to the live size, and
// a part grows by a quarter, not double, so the load stays between about
// 0.7 and 0.88. A state's home slot is its tag scaled to the part's size,
// and each part keeps its entries in tag order (ordered linear probing):
// a lookup stops at the first larger tag, so misses cost no more than
// hits, and growing a part is a merge that reads neither hashes nor states.
type Exact struct {
	bits    int // bits per state
	recSize int // bytes per state as callers pass it: (bits+7)/8
	parts   [numParts]part
	n       int64

	chunks     [][]byte
	chunkRecs  int // records per chunk, a power of two
	chunkShift uint
	chunkBytes int // bytes per chunk (records, then 9 bytes of padding)
	liveChunks int // chunks not yet given back (Drain gives them back)

	b *budget.Budget
}

// part is one independently grown piece of the index.
type part struct {
	slots []uint64 // 0 = empty; else tag<<32 | (index+1), in tag order
	size  int      // home slots; the slots after them take overflow
	n     int      // entries
}

const (
	partBits = 8
	numParts = 1 << partBits
	// maxLoad is the load at which a part grows, by growth (a quarter).
	maxLoad = 0.88
	// fullLoad is the load beyond which a part that the budget does not
	// let grow refuses new states (probes get long past it).
	fullLoad = 0.97
	// slack slots after a part's home slots take entries whose cluster
	// runs past the last home slot (tables do not wrap around).
	slack = 16
	// smallPart: a part with fewer home slots doubles when it grows (all
	// 256 parts that small take at most 0.5 MiB).
	smallPart = 1 << 8
	// Index bits: an entry keeps the state's number plus one in 32 bits.
	idxBits = 32
	idxMask = 1<<idxBits - 1
)

// MaxStates is the largest number of states an Exact set can index.
const MaxStates = idxMask - 1

// ExactParts is the number of parts an Exact set's index is split into.
const ExactParts = numParts

// ExactPartOf returns the index part (0 to ExactParts-1) that holds the
// states of table hash h. Sets that divide states among them by it grow
// their index parts exactly as one set holding all the states would.
func ExactPartOf(h uint64) int { return int(h >> (64 - partBits)) }

// ExactOverhead returns what an Exact set of stateBits-bit states under a
// budget of limit bytes (0: none) may hold beyond its states' share of one
// set holding them and others in the same index parts: its index parts of
// its own while they are empty, and the chunk of its arena it has not
// filled.
func ExactOverhead(stateBits int, limit int64) int64 {
	_, bytes := chunkGeometry(max(stateBits, 1), limit)
	return int64(bytes) + numParts*(1+slack)*8
}

// chunkGeometry returns the arena's chunk size: about 1 MiB (less under a
// small budget), which keeps growth smooth and allocations bounded, as a
// power-of-two number of records (its shift) and in bytes.
func chunkGeometry(stateBits int, limit int64) (shift uint, bytes int) {
	target := int64(1 << 20)
	if limit > 0 && limit/64 < target {
		target = max(limit/64, 4096)
	}
	recs := max(int(target*8/int64(stateBits)), 1)
	shift = uint(bits.Len(uint(recs)) - 1)
	return shift, ((1<<shift)*stateBits+7)/8 + 9
}

// NewExact returns an empty set of recSize-byte states: NewExactBits with
// every bit of the bytes kept.
func NewExact(recSize int, b *budget.Budget, hash func([]byte) uint64) (*Exact, error) {
	return NewExactBits(8*recSize, b, hash)
}

// NewExactBits returns an empty set of states of stateBits bits, passed as
// (stateBits+7)/8 bytes whose bits past stateBits are zero (as
// compile.Model.Pack writes them). Each state is stored in stateBits bits.
// The hash function is the one the caller uses to compute the hashes it
// passes; the set needs no hashing of its own (entries keep tags).
func NewExactBits(stateBits int, b *budget.Budget, hash func([]byte) uint64) (*Exact, error) {
	_ = hash
	if stateBits < 1 {
		stateBits = 1
	}
	t := &Exact{bits: stateBits, recSize: (stateBits + 7) / 8, b: b}
	t.chunkShift, t.chunkBytes = chunkGeometry(stateBits, b.Limit())
	t.chunkRecs = 1 << t.chunkShift
	for i := range t.parts {
		if err := t.resize(&t.parts[i], 1); err != nil {
			t.Release()
			return nil, err
		}
	}
	return t, nil
}

// Len returns the number of states stored.
func (t *Exact) Len() int64 { return t.n }

// Bytes returns the memory the set holds.
func (t *Exact) Bytes() int64 {
	return t.IndexBytes() + int64(t.liveChunks)*int64(t.chunkBytes)
}

// Get returns a copy of the stored state with index i.
func (t *Exact) Get(i int64) []byte {
	out := make([]byte, t.recSize)
	t.Read(i, out)
	return out
}

// Read writes the stored state with index i into dst (len >= the state's
// bytes).
func (t *Exact) Read(i int64, dst []byte) {
	c, off := t.record(i)
	dst = dst[:t.recSize]
	nb := t.bits
	for k := 0; nb > 0; k, nb = k+8, nb-64 {
		w := load(c, off)
		if nb < 64 {
			w &= 1<<uint(nb) - 1
		}
		off += 64
		if k+8 <= len(dst) {
			binary.LittleEndian.PutUint64(dst[k:], w)
			continue
		}
		for j := k; j < len(dst); j++ {
			dst[j] = byte(w)
			w >>= 8
		}
	}
}

// record returns the chunk holding state i and the state's bit offset in it.
func (t *Exact) record(i int64) ([]byte, int) {
	return t.chunks[i>>(t.chunkShift&63)], int(i&int64(t.chunkRecs-1)) * t.bits
}

// load reads the 64 bits at bit offset off of c (c has 9 bytes of padding
// after its last record).
func load(c []byte, off int) uint64 {
	b, sh := off>>3, uint(off&7)
	w := c[b : b+9 : b+9]
	// <<1<<(63-sh) is 0 when sh is 0 (a shift by 64 would need a branch).
	return binary.LittleEndian.Uint64(w)>>sh | uint64(w[8])<<1<<(63-sh)
}

// word returns the 64-bit word of s at byte k, zero-extended past its end.
func word(s []byte, k int) uint64 {
	if k+8 <= len(s) {
		return binary.LittleEndian.Uint64(s[k:])
	}
	if len(s) >= 8 {
		return binary.LittleEndian.Uint64(s[len(s)-8:]) >> (8 * uint(k+8-len(s)))
	}
	var w uint64
	for j := len(s) - 1; j >= k; j-- {
		w = w<<8 | uint64(s[j])
	}
	return w
}

// equal reports whether stored state i is s.
func (t *Exact) equal(i int64, s []byte) bool {
	c, off := t.record(i)
	nb := t.bits
	k := 0
	for ; nb >= 64; k, nb = k+8, nb-64 {
		if load(c, off) != binary.LittleEndian.Uint64(s[k:k+8:k+8]) {
			return false
		}
		off += 64
	}
	if nb == 0 {
		return true
	}
	// The last bits: from the last 8 bytes of s when it has 8.
	var x uint64
	if len(s) >= 8 {
		x = binary.LittleEndian.Uint64(s[len(s)-8:]) >> ((8 * uint(k+8-len(s))) & 63)
	} else {
		x = word(s, k)
	}
	return (load(c, off)^x)&(1<<(uint(nb)&63)-1) == 0
}

// locate returns the part of hash h, and its tag and home slot there.
func (t *Exact) locate(h uint64) (p *part, tag uint64, home int) {
	p = &t.parts[h>>(64-partBits)]
	tag = h << partBits >> 32
	return p, tag, int(tag * uint64(p.size) >> 32)
}

// Lookup returns the index of state s (with hash h), or -1.
func (t *Exact) Lookup(s []byte, h uint64) int64 {
	idx, _ := t.Find(s, h)
	return idx
}

// Find returns the index of state s (with hash h), or -1 and the position
// where InsertAt can add it (valid until the set next changes).
func (t *Exact) Find(s []byte, h uint64) (idx int64, at uint64) {
	p, tag, i := t.locate(h)
	slots := p.slots
	for ; i < len(slots); i++ {
		e := slots[i]
		et := e >> 32
		if e == 0 || et > tag {
			break
		}
		if et == tag {
			if idx := int64(e&idxMask) - 1; t.equal(idx, s) {
				return idx, uint64(i)
			}
		}
	}
	return -1, uint64(i)
}

// InsertAt adds state s, known to be absent, at the position Find returned
// (with no change to the set in between), and returns its index. An error
// (wrapping *budget.ErrExhausted) means the set could not grow; the state
// was not added.
func (t *Exact) InsertAt(at uint64, s []byte, h uint64) (int64, error) {
	p, tag, _ := t.locate(h)
	if t.n >= MaxStates {
		return -1, &budget.ErrExhausted{Part: "visited set index", Need: 1, Limit: t.b.Limit()}
	}
	// The first empty slot at or after at, where the entries shift to.
	free := int(at)
	for free < len(p.slots) && p.slots[free] != 0 {
		free++
	}
	if float64(p.n+1) > maxLoad*float64(p.size) || free == len(p.slots) {
		// A quarter more home slots (twice as many while the part is
		// small: its copy costs nothing, and fewer steps allocate less).
		// If the budget refuses them, the part takes states until it is
		// fullLoad full.
		grow := p.size / 4
		if p.size < smallPart {
			grow = p.size
		}
		err := t.resize(p, p.size+grow)
		if err == nil {
			_, at := t.Find(s, h)
			return t.InsertAt(at, s, h)
		}
		if free == len(p.slots) || float64(p.n+1) > fullLoad*float64(p.size) {
			return -1, err
		}
	}
	idx := t.n
	if err := t.store(idx, s); err != nil {
		return -1, err
	}
	copy(p.slots[at+1:free+1], p.slots[at:free])
	p.slots[at] = tag<<32 | uint64(idx+1)
	p.n++
	t.n++
	return idx, nil
}

// Insert adds state s (with hash h) if absent. It returns the state's index
// and whether it was added. An error (wrapping *budget.ErrExhausted) means
// the set could not grow; the state was not added.
func (t *Exact) Insert(s []byte, h uint64) (idx int64, added bool, err error) {
	idx, at := t.Find(s, h)
	if idx >= 0 {
		return idx, false, nil
	}
	idx, err = t.InsertAt(at, s, h)
	return idx, err == nil, err
}

// resize rebuilds part p with size home slots: a merge of its entries, in
// tag order, each at its new home slot or the first free slot after it.
func (t *Exact) resize(p *part, size int) error {
	n := size + slack
	for {
		need := int64(n) * 8
		if !t.b.Reserve("visited", need) {
			return &budget.ErrExhausted{Part: "visited set index", Need: need, Limit: t.b.Limit()}
		}
		slots := make([]uint64, n)
		if t.merge(p.slots, slots, size) {
			t.b.Release("visited", int64(len(p.slots))*8)
			p.slots, p.size = slots, size
			return nil
		}
		// A cluster ran past the slack: more of it.
		t.b.Release("visited", need)
		n += slack + n/8
	}
}

// merge places the entries of old into slots (home slots 0..size-1); it
// reports false if they do not fit.
func (t *Exact) merge(old, slots []uint64, size int) bool {
	next := 0
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := max(int((e>>32)*uint64(size)>>32), next)
		if i >= len(slots) {
			return false
		}
		slots[i] = e
		next = i + 1
	}
	return true
}

// store writes s into the arena as record idx, growing the arena.
func (t *Exact) store(idx int64, s []byte) error {
	if int(idx>>t.chunkShift) == len(t.chunks) {
		size := int64(t.chunkBytes)
		if !t.b.Reserve("visited", size) {
			return &budget.ErrExhausted{Part: "visited set", Need: size, Limit: t.b.Limit()}
		}
		t.chunks = append(t.chunks, make([]byte, t.chunkBytes))
		t.liveChunks++
	}
	c, off := t.record(idx)
	// The chunk is zero where the record goes: OR its words in.
	nb := t.bits
	for k := 0; nb > 0; k, nb = k+8, nb-64 {
		w := word(s, k)
		if nb < 64 {
			w &= 1<<uint(nb) - 1
		}
		b, sh := off>>3, uint(off&7)
		binary.LittleEndian.PutUint64(c[b:], binary.LittleEndian.Uint64(c[b:])|w<<sh)
		if sh > 0 {
			c[b+8] |= byte(w >> (64 - sh))
		}
		off += 64
	}
	return nil
}

// Release gives all memory back to the budget.
func (t *Exact) Release() {
	t.b.Release("visited", t.Bytes())
	for i := range t.parts {
		t.parts[i] = part{}
	}
	t.chunks, t.liveChunks = nil, 0
}
