package store

// This file implements Recent, the table M of disk-based breadth-first
// search (Stern and Dill, "Using magnetic disk instead of main memory in
// the Murphi verifier", CAV 1998; Penna et al., "Exploiting transition
// locality...", §5.1): the keys of the states met since the last check
// against the file D of all visited states.

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/state"
)

// Recent is an open-addressed table (linear probing) of state keys: k-bit
// signatures of the packed states (hash compaction) or the packed states
// themselves. Unlike the other visited sets it is emptied at every check,
// and between checks it answers two questions about D's entries: is this
// key one of mine (MarkOld, at most once per entry: a candidate found on
// disk is old), and which of my candidates were never found (Survives).
//
// A signature's slot is computed from the signature itself, because D
// holds only signatures and every entry read back from disk must find its
// slot; a packed state's slot from its table hash.
type Recent struct {
	b       *budget.Budget
	sigBits int // 0: keys are packed states
	keyLen  int // bytes of a key as stored in D (and in the arena for states)

	// tags holds a byte of each key's hash, 0 for an empty slot: most
	// lookups of keys not held stop at this small array and never touch
	// the large one of keys (by measurement, the cache misses on the keys
	// were most of a check's time).
	tags   []uint8
	sigs   []uint64 // signature mode: stored key (never 0)
	states []byte   // state mode: slots × keyLen
	marked []uint64 // a bit per slot: found in D, or already moved on
	// filter is a Bloom filter of the keys held, sized at each check to
	// the keys held (Prepare): a check scans many more entries of D than
	// M holds keys, and most of them miss this small array, which stays
	// in the processor's cache where M's arrays do not. Each key sets two
	// bits of one word (a blocked filter: one cache line per test); at
	// 16 bits a key that lets about 2% of misses through to M's arrays,
	// against 6% with one bit (mcslock2's checks read 128 million
	// entries, so each point is over a million cache misses).
	filter []uint64
	fmask  uint64  // words - 1
	ids    []int64 // with IDs: the engine's id per slot

	slots, soft, hard int64
	n, inserted       int64
	reserved          int64

	// cand lists the slots filled since the last Clear while they fit:
	// a check with few candidates looks them up in D's indexed tail
	// rather than scanning it.
	cand     []int32
	candOver bool
	known    int64 // keys kept by Retain

	// tests sums, over every membership test that could wrongly answer
	// "found", the number of keys it was compared with: the union bound
	// on a signature collision hiding a state is tests / 2^k.
	tests float64
	key   [8]byte
}

// RecentOptions configure a Recent table.
type RecentOptions struct {
	// SigBits > 0 keeps k-bit signatures (16..64) instead of states.
	SigBits int
	// IDs keeps the engine's id per key (liveness checking).
	IDs bool
	// Bytes is the memory the table may take.
	Bytes int64
}

// Load limits: past recentSoftLoad the engine checks at its next chance
// (between two expansions); past recentHardLoad an insertion is refused.
const (
	recentSoftLoad = 0.75
	recentHardLoad = 0.9
	// keyMix spreads a signature over the slots (a signature's low bits
	// are as random as its high bits, but may be fewer than 32).
	keyMix = 0x9E3779B97F4A7C15
)

// RecentSlotBytes returns the memory one slot of a table with options o
// takes for states of stateBytes bytes.
func RecentSlotBytes(stateBytes int, o RecentOptions) float64 {
	per := 8.0 + 2 + 1.0/8 // signature, tag, filter byte, mark bit
	if o.SigBits == 0 {
		per = float64(stateBytes) + 2 + 1.0/8 // state, tag, filter byte, mark bit
	}
	if o.IDs {
		per += 8
	}
	return per
}

// RecentCapacity returns how many keys a table of options o holds in n
// bytes before it asks for a check.
func RecentCapacity(stateBytes int, o RecentOptions, n int64) int64 {
	return int64(float64(n) / RecentSlotBytes(stateBytes, o) * recentSoftLoad)
}

