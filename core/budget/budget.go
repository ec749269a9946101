// Package budget accounts the bytes an exploration holds, in one place.
//
// Every large structure an engine owns (visited sets, queues, caches, trace
// records) reserves its bytes here before growing and releases them when it
// shrinks. The engine reports Peak as the run's peak_bytes and stops with an
// "incomplete" verdict when a reservation is refused, instead of letting the
// process (or the browser tab) run out of memory.
package budget

import (
	"fmt"
	"sync"
)

// Budget is a byte allowance shared by the parts of one exploration.
//
// A Budget is safe for concurrent use: reservations are per chunk, never
// per state, so a lock costs nothing measurable. Engines that run in
// parallel give each worker a Child, which keeps that worker's own figures
// and reserves from the parent, so the parent's Used and Peak are the whole
// run's.
type Budget struct {
	mu     sync.Mutex
	parent *Budget // nil for a root budget
	limit  int64   // 0 means unlimited
	used   int64
	peak   int64
	parts  map[string]int64
}

// New returns a Budget of limit bytes; limit <= 0 means unlimited.
func New(limit int64) *Budget {
	if limit < 0 {
		limit = 0
	}
	return &Budget{limit: limit, parts: make(map[string]int64)}
}

// Child returns a budget that reserves from b: its own Used, Peak and Part
// count what was reserved through it, and b's limit applies to b and all
// its children together.
func (b *Budget) Child() *Budget {
	return &Budget{parent: b, parts: make(map[string]int64)}
}

// Limit returns the allowance in bytes, 0 if unlimited (for a child, its
// parent's).
func (b *Budget) Limit() int64 {
	if b.parent != nil {
		return b.parent.Limit()
	}
	return b.limit
}

// Used returns the bytes currently reserved.
func (b *Budget) Used() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Peak returns the largest number of bytes ever reserved at once.
func (b *Budget) Peak() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}

// Available returns the bytes that may still be reserved, or -1 if unlimited
// (for a child, what its parent has left).
func (b *Budget) Available() int64 {
	if b.parent != nil {
		return b.parent.Available()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.limit == 0 {
		return -1
	}
	if b.used >= b.limit {
		return 0
	}
	return b.limit - b.used
}

// Reserve asks for n more bytes on behalf of part (a short name such as
// "visited" or "queue" used in reports). It reports false, reserving nothing,
// if that would exceed the limit.
func (b *Budget) Reserve(part string, n int64) bool {
	if n <= 0 {
		return true
	}
	if b.parent != nil && !b.parent.Reserve(part, n) {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.parent == nil && b.limit != 0 && b.used+n > b.limit {
		return false
	}
	b.used += n
	b.parts[part] += n
	if b.used > b.peak {
		b.peak = b.used
	}
	return true
}

// Release gives back n bytes previously reserved by part.
func (b *Budget) Release(part string, n int64) {
	if n <= 0 {
		return
	}
	if b.parent != nil {
		b.parent.Release(part, n)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
	b.parts[part] -= n
	if b.used < 0 {
		b.used = 0
	}
}

// Part returns the bytes currently reserved by part.
func (b *Budget) Part(part string) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.parts[part]
}

// ErrExhausted is returned (wrapped) by structures whose reservation failed.
type ErrExhausted struct {
	Part  string // what asked
	Need  int64  // bytes it asked for
	Limit int64  // the whole budget
}

func (e *ErrExhausted) Error() string {
	return fmt.Sprintf("memory budget of %s exhausted: %s needed %s more", FormatBytes(e.Limit), e.Part, FormatBytes(e.Need))
}

// FormatBytes prints n with a binary unit, e.g. "64.0 MiB".
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
