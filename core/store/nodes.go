package store

// This file implements Nodes, the visited set of the engines that keep a
// bounded set of states and choose which ones to forget: state caching for
// any search order (Evangelista and Kristensen, "Search-order independent
// state caching", Fig. 3: the TD-tree's reference counts and predecessor
// links, the candidate set D) and depth-first search with replacement (Jard
// and Jéron, "Bounded-memory algorithms for verification on-the-fly", §2.1:
// the stack and the visited set share one memory).

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/locus-mc/locus/core/budget"
)

// Strategy chooses which candidate a full Nodes table forgets.
type Strategy uint8

// Replacement strategies (§3 of the state-caching paper cites them: in- and
// out-degree, distance from the initial state, random, stratified caching).
const (
	// Random forgets a candidate chosen uniformly (Holzmann; Jard and
	// Jéron found it the best simple choice for DFS).
	Random Strategy = iota
	// Shallow forgets the candidate of smallest depth: a breadth-first
	// search meets recent levels again (transition locality), rarely old
	// ones.
	Shallow
	// Deep forgets the candidate of largest depth.
	Deep
	// Degree forgets the candidate found again the fewest times: a state
	// many transitions lead to is kept.
	Degree
	// LRU forgets the candidate inserted or found least recently.
	LRU
	// Stratified keeps the states whose depth is a multiple of
	// NodeOptions.Strata as long as any other candidate is left, choosing
	// among the others at random (after Geldenhuys's stratified caching):
	// a revisit then runs at most Strata levels before meeting a kept
	// state.
	Stratified
)

// StrategyNames are the strategies' names, by value.
var StrategyNames = []string{"random", "shallow", "deep", "degree", "lru", "stratified"}

func (s Strategy) String() string {
	if int(s) < len(StrategyNames) {
		return StrategyNames[s]
	}
	return fmt.Sprintf("strategy(%d)", s)
}

// NoNode is the absent node: no predecessor, or not found.
const NoNode = -1

// NodeOptions configure a Nodes table.
type NodeOptions struct {
	Capacity int64 // states the table holds at most
	Strategy Strategy
	Strata   int    // Stratified: keep depths that are multiples of this (>= 2)
	Seed     uint64 // Random and Stratified choices
	// Progress keeps a 64-bit progress value per state (sweep-line).
	Progress bool
}

// Node flags.
const (
	nodeLive       = 1 << iota
	nodeCandidate  // in the candidate set: may be forgotten
	nodePersistent // never forgotten (sweep-line)
	nodeSwept      // being deleted by Sweep
)

// Nodes is a fixed-capacity set of states with per-state attributes: the
// engine's id, the depth, a predecessor link and a reference count (the
// TD-tree), a progress value, and a count of hits or a recency stamp for
// the replacement strategy. A state may leave the set only when the engine
// made it a candidate (MakeCandidate, or Unref down to zero references);
// Evict forgets one candidate, chosen by the strategy.
//
// Layout: a node is
//
//	state | id (5) | pred (4) | refs (4) | depth (4) | aux (4) | flags (1) | progress (8, optional)
//
// in one arena; the index is open-addressed (linear probing) over uint64
// slots holding the high half of the state's hash and the node number + 1,
// so most misses never touch the arena, and deletion shifts entries back
// instead of leaving tombstones. Every byte is reserved from the budget
// when the table is made; it never grows.
type Nodes struct {
	b      *budget.Budget
	hashFn func([]byte) uint64
	rec    int
	entry  int
	o      NodeOptions

	data  []byte
	slots []uint64
	free  int32 // head of the list of forgotten nodes, linked through pred
	fresh int32 // nodes [fresh, Capacity) were never used
	n     int64

	// The candidates: a random set (Random, and Stratified's two strata)
	// or a min-heap by the strategy's key; pos[node] is the node's place
	// in it (+1; 0 = not a candidate).
	cand   [2][]int32
	heap   []int32
	pos    []uint32
	clock  uint32
	rng    *rand.Rand
	bytes  int64
	evicts int64
}

const (
	nodeLoad    = 0.8
	offID       = 0
	offPred     = 5
	offRefs     = 9
	offDepth    = 13
	offAux      = 17
	offFlags    = 21
	offProgress = 22
	nodeFixed   = 22
)

// NodeBytes returns the memory a table of the given options takes per
// state, on average (arena, index, candidate set).
func NodeBytes(stateBytes int, o NodeOptions) float64 {
	e := stateBytes + nodeFixed
	if o.Progress {
		e += 8
	}
	return float64(e) + 8/nodeLoad + 8
}

