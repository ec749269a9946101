package store

// This file implements Table, the visited set of the engines that give up
// exactness for memory: hash compaction (Compact) and the cache of
// cache-based BFS (Cache).

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/state"
)

// Table is an open-addressed table (linear probing) of fixed-size entries:
//
//	record | stamp (1 byte, optional) | id (5 bytes, optional)
//
// where the record is either a k-bit signature of the packed state (hash
// compaction) or the packed state itself. The slot comes from the caller's
// table hash and the signature from an independent hash (another seed), so
// two states collide only if both agree: that is what makes the omission
// probability small (Stern and Dill, below).
//
// A Compact table never forgets: when its newest part passes the load
// limit it adds a part twice as large (old parts are never rehashed: a
// signature does not tell its slot) and lookups probe every part. A Cache
// has one part of fixed size and never grows: a new state goes to a free
// slot among the Window slots from its home slot, or overwrites the entry
// with the oldest stamp among them (the BFS level: by transition locality
// old levels are the least likely to be reached again). ToCache turns a
// Compact table into a cache in place when memory runs out: its newest
// part becomes the cache, older parts stay as read-only filters.
type Table struct {
	b       *budget.Budget
	rec     int  // record bytes
	sigBits int  // 0: records are packed states
	stamps  bool // entries carry a stamp byte (also the occupied mark)
	idBytes int  // 0 or 5
	entry   int

	parts  []*tablePart
	cache  bool
	window int
	keep   int64

	n, inserted, evicted int64
	clock                byte  // the stamp of the latest insertion
	cacheInserted        int64 // insertions since the table became a cache
	nAtCache             int64 // states in the newest part when it became a cache
	key                  [8]byte
}

type tablePart struct {
	data  []byte
	slots uint64
	n     int64
	// after counts insertions into later parts: each probed this part,
	// full, on its way.
	after int64
}

const (
	// tableMaxLoad is the load at which a Compact table adds a part.
	tableMaxLoad = 0.85
	// idSize is the width of stored ids: 2^40 states.
	idSize = 5
	// DefaultWindow is how many slots a cache probes from a state's home
	// slot: a small set-associative bucket (the CBFS paper's
	// MAX_HT_CHAIN_LENGTH). 64 rather than 32: at 0.4 of the exact run's
	// memory n_peterson visited 1.0005x its states with 64 and 1.56-2.3x
	// with 32, mcslock1 the same or better, for little extra probing.
	DefaultWindow = 64
	// sigSeed seeds the signature hash; any value other than the table
	// hash's seed (0) gives an independent function.
	sigSeed = 0x5bd1e9955bd1e995
)

// TableOptions configure a Table.
type TableOptions struct {
	// SigBits > 0 stores k-bit signatures (16..64) instead of the states.
	SigBits int
	// Stamps keeps an age stamp per entry (always on for caches; a
	// Compact table that may become a cache needs it too).
	Stamps bool
	// IDs keeps the engine's id per entry (for liveness checking).
	IDs bool
	// Capacity is the number of states the first part (or the cache) is
	// sized for; 0 picks a small first part.
	Capacity int64
	// Window is the cache's probe window; 0 means DefaultWindow.
	Window int
	// Keep is the budget a Compact table leaves to others when it grows
	// into a budget that cannot hold a part twice the size of the last:
	// it then takes what is left but Keep.
	Keep int64
}

// NewCompact returns a signature table (hash compaction) for states of
// stateBytes bytes.
func NewCompact(stateBytes int, b *budget.Budget, o TableOptions) (*Table, error) {
	if o.SigBits < 16 || o.SigBits > 64 {
		return nil, fmt.Errorf("hash compaction needs 16 to 64 signature bits, not %d", o.SigBits)
	}
	t := newTable(stateBytes, b, o)
	slots := uint64(1 << 12)
	if o.Capacity > 0 {
		slots = uint64(float64(o.Capacity)/tableMaxLoad) + 1
	}
	if err := t.addPart(slots); err != nil {
		return nil, err
	}
	return t, nil
}

