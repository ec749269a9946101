// Package budget accounts the bytes an exploration holds, in one place.
//
// Every large structure an engine owns (visited sets, queues, caches, trace
// records) reserves its bytes here before growing and releases them when it
// shrinks. The engine reports Peak as the run's peak_bytes and stops with an
// "incomplete" verdict when a reservation is refused, instead of letting the
// process (or the browser tab) run out of memory.
package budget

import "fmt"

// Budget is a byte allowance shared by the parts of one exploration.
// It is not safe for concurrent use; engines that run in parallel give each
// worker its own Budget carved out of the total.
type Budget struct {
	limit int64 // 0 means unlimited
	used  int64
	peak  int64
	parts map[string]int64
}

// New returns a Budget of limit bytes; limit <= 0 means unlimited.
func New(limit int64) *Budget {
	if limit < 0 {
		limit = 0
	}
	return &Budget{limit: limit, parts: make(map[string]int64)}
}

// Limit returns the allowance in bytes, 0 if unlimited.
func (b *Budget) Limit() int64 { return b.limit }

// Used returns the bytes currently reserved.
func (b *Budget) Used() int64 { return b.used }

// Peak returns the largest number of bytes ever reserved at once.
func (b *Budget) Peak() int64 { return b.peak }

// Available returns the bytes that may still be reserved, or -1 if unlimited.
func (b *Budget) Available() int64 {
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
	if b.limit != 0 && b.used+n > b.limit {
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
	b.used -= n
	b.parts[part] -= n
	if b.used < 0 {
		b.used = 0
	}
}

// Part returns the bytes currently reserved by part.
func (b *Budget) Part(part string) int64 { return b.parts[part] }

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