// NodeCapacity returns how many states a table of the given options holds
// in n bytes.
func NodeCapacity(stateBytes int, o NodeOptions, n int64) int64 {
	c := int64(float64(n) / NodeBytes(stateBytes, o))
	for c > 0 && tableBytes(stateBytes, o, c) > n {
		c--
	}
	return c
}

func tableBytes(stateBytes int, o NodeOptions, c int64) int64 {
	e := int64(stateBytes + nodeFixed)
	if o.Progress {
		e += 8
	}
	return c*e + slotCount(c)*8 + c*8
}

func slotCount(c int64) int64 { return int64(float64(c)/nodeLoad) + 1 }

// MaxNodes is the largest capacity a Nodes table can have.
const MaxNodes = 1<<31 - 2

// NewNodes returns an empty table for states of stateBytes bytes; hash must
// be the hash function the caller uses (a forgotten state is rehashed to
// find its index slot).
func NewNodes(stateBytes int, b *budget.Budget, hash func([]byte) uint64, o NodeOptions) (*Nodes, error) {
	if o.Capacity < 1 {
		return nil, &budget.ErrExhausted{Part: "state cache", Need: int64(NodeBytes(stateBytes, o)), Limit: b.Limit()}
	}
	if o.Capacity > MaxNodes {
		o.Capacity = MaxNodes
	}
	if o.Strategy == Stratified && o.Strata < 2 {
		o.Strata = 2
	}
	size := tableBytes(stateBytes, o, o.Capacity)
	if !b.Reserve("state cache", size) {
		return nil, &budget.ErrExhausted{Part: "state cache", Need: size, Limit: b.Limit()}
	}
	t := &Nodes{b: b, hashFn: hash, rec: stateBytes, o: o, bytes: size, free: NoNode}
	t.entry = stateBytes + nodeFixed
	if o.Progress {
		t.entry += 8
	}
	c := int(o.Capacity)
	t.data = make([]byte, c*t.entry)
	t.slots = make([]uint64, slotCount(o.Capacity))
	t.pos = make([]uint32, c)
	switch o.Strategy {
	case Random:
		t.cand[0] = make([]int32, 0, c)
	case Stratified:
		// The two strata share the room of one set of candidates.
		all := make([]int32, c)
		t.cand[0] = all[:0:c]
		t.cand[1] = all[:0:0]
	default:
		t.heap = make([]int32, 0, c)
	}
	t.rng = rand.New(rand.NewPCG(o.Seed, 0x6a09e667f3bcc909))
	return t, nil
}

func (t *Nodes) off(node int32) int { return int(node) * t.entry }

// State returns node's packed state (valid until the node is forgotten).
func (t *Nodes) State(node int32) []byte {
	o := t.off(node)
	return t.data[o : o+t.rec : o+t.rec]
}

func (t *Nodes) u32(node int32, field int) uint32 {
	o := t.off(node) + t.rec + field
	d := t.data[o : o+4]
	return uint32(d[0]) | uint32(d[1])<<8 | uint32(d[2])<<16 | uint32(d[3])<<24
}