// NewCache returns a cache of (about) capacity states: whole states, or
// k-bit signatures of them if o.SigBits > 0.
func NewCache(stateBytes int, b *budget.Budget, o TableOptions) (*Table, error) {
	if o.SigBits != 0 && (o.SigBits < 16 || o.SigBits > 64) {
		return nil, fmt.Errorf("hash compaction needs 16 to 64 signature bits, not %d", o.SigBits)
	}
	o.Stamps = true
	t := newTable(stateBytes, b, o)
	if o.Capacity < int64(t.window) {
		o.Capacity = int64(t.window)
	}
	if err := t.addPart(uint64(o.Capacity)); err != nil {
		return nil, err
	}
	t.cache = true
	return t, nil
}

// CacheCapacity returns how many states a cache of the given options fits
// in n bytes.
func CacheCapacity(stateBytes int, o TableOptions, n int64) int64 {
	o.Stamps = true
	t := newTable(stateBytes, nil, o)
	return n / int64(t.entry)
}

// CompactCapacity returns how many states a Compact table of the given
// options can hold, at its load limit, in a first part of at most n bytes.
func CompactCapacity(stateBytes int, o TableOptions, n int64) int64 {
	t := newTable(stateBytes, nil, o)
	return int64(float64(n/int64(t.entry)) * tableMaxLoad)
}

func newTable(stateBytes int, b *budget.Budget, o TableOptions) *Table {
	t := &Table{b: b, sigBits: o.SigBits, stamps: o.Stamps, window: o.Window, keep: o.Keep}
	if t.window <= 0 {
		t.window = DefaultWindow
	}
	t.rec = stateBytes
	if o.SigBits > 0 {
		t.rec = (o.SigBits + 7) / 8
	}
	if o.IDs {
		t.idBytes = idSize
	}
	t.entry = t.rec + t.idBytes
	if t.stamps {
		t.entry++
	}
	return t
}

// home returns the slot of table hash h in a part: the high half of h
// scaled to the part's size (Lemire's multiply-shift range reduction), so a
// part may have any size and its budget is used to the last slot. The low
// bits of h pick the slots of the exact table, which converts into a
// table; the high bits spread its states afresh.
func (p *tablePart) home(h uint64) uint64 {
	if p.slots <= 1<<32 {
		return (h >> 32) * p.slots >> 32
	}
	hi, _ := bits.Mul64(h, p.slots)
	return hi
}

// next returns the slot after i, wrapping around.
func (p *tablePart) next(i uint64) uint64 {
	if i++; i == p.slots {
		return 0
	}
	return i
}

func (t *Table) addPart(slots uint64) error {
	size := int64(slots) * int64(t.entry)
	if !t.b.Reserve("visited", size) {
		return &budget.ErrExhausted{Part: "visited set", Need: size, Limit: t.b.Limit()}
	}
	t.parts = append(t.parts, &tablePart{data: make([]byte, size), slots: slots})
	return nil
}

// minPart is the fewest slots worth a new part (each part costs every
// lookup a probe).
const minPart = 1 << 16

// grow adds a part twice the size of the last one (last slots), or, under
// a budget that cannot hold that, the largest that fits but t.keep.
func (t *Table) grow(last uint64) error {
	slots := 2 * last
	if avail := t.b.Available(); avail >= 0 && int64(slots)*int64(t.entry) > avail {
		fit := (avail - t.keep) / int64(t.entry)
		if fit < minPart {
			return &budget.ErrExhausted{Part: "visited set", Need: int64(slots) * int64(t.entry), Limit: t.b.Limit()}
		}
		slots = uint64(fit)
	}
	return t.addPart(slots)
}

// keyOf returns the record stored for state s: its signature or s itself.
func (t *Table) keyOf(s []byte) []byte {
	if t.sigBits == 0 {
		return s
	}
	sig := state.HashSeed(s, sigSeed)
	if t.sigBits < 64 {
		sig &= 1<<t.sigBits - 1
	}
	if !t.stamps && sig == 0 {
		sig = 1 // 0 marks an empty slot
	}
	binary.LittleEndian.PutUint64(t.key[:], sig)
	return t.key[:t.rec]
}