// NewRecent returns an empty table for states of stateBytes bytes in
// o.Bytes of memory, reserved from b now.
func NewRecent(stateBytes int, b *budget.Budget, o RecentOptions) (*Recent, error) {
	t := &Recent{b: b, sigBits: o.SigBits, keyLen: stateBytes}
	if o.SigBits > 0 {
		t.keyLen = (o.SigBits + 7) / 8
	}
	// The largest table whose arrays fit in o.Bytes.
	slots := int64(float64(o.Bytes) / RecentSlotBytes(stateBytes, o))
	size := recentSize(stateBytes, o, slots)
	for slots > 64 && size > o.Bytes {
		slots -= int64(float64(size-o.Bytes)/RecentSlotBytes(stateBytes, o)) + 1
		size = recentSize(stateBytes, o, slots)
	}
	if slots < 64 {
		slots = 64
		size = recentSize(stateBytes, o, slots)
	}
	words := (slots + 63) / 64
	fwords := filterWords(slots)
	candCap := min(slots, maxCandidates)
	if !b.Reserve("table M", size) {
		return nil, &budget.ErrExhausted{Part: "table M", Need: size, Limit: b.Limit()}
	}
	t.reserved = size
	t.slots = slots
	t.soft = int64(float64(slots) * recentSoftLoad)
	t.hard = int64(float64(slots) * recentHardLoad)
	t.marked = make([]uint64, words)
	t.tags = make([]uint8, slots)
	t.filter = make([]uint64, fwords)
	if o.SigBits > 0 {
		t.sigs = make([]uint64, slots)
	} else {
		t.states = make([]byte, slots*int64(stateBytes))
	}
	if o.IDs {
		t.ids = make([]int64, slots)
	}
	t.cand = make([]int32, 0, candCap)
	return t, nil
}

// maxCandidates bounds the list of filled slots.
const maxCandidates = 1 << 14

// filterWords is the size of the filter of a table of slots slots: a power
// of two of at most 8 bits a slot.
func filterWords(slots int64) int64 {
	fwords := int64(1)
	for fwords*2*64 <= 8*slots {
		fwords *= 2
	}
	return fwords
}

// recentSize is the memory a table of slots slots takes.
func recentSize(stateBytes int, o RecentOptions, slots int64) int64 {
	size := (slots+63)/64*8 + slots + filterWords(slots)*8 + min(slots, maxCandidates)*4
	if o.SigBits > 0 {
		size += slots * 8
	} else {
		size += slots * int64(stateBytes)
	}
	if o.IDs {
		size += slots * 8
	}
	return size
}

// KeyLen is the size of a key as D stores it.
func (t *Recent) KeyLen() int { return t.keyLen }

// SigBits is the signature width, 0 if keys are states.
func (t *Recent) SigBits() int { return t.sigBits }

// Signature returns the k-bit signature of packed state s: the same
// function a Compact Table uses, so its entries can seed D.
func Signature(s []byte, k int) uint64 {
	sig := state.HashSeed(s, sigSeed)
	if k < 64 {
		sig &= 1<<k - 1
	}
	return sig
}

// stored maps a signature to its slot value: never 0 (empty). A 64-bit
// signature 0 becomes 1, a merge of two values out of 2^64.
func (t *Recent) stored(sig uint64) uint64 {
	if t.sigBits < 64 {
		return sig + 1
	}
	if sig == 0 {
		return 1
	}
	return sig
}

// home returns the slot and the tag of a key with hash x.
func (t *Recent) home(x uint64) (int64, uint8) {
	hi, _ := bits.Mul64(x, uint64(t.slots))
	tag := uint8(x >> 8)
	if tag == 0 {
		tag = 1
	}
	return int64(hi), tag
}

// Key writes the key D stores for packed state s into dst (KeyLen bytes).
func (t *Recent) Key(s []byte, dst []byte) {
	if t.sigBits == 0 {
		copy(dst, s)
		return
	}
	binary.LittleEndian.PutUint64(t.key[:], Signature(s, t.sigBits))
	copy(dst, t.key[:t.keyLen])
}

// keyValue reads a signature key as D stores it.
func (t *Recent) keyValue(k []byte) uint64 {
	if len(k) == 8 {
		return binary.LittleEndian.Uint64(k)
	}
	var v uint64
	for i := len(k) - 1; i >= 0; i-- {
		v = v<<8 | uint64(k[i])
	}
	return v
}

func (t *Recent) isMarked(i int64) bool { return t.marked[i>>6]&(1<<(i&63)) != 0 }
func (t *Recent) mark(i int64)          { t.marked[i>>6] |= 1 << (i & 63) }