func (t *Nodes) setU32(node int32, field int, v uint32) {
	o := t.off(node) + t.rec + field
	d := t.data[o : o+4]
	d[0], d[1], d[2], d[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

func (t *Nodes) flags(node int32) byte { return t.data[t.off(node)+t.rec+offFlags] }

func (t *Nodes) setFlags(node int32, f byte) { t.data[t.off(node)+t.rec+offFlags] = f }

// ID returns the engine's id of node.
func (t *Nodes) ID(node int32) int64 {
	o := t.off(node) + t.rec + offID
	d := t.data[o : o+5]
	return int64(d[0]) | int64(d[1])<<8 | int64(d[2])<<16 | int64(d[3])<<24 | int64(d[4])<<32
}

func (t *Nodes) setID(node int32, id int64) {
	o := t.off(node) + t.rec + offID
	d := t.data[o : o+5]
	d[0], d[1], d[2], d[3], d[4] = byte(id), byte(id>>8), byte(id>>16), byte(id>>24), byte(id>>32)
}

// Pred returns node's predecessor in the TD-tree, or NoNode.
func (t *Nodes) Pred(node int32) int32 { return int32(t.u32(node, offPred)) }

func (t *Nodes) setPred(node, pred int32) { t.setU32(node, offPred, uint32(pred)) }

// SetPred sets node's predecessor (NoNode: a root of the TD-tree).
func (t *Nodes) SetPred(node, pred int32) { t.setPred(node, pred) }

// Refs returns node's reference count.
func (t *Nodes) Refs(node int32) uint32 { return t.u32(node, offRefs) }

// Depth returns the depth node was inserted at.
func (t *Nodes) Depth(node int32) int { return int(t.u32(node, offDepth)) }

// Progress returns node's progress value (NodeOptions.Progress).
func (t *Nodes) Progress(node int32) int64 {
	o := t.off(node) + t.rec + offProgress
	var v uint64
	for k := 7; k >= 0; k-- {
		v = v<<8 | uint64(t.data[o+k])
	}
	return int64(v)
}

// SetProgress sets node's progress value.
func (t *Nodes) SetProgress(node int32, v int64) {
	o := t.off(node) + t.rec + offProgress
	for k := 0; k < 8; k++ {
		t.data[o+k] = byte(uint64(v) >> (8 * k))
	}
}

// IsPersistent reports whether node may never be forgotten.
func (t *Nodes) IsPersistent(node int32) bool { return t.flags(node)&nodePersistent != 0 }

// SetPersistent makes node permanent: it never becomes a candidate.
func (t *Nodes) SetPersistent(node int32) {
	if t.flags(node)&nodeCandidate != 0 {
		t.removeCandidate(node)
	}
	t.setFlags(node, t.flags(node)|nodePersistent)
}

// IsCandidate reports whether node may be forgotten.
func (t *Nodes) IsCandidate(node int32) bool { return t.flags(node)&nodeCandidate != 0 }

// Len returns the number of states held.
func (t *Nodes) Len() int64 { return t.n }

// Cap returns the number of states the table holds at most.
func (t *Nodes) Cap() int64 { return t.o.Capacity }

// Full reports whether an insertion needs a state forgotten first.
func (t *Nodes) Full() bool { return t.n >= t.o.Capacity }

// Candidates returns the number of states that may be forgotten.
func (t *Nodes) Candidates() int64 {
	if t.heap != nil {
		return int64(len(t.heap))
	}
	return int64(len(t.cand[0]) + len(t.cand[1]))
}

// Evicted returns the number of states forgotten so far.
func (t *Nodes) Evicted() int64 { return t.evicts }

// Bytes returns the memory the table holds.
func (t *Nodes) Bytes() int64 { return t.bytes }

// home returns the index slot of a hash's high half.
func (t *Nodes) home(hi uint32) uint64 {
	return uint64(hi) * uint64(len(t.slots)) >> 32
}

func (t *Nodes) next(i uint64) uint64 {
	if i++; i == uint64(len(t.slots)) {
		return 0
	}
	return i
}

// Find returns the node holding state s (hash h), or NoNode and the slot
// where Insert puts s. A found state counts as seen again (Degree, LRU).
func (t *Nodes) Find(s []byte, h uint64) (node int32, at uint64) {
	hi := uint32(h >> 32)
	for i := t.home(hi); ; i = t.next(i) {
		e := t.slots[i]
		if e == 0 {
			return NoNode, i
		}
		if uint32(e>>32) == hi {
			n := int32(uint32(e) - 1)
			if bytes.Equal(t.State(n), s) {
				t.seen(n)
				return n, 0
			}
		}
	}
}

// seen notes that node was inserted or found: the Degree and LRU keys.
func (t *Nodes) seen(node int32) {
	switch t.o.Strategy {
	case Degree:
		if a := t.u32(node, offAux); a < 1<<32-1 {
			t.setU32(node, offAux, a+1)
		}
	case LRU:
		if t.clock == 1<<32-1 {
			t.renumberClock()
		}
		t.clock++
		t.setU32(node, offAux, t.clock)
	default:
		return
	}
	if p := t.pos[node]; p != 0 {
		t.down(int(p - 1))
	}
}

// renumberClock halves every LRU stamp when the clock is about to wrap;
// the order is kept.
func (t *Nodes) renumberClock() {
	for i := 0; i < int(t.fresh); i++ {
		if t.flags(int32(i))&nodeLive != 0 {
			t.setU32(int32(i), offAux, t.u32(int32(i), offAux)/2)
		}
	}
	t.clock /= 2
}

// Insert adds state s (hash h), which Find did not find at slot at, with
// the engine's id, its depth and its TD-tree predecessor (NoNode for none),
// and returns its node. The table must not be Full.
func (t *Nodes) Insert(at uint64, s []byte, h uint64, id int64, depth int, pred int32) (int32, error) {
	var n int32
	switch {
	case t.free != NoNode:
		n = t.free
		t.free = t.Pred(n)
	case int64(t.fresh) < t.o.Capacity:
		n = t.fresh
		t.fresh++
	default:
		return NoNode, &budget.ErrExhausted{Part: "state cache", Need: int64(t.entry), Limit: t.b.Limit()}
	}
	o := t.off(n)
	copy(t.data[o:o+t.rec], s)
	t.setID(n, id)
	t.setPred(n, pred)
	t.setU32(n, offRefs, 0)
	t.setU32(n, offDepth, uint32(depth))
	t.setU32(n, offAux, 0)
	t.setFlags(n, nodeLive)
	t.pos[n] = 0
	t.slots[at] = uint64(uint32(h>>32))<<32 | uint64(uint32(n)+1)
	t.n++
	t.seen(n)
	return n, nil
}

// AddRef adds a reference to node (a child in the TD-tree, or the node
// being open).
func (t *Nodes) AddRef(node int32) { t.setU32(node, offRefs, t.Refs(node)+1) }

// Unref removes a reference from node; a node left with none leaves the
// TD-tree: it becomes a candidate (unless persistent) and its predecessor
// loses the reference it held (Fig. 3, procedure unref).
func (t *Nodes) Unref(node int32) {
	for node != NoNode {
		r := t.Refs(node)
		if r == 0 {
			panic("store: unref of a node with no references")
		}
		t.setU32(node, offRefs, r-1)
		if r > 1 {
			return
		}
		if t.flags(node)&nodePersistent == 0 {
			t.MakeCandidate(node)
		}
		node = t.Pred(node)
	}
}

// MakeCandidate lets node be forgotten.
func (t *Nodes) MakeCandidate(node int32) {
	f := t.flags(node)
	if f&(nodeCandidate|nodePersistent) != 0 {
		return
	}
	t.setFlags(node, f|nodeCandidate)
	switch t.o.Strategy {
	case Random:
		t.cand[0] = append(t.cand[0], node)
		t.pos[node] = uint32(len(t.cand[0]))
	case Stratified:
		t.stratumAdd(node)
	default:
		t.heap = append(t.heap, node)
		i := len(t.heap) - 1
		t.pos[node] = uint32(i + 1)
		t.up(i)
	}
}

// Stratified: stratum 0 holds the ordinary candidates at the front of the
// shared array, stratum 1 the kept depths at its back; pos is the place
// in the whole array.
func (t *Nodes) stratumAdd(node int32) {
	all := t.cand[0][:cap(t.cand[0])]
	n0, n1 := len(t.cand[0]), len(t.cand[1])
	if t.Depth(node)%t.o.Strata != 0 {
		all[n0] = node
		t.pos[node] = uint32(n0 + 1)
		t.cand[0] = all[:n0+1]
	} else {
		i := len(all) - 1 - n1
		all[i] = node
		t.pos[node] = uint32(i + 1)
		t.cand[1] = all[i:len(all):len(all)]
	}
}

func (t *Nodes) stratumRemove(node int32) {
	all := t.cand[0][:cap(t.cand[0])]
	i := int(t.pos[node] - 1)
	n0, n1 := len(t.cand[0]), len(t.cand[1])
	if i < n0 {
		last := all[n0-1]
		all[i] = last
		t.pos[last] = uint32(i + 1)
		t.cand[0] = all[:n0-1]
	} else {
		first := len(all) - n1
		f := all[first]
		all[i] = f
		t.pos[f] = uint32(i + 1)
		t.cand[1] = all[first+1 : len(all) : len(all)]
	}
	t.pos[node] = 0
}

func (t *Nodes) removeCandidate(node int32) {
	t.setFlags(node, t.flags(node)&^nodeCandidate)
	switch t.o.Strategy {
	case Random:
		i := int(t.pos[node] - 1)
		last := t.cand[0][len(t.cand[0])-1]
		t.cand[0][i] = last
		t.pos[last] = uint32(i + 1)
		t.cand[0] = t.cand[0][:len(t.cand[0])-1]
		t.pos[node] = 0
	case Stratified:
		t.stratumRemove(node)
	default:
		i := int(t.pos[node] - 1)
		last := len(t.heap) - 1
		t.swap(i, last)
		t.heap = t.heap[:last]
		t.pos[node] = 0
		if i < last {
			t.down(i)
			t.up(i)
		}
	}
}

// key orders the heap: the candidate with the smallest key goes first.
func (t *Nodes) key(node int32) int64 {
	switch t.o.Strategy {
	case Shallow:
		return int64(t.Depth(node))
	case Deep:
		return -int64(t.Depth(node))
	default: // Degree, LRU
		return int64(t.u32(node, offAux))
	}
}

func (t *Nodes) swap(i, j int) {
	t.heap[i], t.heap[j] = t.heap[j], t.heap[i]
	t.pos[t.heap[i]] = uint32(i + 1)
	t.pos[t.heap[j]] = uint32(j + 1)
}

func (t *Nodes) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if t.key(t.heap[p]) <= t.key(t.heap[i]) {
			return
		}
		t.swap(i, p)
		i = p
	}
}