func (t *Table) empty(p *tablePart, off int) bool {
	if t.stamps {
		return p.data[off+t.rec] == 0
	}
	for _, c := range p.data[off : off+t.rec] {
		if c != 0 {
			return false
		}
	}
	return true
}

func (t *Table) idAt(p *tablePart, off int) int64 {
	if t.idBytes == 0 {
		return -1
	}
	o := off + t.entry - idSize
	d := p.data[o : o+idSize]
	return int64(d[0]) | int64(d[1])<<8 | int64(d[2])<<16 | int64(d[3])<<24 | int64(d[4])<<32
}

// Find implements Visited.
func (t *Table) Find(s []byte, h uint64) (bool, int64, uint64) {
	key := t.keyOf(s)
	last := len(t.parts) - 1
	var at uint64
	for pi := last; pi >= 0; pi-- {
		p := t.parts[pi]
		limit := p.slots
		if t.cache && pi == last {
			limit = uint64(t.window)
		}
		i := p.home(h)
		if pi == last {
			at = i
		}
		for k := uint64(0); k < limit; k++ {
			off := int(i) * t.entry
			if t.empty(p, off) {
				if pi == last && !t.cache {
					at = i
				}
				break
			}
			if bytes.Equal(p.data[off:off+t.rec], key) {
				if t.cache && pi == last {
					// Seen again: as young as the newest entry, so a
					// state reached from many levels stays (least
					// recently seen goes first, not least recently
					// inserted).
					p.data[off+t.rec] = t.clock
				}
				return true, t.idAt(p, off), 0
			}
			i = p.next(i)
		}
	}
	return false, -1, at
}

// Insert implements Visited.
func (t *Table) Insert(at uint64, s []byte, h uint64, id int64, stamp int) error {
	key := t.keyOf(s)
	p := t.parts[len(t.parts)-1]
	st := byte(stamp%255 + 1)
	t.clock = st
	if t.cache {
		at = t.victim(p, at, st)
		t.cacheInserted++
		for _, q := range t.parts[:len(t.parts)-1] {
			q.after++
		}
	} else {
		if float64(p.n+1) > tableMaxLoad*float64(p.slots) {
			if err := t.grow(p.slots); err != nil {
				return err
			}
			p = t.parts[len(t.parts)-1]
			at = p.home(h)
			for !t.empty(p, int(at)*t.entry) {
				at = p.next(at)
			}
		}
		t.n++
		p.n++
		for _, q := range t.parts[:len(t.parts)-1] {
			q.after++
		}
	}
	off := int(at) * t.entry
	copy(p.data[off:off+t.rec], key)
	if t.stamps {
		p.data[off+t.rec] = st
	}
	if t.idBytes > 0 {
		o := off + t.entry - idSize
		for k := 0; k < idSize; k++ {
			p.data[o+k] = byte(id >> (8 * k))
		}
	}
	t.inserted++
	return nil
}

// victim returns the slot of the window from home where a cache puts a new
// entry: the first free one, else the one with the oldest stamp.
func (t *Table) victim(p *tablePart, home uint64, st byte) uint64 {
	best, bestAge := home, -1
	i := home
	for k := 0; k < t.window; k++ {
		off := int(i) * t.entry
		e := p.data[off+t.rec]
		if e == 0 {
			t.n++
			p.n++
			return i
		}
		age := (int(st) - int(e) + 255) % 255
		if age > bestAge {
			best, bestAge = i, age
		}
		i = p.next(i)
	}
	t.evicted++
	return best
}

// ToCache turns a Compact table with stamps into a cache: from now on new
// states go into its newest part, evicting old entries when their window
// is full; the older parts are kept as read-only filters.
func (t *Table) ToCache() {
	if !t.stamps {
		panic("store: ToCache needs a table with stamps")
	}
	t.cache = true
	t.nAtCache = t.parts[len(t.parts)-1].n
}