// findSig returns the slot of stored value v, or -1 and where it goes.
func (t *Recent) findSig(v uint64) (int64, int64) {
	i, tag := t.home(v * keyMix)
	for {
		g := t.tags[i]
		if g == 0 {
			return -1, i
		}
		if g == tag && t.sigs[i] == v {
			return i, i
		}
		if i++; i == t.slots {
			i = 0
		}
	}
}

// findState returns the slot of packed state s with table hash h, or -1
// and where it goes.
func (t *Recent) findState(s []byte, h uint64) (int64, int64) {
	i, tag := t.home(h)
	kl := int64(t.keyLen)
	for {
		g := t.tags[i]
		if g == 0 {
			return -1, i
		}
		if g == tag && bytes.Equal(t.states[i*kl:i*kl+kl], s) {
			return i, i
		}
		if i++; i == t.slots {
			i = 0
		}
	}
}

// Find implements Visited. A key marked as moved on (after a check began)
// still counts as found.
func (t *Recent) Find(s []byte, h uint64) (bool, int64, uint64) {
	var slot, at int64
	if t.sigBits > 0 {
		t.tests += float64(t.n)
		slot, at = t.findSig(t.stored(Signature(s, t.sigBits)))
	} else {
		slot, at = t.findState(s, h)
	}
	if slot < 0 {
		return false, -1, uint64(at)
	}
	id := int64(-1)
	if t.ids != nil {
		id = t.ids[slot]
	}
	return true, id, 0
}

// errRecentFull is what Insert returns past the hard load limit.
func (t *Recent) errFull() error {
	return &budget.ErrExhausted{Part: "table M", Need: int64(RecentSlotBytes(t.keyLen, RecentOptions{SigBits: t.sigBits, IDs: t.ids != nil})), Limit: t.b.Limit()}
}

// Insert implements Visited; it refuses (with *budget.ErrExhausted) past
// the hard load limit, and the engine must then check and empty the table.
func (t *Recent) Insert(at uint64, s []byte, h uint64, id int64, stamp int) error {
	if t.n >= t.hard {
		return t.errFull()
	}
	i := int64(at)
	if t.sigBits > 0 {
		v := t.stored(Signature(s, t.sigBits))
		t.sigs[i] = v
		_, t.tags[i] = t.home(v * keyMix)
	} else {
		kl := int64(t.keyLen)
		copy(t.states[i*kl:i*kl+kl], s)
		_, t.tags[i] = t.home(h)
	}
	if t.ids != nil {
		t.ids[i] = id
	}
	if len(t.cand) < cap(t.cand) {
		t.cand = append(t.cand, int32(i))
	} else {
		t.candOver = true
	}
	t.n++
	t.inserted++
	return nil
}

// MarkOldIndexed does MarkOld's work against a set of old keys that can
// be looked up (lookup returns the old entry's id, or false), by going
// through the table's own keys; it reports false, doing nothing, when the
// table no longer lists them (too many since the last Clear).
func (t *Recent) MarkOldIndexed(lookup func(k []byte) (int64, bool), found func(candidate, old int64)) (int64, bool) {
	if t.candOver {
		return 0, false
	}
	if t.sigBits > 0 {
		t.tests += float64(t.n) * float64(len(t.cand))
	}
	var marked int64
	k := t.key[:]
	for _, c := range t.cand {
		i := int64(c)
		if t.isMarked(i) {
			continue
		}
		var key []byte
		if t.sigBits > 0 {
			v := t.sigs[i]
			if t.sigBits < 64 {
				v--
			}
			binary.LittleEndian.PutUint64(k, v)
			key = k[:t.keyLen]
		} else {
			kl := int64(t.keyLen)
			key = t.states[i*kl : i*kl+kl]
		}
		old, ok := lookup(key)
		if !ok {
			continue
		}
		t.mark(i)
		marked++
		if found != nil && t.ids != nil {
			found(t.ids[i], old)
		}
	}
	return marked, true
}

// Candidates is the number of keys inserted since the last Clear or Retain.
func (t *Recent) Candidates() int64 { return t.n - t.known }

// Full reports whether the table has passed its soft load limit: the
// engine should check at its next chance.
func (t *Recent) Full() bool { return t.n >= t.soft }