func (t *Nodes) down(i int) {
	n := len(t.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && t.key(t.heap[r]) < t.key(t.heap[l]) {
			m = r
		}
		if t.key(t.heap[i]) <= t.key(t.heap[m]) {
			return
		}
		t.swap(i, m)
		i = m
	}
}

// Evict forgets one candidate, chosen by the strategy; it reports false if
// there is none.
func (t *Nodes) Evict() bool {
	var v int32
	switch t.o.Strategy {
	case Random:
		if len(t.cand[0]) == 0 {
			return false
		}
		v = t.cand[0][t.rng.IntN(len(t.cand[0]))]
	case Stratified:
		switch {
		case len(t.cand[0]) > 0:
			v = t.cand[0][t.rng.IntN(len(t.cand[0]))]
		case len(t.cand[1]) > 0:
			v = t.cand[1][t.rng.IntN(len(t.cand[1]))]
		default:
			return false
		}
	default:
		if len(t.heap) == 0 {
			return false
		}
		v = t.heap[0]
	}
	t.Delete(v)
	t.evicts++
	return true
}

// Delete forgets node, candidate or not.
func (t *Nodes) Delete(node int32) {
	if t.flags(node)&nodeCandidate != 0 {
		t.removeCandidate(node)
	}
	t.unindex(node)
	t.setFlags(node, 0)
	t.setPred(node, t.free)
	t.free = node
	t.n--
}