// IsCache reports whether the table evicts.
func (t *Table) IsCache() bool { return t.cache }

// Len implements Visited.
func (t *Table) Len() int64 { return t.n }

// Bytes implements Visited.
func (t *Table) Bytes() int64 {
	var n int64
	for _, p := range t.parts {
		if p != nil { // drained
			n += int64(len(p.data))
		}
	}
	return n
}

// Fill returns the occupied share of the newest part.
func (t *Table) Fill() float64 {
	p := t.parts[len(t.parts)-1]
	return float64(p.n) / float64(p.slots)
}

// Stats implements Visited.
func (t *Table) Stats() VisitedStats {
	st := VisitedStats{Kind: KindCompact, Inserted: t.inserted, Evicted: t.evicted, OmissionBound: t.omissionBound()}
	if t.cache {
		st.Kind = KindCache
		st.Entries = int64(t.parts[len(t.parts)-1].slots)
	}
	return st
}

// omissionBound bounds the probability that some state was omitted because
// its signature matched another state's on a slot its lookup probed.
//
// A lookup of a state not in the table compares its signature with every
// occupied slot it probes, each equal with probability 1/2^k (k-bit
// signatures independent of the slot). Summing over the lookups that
// insert a state (a union bound) gives Stern and Dill's bound for hash
// compaction ("Improved probabilistic verification by hash compaction",
// CHARME 1995, and "A new scheme for memory-efficient probabilistic
// verification", FORTE 1996), which for uniform hashing into m slots
// holding n states is ((m+1)(H(m+1) - H(m-n+1)) - n) / 2^k. Our slots are
// probed linearly, where an unsuccessful search at load a probes
// (1/(1-a)^2 - 1)/2 occupied slots on average (Knuth, TAOCP 6.4); the sum
// over the n insertions into a part of m slots is m * a^2 / (2(1-a)) with
// a = n/m at the end, and each later insertion probes the full part once
// more. A cache compares at most Window entries per insertion.
func (t *Table) omissionBound() float64 {
	if t.sigBits == 0 {
		return 0
	}
	var probes float64
	for i, p := range t.parts {
		if p == nil {
			continue // drained
		}
		if t.cache && i == len(t.parts)-1 {
			// Insertions before the table became a cache probed it as
			// a growing part; since then at most Window entries each.
			a := float64(t.nAtCache) / float64(p.slots)
			if a > 0 {
				probes += float64(p.slots) * a * a / (2 * (1 - a))
			}
			probes += float64(t.cacheInserted) * float64(t.window)
			continue
		}
		a := float64(p.n) / float64(p.slots)
		probes += float64(p.slots) * a * a / (2 * (1 - a))
		probes += float64(p.after) * (1/((1-a)*(1-a)) - 1) / 2
	}
	values := math.Exp2(float64(t.sigBits))
	if !t.stamps {
		values-- // signature 0 is never stored
	}
	return math.Min(1, probes/values)
}

// Release implements Visited.
func (t *Table) Release() {
	t.b.Release("visited", t.Bytes())
	t.parts = nil
}

// DrainSignatures calls fn with the signature of every state a Compact
// table holds (SigBits bits, little-endian, as store.Signature computes it)
// and empties the table, giving each part's memory back to the budget as
// soon as it has been walked: a search that moves its signatures elsewhere
// (to disk) needs no more memory to do it than the table had.
func (t *Table) DrainSignatures(fn func(sig []byte) error) error {
	if t.sigBits == 0 {
		return fmt.Errorf("visited set: only a signature table drains signatures")
	}
	for i, p := range t.parts {
		if p == nil {
			continue
		}
		for off := 0; off+t.entry <= len(p.data); off += t.entry {
			if t.empty(p, off) {
				continue
			}
			if err := fn(p.data[off : off+t.rec]); err != nil {
				return err
			}
		}
		t.b.Release("visited", int64(len(p.data)))
		t.n -= p.n
		t.parts[i] = nil
	}
	t.parts = nil
	return nil
}