// Fill returns the share of the soft limit in use.
func (t *Recent) Fill() float64 { return float64(t.n) / float64(t.soft) }

// Capacity is the number of keys the table holds before it asks for a check.
func (t *Recent) Capacity() int64 { return t.soft }

// MarkOld looks up every entry of block, a run of entries of D each made of
// a key followed by idBytes bytes of id: an unmarked key it holds is a
// candidate already visited, so it is marked (and found reports the
// candidate's id and the old id, for liveness). It returns how many keys
// it marked.
func (t *Recent) MarkOld(block []byte, idBytes int, found func(candidate, old int64)) int64 {
	if t.n == t.known {
		return 0
	}
	t.countScan(len(block) / (t.keyLen + idBytes))
	return t.markOld(block, idBytes, found, false)
}

// MarkOldParallel does MarkOld's work (without reporting ids) with up to
// workers goroutines, each on a part of block: a check's scan of D is most
// of a disk search's time on a model whose states are small and cheap to
// expand (mcslock2), and the scan only reads. Each key is marked and
// counted once whichever part finds it, so the count is MarkOld's.
func (t *Recent) MarkOldParallel(block []byte, idBytes, workers int) int64 {
	if t.n == t.known {
		return 0
	}
	entry := t.keyLen + idBytes
	entries := len(block) / entry
	t.countScan(entries)
	parts := min(workers, entries/minScanPart)
	if parts < 2 {
		return t.markOld(block, idBytes, nil, false)
	}
	var wg sync.WaitGroup
	counts := make([]int64, parts)
	for p := 1; p < parts; p++ {
		lo, hi := entries*p/parts*entry, entries*(p+1)/parts*entry
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[p] = t.markOld(block[lo:hi], idBytes, nil, true)
		}()
	}
	counts[0] = t.markOld(block[:entries/parts*entry], idBytes, nil, true)
	wg.Wait()
	var n int64
	for _, c := range counts {
		n += c
	}
	return n
}

// minScanPart is the fewest entries worth a goroutine of their own.
const minScanPart = 4096

// countScan adds a scan of entries of D to the omission bound: each was
// compared with the keys held.
func (t *Recent) countScan(entries int) {
	if t.sigBits > 0 {
		t.tests += float64(t.n) * float64(entries)
	}
}

// markOld marks the keys block holds; shared says other goroutines mark at
// the same time (an atomic test-and-set decides which one counts a key).
func (t *Recent) markOld(block []byte, idBytes int, found func(candidate, old int64), shared bool) int64 {
	entry := t.keyLen + idBytes
	var marked int64
	f, fmask := t.filter, t.fmask
	for off := 0; off+entry <= len(block); off += entry {
		k := block[off : off+t.keyLen]
		var slot int64
		if t.sigBits > 0 {
			v := t.stored(t.keyValue(k))
			x := v * keyMix
			if m := filterBits(x); f[x>>filterShift&fmask]&m != m {
				continue
			}
			slot, _ = t.findSig(v)
		} else {
			h := state.Hash(k)
			if m := filterBits(h); f[h>>filterShift&fmask]&m != m {
				continue
			}
			slot, _ = t.findState(k, h)
		}
		if slot < 0 {
			continue
		}
		if shared {
			bit := uint64(1) << (slot & 63)
			if atomic.OrUint64(&t.marked[slot>>6], bit)&bit != 0 {
				continue
			}
		} else {
			if t.isMarked(slot) {
				continue
			}
			t.mark(slot)
		}
		marked++
		if found != nil && t.ids != nil {
			found(t.ids[slot], readID(block[off+t.keyLen:off+entry]))
		}
	}
	return marked
}

// filterShift picks the filter's word from a key's hash, apart from the
// bits that choose its slot (the high ones), its tag and its two bits.
const filterShift = 20

// filterBits returns the two bits of its word that a key with hash x sets.
func filterBits(x uint64) uint64 { return 1<<(x&63) | 1<<(x>>14&63) }

