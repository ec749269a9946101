package explore

// This file implements the open sets of the engines that keep a bounded
// set of states (caching.go): the stack of level frames that gives
// breadth-first, depth-first, bounded-width BFS and alternating orders,
// and the priority queue of the sweep-line method.

import (
	"fmt"

	"github.com/locus-mc/locus/core/budget"
)

// An open entry is one open state: its node in the state table, the next
// rule instance to fire from it, and what its rules did so far (deadlock
// detection sees them all only when the last one has fired).
const (
	entryNodeBits = 31
	entryRuleBits = 30
	entryFired    = uint64(1) << 61 // some rule fired
	entryChanged  = uint64(1) << 62 // some rule led to a different state
)

func newEntry(node int32) uint64 { return uint64(node) }

func entryNode(e uint64) int32 { return int32(e & (1<<entryNodeBits - 1)) }

func entryRule(e uint64) int { return int(e >> entryNodeBits & (1<<entryRuleBits - 1)) }

func withRule(e uint64, rule int) uint64 {
	return e&^(uint64(1<<entryRuleBits-1)<<entryNodeBits) | uint64(rule)<<entryNodeBits
}

// openSet is the set O of the general state exploring algorithm (Fig. 1 of
// the state-caching paper): current is the state chosen to work on, add
// puts a newly generated state in (and reports whether the search must now
// work on another state, as depth-first search does), close removes the
// current state once its last rule has fired.
type openSet interface {
	current() (uint64, bool)
	setCurrent(e uint64)
	add(e uint64) (switched bool, err error)
	close()
	// addRoot adds a start state before the search begins.
	addRoot(e uint64) error
	// depth is how many states are open (approximately, for progress).
	depth() int64
	release()
}

// frames is the open set of breadth-first, depth-first, bounded-width
// breadth-first (BBFS(w)) and alternating (Alt(b, d)) search (§5.1): a
// stack of frames, each holding open states of one level. The top frame's
// states are worked on in turn; the states they generate collect in the
// top frame's builder, which becomes a new top frame (the search goes one
// level deeper) as soon as it holds width(level) states, or replaces the
// top frame when that is exhausted (the next BFS level). A frame whose
// states are all closed is popped, and the frame below goes on where it
// stopped. Width 1 at every level is depth-first search with a rule
// iterator per state; unbounded width is breadth-first search.
//
// Entries live in one arena, frames back to back and the builder last;
// closed entries at the front of a frame are squeezed out when the arena
// is full (the open states never outnumber the state table, and the arena
// has a quarter more room than that, so a squeeze frees at least a fifth).
type frames struct {
	b      *budget.Budget
	arena  []uint64
	end    int // arena[:end] is in use; the builder is arena[top.stop:end]
	hdr    []frameHdr
	hdrRes int64 // bytes reserved for hdr
	width  func(level int) int
	cur    int // the frame of the current state
	held   int64
}

type frameHdr struct {
	start, cur, stop int32 // entries arena[start:stop]; arena[start:cur] are closed
	level            int32
}

// unbounded is the width of a level with no bound.
const unbounded = 0

// newFrames returns an empty open set for a table of capacity states;
// width gives the width of each level (unbounded or at least 1).
func newFrames(b *budget.Budget, capacity int64, width func(level int) int) (*frames, error) {
	n := capacity + capacity/4 + 16
	size := n * 8
	if !b.Reserve("open set", size) {
		return nil, &budget.ErrExhausted{Part: "open set", Need: size, Limit: b.Limit()}
	}
	f := &frames{b: b, arena: make([]uint64, n), width: width, held: size}
	if err := f.push(frameHdr{level: 0}); err != nil {
		f.release()
		return nil, err
	}
	return f, nil
}

func (f *frames) top() *frameHdr { return &f.hdr[len(f.hdr)-1] }

// push adds a frame header, reserving room for more headers as needed
// (depth-first search has one frame per state on its stack).
func (f *frames) push(h frameHdr) error {
	if len(f.hdr) == cap(f.hdr) {
		n := 2 * cap(f.hdr)
		if n < 64 {
			n = 64
		}
		size := int64(n) * 16
		if !f.b.Reserve("open set", size-f.hdrRes) {
			return &budget.ErrExhausted{Part: "search stack", Need: size - f.hdrRes, Limit: f.b.Limit()}
		}
		f.hdrRes = size
		hdr := make([]frameHdr, len(f.hdr), n)
		copy(hdr, f.hdr)
		f.hdr = hdr
	}
	f.hdr = append(f.hdr, h)
	return nil
}

func (f *frames) addRoot(e uint64) error {
	if f.end == len(f.arena) {
		return fmt.Errorf("more start states than the open set holds")
	}
	f.arena[f.end] = e
	f.end++
	f.hdr[0].stop = int32(f.end)
	return nil
}

func (f *frames) current() (uint64, bool) {
	for len(f.hdr) > 0 {
		t := f.top()
		if t.cur < t.stop {
			f.cur = len(f.hdr) - 1
			return f.arena[t.cur], true
		}
		if n := f.end - int(t.stop); n > 0 {
			// The level is done: its builder is the next level.
			copy(f.arena[t.start:], f.arena[t.stop:f.end])
			t.cur, t.stop = t.start, t.start+int32(n)
			t.level++
			f.end = int(t.stop)
			continue
		}
		f.hdr = f.hdr[:len(f.hdr)-1]
		if len(f.hdr) > 0 {
			f.end = int(f.top().stop)
		}
	}
	return 0, false
}

func (f *frames) setCurrent(e uint64) { f.arena[f.hdr[f.cur].cur] = e }

func (f *frames) close() { f.hdr[f.cur].cur++ }

func (f *frames) add(e uint64) (bool, error) {
	if f.end == len(f.arena) {
		f.squeeze()
		if f.end == len(f.arena) {
			return false, &budget.ErrExhausted{Part: "open set", Need: 8, Limit: f.b.Limit()}
		}
	}
	f.arena[f.end] = e
	f.end++
	t := f.top()
	if w := f.width(int(t.level) + 1); w != unbounded && f.end-int(t.stop) >= w {
		if err := f.push(frameHdr{start: t.stop, cur: t.stop, stop: int32(f.end), level: t.level + 1}); err != nil {
			f.end--
			return false, err
		}
		return true, nil
	}
	return false, nil
}

// squeeze moves every frame's open entries (and the builder) down over the
// closed ones.
func (f *frames) squeeze() {
	bStart := int(f.top().stop)
	w := int32(0)
	for i := range f.hdr {
		h := &f.hdr[i]
		n := copy(f.arena[w:], f.arena[h.cur:h.stop])
		h.start, h.cur, h.stop = w, w, w+int32(n)
		w += int32(n)
	}
	f.end = int(w) + copy(f.arena[w:], f.arena[bStart:f.end])
}

func (f *frames) depth() int64 {
	if len(f.hdr) == 0 {
		return 0
	}
	n := int64(f.end) - int64(f.top().stop)
	for i := range f.hdr {
		n += int64(f.hdr[i].stop - f.hdr[i].cur)
	}
	return n
}

func (f *frames) release() {
	f.b.Release("open set", f.held+f.hdrRes)
	f.held, f.hdrRes = 0, 0
	f.arena, f.hdr = nil, nil
}
