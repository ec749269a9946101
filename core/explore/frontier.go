package explore

import (
	"github.com/locus-mc/locus/core/budget"
)

// frontier holds the states still to expand, as fixed-size records.
type frontier interface {
	Push(rec []byte) error
	Pop() ([]byte, error) // nil when empty; valid until the next Pop
	Len() int64
	InMemory() int64
	OnDisk() int64
	Written() int64
	Read() int64
	Close()
}

// memStack is an in-memory LIFO of fixed-size records in chunks, for DFS.
type memStack struct {
	rec    int
	chunks [][]byte
	n      int64
	per    int // records per chunk
	b      *budget.Budget
	top    []byte
}

func newMemStack(rec int, b *budget.Budget) *memStack {
	per := (256 << 10) / rec
	if per < 1 {
		per = 1
	}
	return &memStack{rec: rec, per: per, b: b, top: make([]byte, rec)}
}

func (s *memStack) Push(r []byte) error {
	c := int(s.n / int64(s.per))
	if c == len(s.chunks) {
		size := int64(s.per * s.rec)
		if !s.b.Reserve("queue", size) {
			return &budget.ErrExhausted{Part: "search stack", Need: size, Limit: s.b.Limit()}
		}
		s.chunks = append(s.chunks, make([]byte, s.per*s.rec))
	}
	off := int(s.n%int64(s.per)) * s.rec
	copy(s.chunks[c][off:off+s.rec], r)
	s.n++
	return nil
}

func (s *memStack) Pop() ([]byte, error) {
	if s.n == 0 {
		return nil, nil
	}
	s.n--
	c := int(s.n / int64(s.per))
	off := int(s.n%int64(s.per)) * s.rec
	copy(s.top, s.chunks[c][off:off+s.rec])
	// Free a trailing chunk once it is two chunks behind, so memory follows
	// the stack down without thrashing at a boundary.
	if len(s.chunks) > c+2 {
		last := len(s.chunks) - 1
		s.chunks[last] = nil
		s.chunks = s.chunks[:last]
		s.b.Release("queue", int64(s.per*s.rec))
	}
	return s.top, nil
}

func (s *memStack) Len() int64      { return s.n }
func (s *memStack) InMemory() int64 { return s.n }
func (s *memStack) OnDisk() int64   { return 0 }
func (s *memStack) Written() int64  { return 0 }
func (s *memStack) Read() int64     { return 0 }
func (s *memStack) Close() {
	s.b.Release("queue", int64(len(s.chunks)*s.per*s.rec))
	s.chunks = nil
}

// memQueue is an in-memory FIFO of fixed-size records in chunks.
type memQueue struct {
	rec    int
	chunks [][]byte
	head   int64 // index of the first record overall
	n      int64
	first  int64 // record index at chunks[0][0]
	per    int
	b      *budget.Budget
}

func newMemQueue(rec int, b *budget.Budget) *memQueue {
	per := (256 << 10) / rec
	if per < 1 {
		per = 1
	}
	return &memQueue{rec: rec, per: per, b: b}
}

func (q *memQueue) Push(r []byte) error {
	tail := q.head + q.n
	c := int((tail - q.first) / int64(q.per))
	if c == len(q.chunks) {
		size := int64(q.per * q.rec)
		if !q.b.Reserve("queue", size) {
			return &budget.ErrExhausted{Part: "search queue", Need: size, Limit: q.b.Limit()}
		}
		q.chunks = append(q.chunks, make([]byte, q.per*q.rec))
	}
	off := int((tail-q.first)%int64(q.per)) * q.rec
	copy(q.chunks[c][off:off+q.rec], r)
	q.n++
	return nil
}

func (q *memQueue) Pop() ([]byte, error) {
	if q.n == 0 {
		return nil, nil
	}
	c := int((q.head - q.first) / int64(q.per))
	off := int((q.head-q.first)%int64(q.per)) * q.rec
	r := q.chunks[c][off : off+q.rec]
	q.head++
	q.n--
	if c > 0 {
		// The chunk before the one being read is spent.
		q.chunks[0] = nil
		q.chunks = q.chunks[1:]
		q.first += int64(q.per)
		q.b.Release("queue", int64(q.per*q.rec))
	}
	return r, nil
}

func (q *memQueue) Len() int64      { return q.n }
func (q *memQueue) InMemory() int64 { return q.n }
func (q *memQueue) OnDisk() int64   { return 0 }
func (q *memQueue) Written() int64  { return 0 }
func (q *memQueue) Read() int64     { return 0 }
func (q *memQueue) Close() {
	q.b.Release("queue", int64(len(q.chunks)*q.per*q.rec))
	q.chunks = nil
}