// Prepare readies the table for a check: MarkOld needs it after the last
// insertion and before the first of its calls.
func (t *Recent) Prepare() {
	bits := uint64(64)
	for bits < 16*uint64(t.n-t.known) && bits < uint64(len(t.filter))*64 {
		bits *= 2
	}
	t.fmask = bits/64 - 1
	f := t.filter[:bits/64]
	clear(f)
	set := func(i int64) {
		var x uint64
		if t.sigBits > 0 {
			x = t.sigs[i] * keyMix
		} else {
			kl := int64(t.keyLen)
			x = state.Hash(t.states[i*kl : i*kl+kl])
		}
		f[x>>filterShift&t.fmask] |= filterBits(x)
	}
	if !t.candOver {
		for _, c := range t.cand {
			set(int64(c))
		}
		return
	}
	for i, g := range t.tags {
		if g != 0 && !t.isMarked(int64(i)) {
			set(int64(i))
		}
	}
}

// Survives reports whether the candidate in slot (where Insert put it) was
// not found old; it marks it, so it survives only once. Slots stay put from
// Insert to Clear, and the engine drains its candidates before it clears,
// so the slot alone names the candidate: no hash, no probe, no compare (a
// lookup by key cost a cache miss or two per candidate).
func (t *Recent) Survives(slot uint64) bool {
	i := int64(slot)
	if t.isMarked(i) {
		return false
	}
	t.mark(i)
	return true
}

// Retain keeps the keys of a finished check, all of them marked (found in
// D, or moved on), as known old states: a later successor that finds one
// is dropped at once. Keys inserted from now on are the next check's
// candidates.
func (t *Recent) Retain() {
	t.cand, t.candOver = t.cand[:0], false
	t.known = t.n
}

// Clear empties the table.
func (t *Recent) Clear() {
	if t.n == 0 {
		return
	}
	clear(t.marked)
	clear(t.tags)
	t.cand, t.candOver = t.cand[:0], false
	t.n, t.known = 0, 0
}

// readID reads a little-endian id of len(b) bytes.
func readID(b []byte) int64 {
	var v int64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | int64(b[i])
	}
	return v
}

// AddTests adds n membership tests against the table's current keys to the
// omission bound (for engines that test keys the table did not see).
func (t *Recent) AddTests(n float64) { t.tests += n }

// Tests returns the sum behind the omission bound.
func (t *Recent) Tests() float64 { return t.tests }

// OmissionBound bounds the probability that a signature collision hid a
// state: every test compared one signature with at most the table's keys,
// each equal with probability 2^-k (a union bound).
func (t *Recent) OmissionBound() float64 {
	if t.sigBits == 0 {
		return 0
	}
	return math.Min(1, t.tests/math.Exp2(float64(t.sigBits)))
}

// Len implements Visited: the keys held now.
func (t *Recent) Len() int64 { return t.n }

// Bytes implements Visited.
func (t *Recent) Bytes() int64 { return t.reserved }

// Stats implements Visited.
func (t *Recent) Stats() VisitedStats {
	kind := KindExact
	if t.sigBits > 0 {
		kind = KindCompact
	}
	return VisitedStats{Kind: kind, Inserted: t.inserted, Entries: t.soft, OmissionBound: t.OmissionBound()}
}

// Release implements Visited.
func (t *Recent) Release() {
	t.b.Release("table M", t.reserved)
	t.reserved = 0
	t.sigs, t.states, t.tags, t.marked, t.ids, t.cand, t.filter = nil, nil, nil, nil, nil, nil, nil
}

// AddKey adds a key as D stores it (a signature, or a packed state) and
// reports whether it was new; past the hard load limit it fails with
// *budget.ErrExhausted. It serves counting the distinct keys of D.
func (t *Recent) AddKey(k []byte) (bool, error) {
	var slot, at int64
	if t.sigBits > 0 {
		v := t.stored(t.keyValue(k))
		if slot, at = t.findSig(v); slot >= 0 {
			return false, nil
		}
		if t.n >= t.hard {
			return false, t.errFull()
		}
		t.sigs[at] = v
		_, t.tags[at] = t.home(v * keyMix)
	} else {
		h := state.Hash(k)
		if slot, at = t.findState(k, h); slot >= 0 {
			return false, nil
		}
		if t.n >= t.hard {
			return false, t.errFull()
		}
		kl := int64(t.keyLen)
		copy(t.states[at*kl:at*kl+kl], k)
		_, t.tags[at] = t.home(h)
	}
	t.n++
	return true, nil
}
