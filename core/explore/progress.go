package explore

// This file implements the "no progress" detector of the engines that
// forget states (cache-based BFS, and auto once it becomes a cache).
//
// A forgetting search terminates, and then has visited every reachable
// state, only when its queue runs dry; when the cache is too small for the
// model's locality it revisits the same states forever instead (CMurphi
// gives up when 90% of insertions overwrite an entry, which stops runs that
// were about to finish and lets hopeless ones run long). We watch what the
// search actually finds: a small exact sample of the states it inserts
// (those whose hash falls in a 2^-k slice, k raised whenever the sample
// outgrows its memory: adaptive sampling, Wegman; Flajolet, "Adaptive
// sampling", 1990) gives an unbiased estimate of the distinct states seen
// so far, and tells us when the last new one was seen. The search stops
// when, since then, it has inserted Revisits times as many states as it has
// seen in all: it has gone over everything it knows several times over
// without finding anything new, or when it has gone through more BFS levels
// than it has seen states (a BFS of n states has at most n levels).

import (
	"github.com/locus-mc/locus/core/budget"
)

// sampleMix decorrelates the sample's choice and slots from the table hash's
// low bits (which pick the visited set's slots).
const sampleMix = 0x9E3779B97F4A7C15

type distinctSample struct {
	b     *budget.Budget
	slots []uint64 // 0 = empty
	n     int
	k     uint // keep hashes whose top k bits are zero

	inserts      int64 // insertions seen
	lastNewAt    int64 // insertions when a new sampled state was last seen
	lastNewLevel int
}

// newDistinctSample returns a sample held in at most maxBytes (at least
// 64 KiB), reserved from b now.
func newDistinctSample(b *budget.Budget, maxBytes int64) (*distinctSample, error) {
	return newSampleFrom(b, maxBytes, 1<<13)
}

// newSampleFrom returns a sample of at least minSlots slots (a power of
// two), more up to maxBytes: the engines that measure small budgets
// exactly (rbfs, state caching) start from 1024 slots (8 KiB).
func newSampleFrom(b *budget.Budget, maxBytes, minSlots int64) (*distinctSample, error) {
	// A sample thins itself as it fills (add raises k), so beyond a
	// million slots a bigger budget buys no precision.
	maxBytes = min(maxBytes, 8<<20)
	slots := minSlots
	for slots*2*8 <= maxBytes {
		slots *= 2
	}
	if !b.Reserve("progress sample", slots*8) {
		return nil, &budget.ErrExhausted{Part: "progress sample", Need: slots * 8, Limit: b.Limit()}
	}
	return &distinctSample{b: b, slots: make([]uint64, slots)}, nil
}

// add notes an insertion of a state with table hash h at BFS level, and
// reports whether the state is in the sample and new to it.
func (d *distinctSample) add(h uint64, level int) bool {
	d.inserts++
	x := h * sampleMix
	if x == 0 || (d.k > 0 && x>>(64-d.k) != 0) {
		return false
	}
	if !d.insert(x) {
		return false
	}
	d.lastNewAt = d.inserts
	d.lastNewLevel = level
	d.n++
	if 2*d.n > len(d.slots) {
		d.raise()
	}
	return true
}

// insert adds x and reports whether it was new.
func (d *distinctSample) insert(x uint64) bool {
	mask := uint64(len(d.slots) - 1)
	for i := (x ^ x>>29) & mask; ; i = (i + 1) & mask {
		switch d.slots[i] {
		case x:
			return false
		case 0:
			d.slots[i] = x
			return true
		}
	}
}

// raise halves the sampling rate: k grows by one and the sampled hashes
// that no longer qualify are dropped.
func (d *distinctSample) raise() {
	d.k++
	old := d.slots
	d.slots = make([]uint64, len(old))
	d.n = 0
	for _, x := range old {
		if x != 0 && x>>(64-d.k) == 0 {
			d.insert(x)
			d.n++
		}
	}
}

// estimate returns the estimated number of distinct states inserted.
func (d *distinctSample) estimate() int64 { return int64(d.n) << d.k }

// stalled reports why the search should stop, or "" while it progresses.
func (d *distinctSample) stalled(level int, revisits float64) string {
	est := d.estimate()
	since := d.inserts - d.lastNewAt
	// A sparse sample sees a new state only every 2^k insertions even
	// when every insertion is new; never judge on fewer than that times
	// a margin.
	minWindow := int64(64) << d.k
	if since > minWindow && float64(since) > revisits*float64(est) {
		return "no progress"
	}
	// A breadth-first search of n distinct states has at most n levels:
	// more levels than states seen means the levels are revisits.
	if int64(level) > est && since > minWindow {
		return "levels"
	}
	return ""
}

func (d *distinctSample) release() {
	d.b.Release("progress sample", int64(len(d.slots))*8)
	d.slots = nil
}