// unindex removes node's index slot, shifting later entries of its probe
// run back (deletion without tombstones under linear probing).
func (t *Nodes) unindex(node int32) {
	s := t.State(node)
	hi := uint32(t.hashFn(s) >> 32)
	want := uint64(uint32(node) + 1)
	i := t.home(hi)
	for uint32(t.slots[i]) != uint32(want) {
		if t.slots[i] == 0 {
			panic("store: node missing from the index")
		}
		i = t.next(i)
	}
	for j := t.next(i); t.slots[j] != 0; j = t.next(j) {
		k := t.home(uint32(t.slots[j] >> 32))
		// Move the entry at j to the hole at i unless its home lies
		// cyclically in (i, j].
		if (i <= j && (k <= i || k > j)) || (i > j && k <= i && k > j) {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = 0
}

// Sweep forgets every node for which drop is true (live nodes only),
// whatever its references: a node whose predecessor is forgotten gets none
// (the TD-tree becomes a forest, §4.4), and a forgotten member of the tree
// releases its predecessor. It returns the number forgotten.
func (t *Nodes) Sweep(drop func(node int32) bool) int64 {
	var k int64
	c := t.fresh
	for i := int32(0); i < c; i++ {
		if f := t.flags(i); f&nodeLive != 0 && drop(i) {
			t.setFlags(i, f|nodeSwept)
			k++
		}
	}
	if k == 0 {
		return 0
	}
	for i := int32(0); i < c; i++ {
		f := t.flags(i)
		if f&nodeLive == 0 || f&nodeSwept != 0 {
			continue
		}
		if p := t.Pred(i); p != NoNode && t.flags(p)&nodeSwept != 0 {
			t.setPred(i, NoNode)
		}
	}
	// A forgotten member of the TD-tree gives back the reference it held
	// on a predecessor that stays.
	for i := int32(0); i < c; i++ {
		if t.flags(i)&nodeSwept == 0 || t.Refs(i) == 0 {
			continue
		}
		if p := t.Pred(i); p != NoNode && t.flags(p)&nodeSwept == 0 {
			t.Unref(p)
		}
	}
	for i := int32(0); i < c; i++ {
		if t.flags(i)&nodeSwept != 0 {
			t.Delete(i)
		}
	}
	return k
}

// Release gives the table's memory back to the budget.
func (t *Nodes) Release() {
	t.b.Release("state cache", t.bytes)
	t.bytes = 0
	t.data, t.slots, t.pos, t.heap = nil, nil, nil, nil
	t.cand = [2][]int32{}
}
