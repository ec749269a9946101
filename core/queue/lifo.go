package queue

// This file implements LIFO, a stack with the disk discipline of the FIFO:
// the top chunks in memory, older chunks swapped out below them.

import (
	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/storagefs"
)

// lifo keeps segs (bottom, oldest first) below list (in memory, bottom
// first); the top of the stack is the last record of the last chunk.
// Pop copies the record out to out, because a Push right after a Pop
// writes where the popped record was.
type lifo struct {
	c    chunks
	list []*chunk
	segs []seg
	out  []byte
}

// NewDiskLIFO returns a disk-backed LIFO with the memory discipline and
// naming rules of NewDisk: when memShare is full the bottom chunk in
// memory is swapped out, and when memory runs empty the most recent
// segment is swapped back in.
func NewDiskLIFO(recSize int, b *budget.Budget, memShare int64, fs storagefs.FS, prefix string) (LIFO, error) {
	checkRecSize(recSize)
	q := &lifo{c: newChunks(recSize, b), out: make([]byte, recSize)}
	if err := q.c.openDisk(memShare, fs, prefix); err != nil {
		return nil, err
	}
	return q, nil
}

func (q *lifo) RecordSize() int { return q.c.rec }
func (q *lifo) Len() int64      { return q.c.n }
func (q *lifo) Stats() Stats    { return q.c.stats() }

func (q *lifo) Push(rec []byte) error {
	var t *chunk
	if n := len(q.list); n > 0 {
		t = q.list[n-1]
	}
	if t == nil || t.w == len(t.buf) || len(rec) != q.c.rec {
		var err error
		if t, err = q.open(rec); err != nil {
			return err
		}
	}
	copy(t.buf[t.w:], rec)
	t.w += q.c.rec
	q.c.n++
	return nil
}

// open returns a top chunk with room, swapping the bottom chunk out if
// the memory share is full.
func (q *lifo) open(rec []byte) (*chunk, error) {
	if err := q.c.checkLen(rec); err != nil {
		return nil, err
	}
	if n := len(q.list); n > 0 && q.list[n-1].w < len(q.list[n-1].buf) {
		return q.list[n-1], nil
	}
	k, err := q.c.get()
	if q.c.mustSwap(err) {
		if err = q.swapOut(); err == nil {
			k, err = q.c.get()
		}
	}
	if err != nil {
		return nil, err
	}
	q.list = append(q.list, k)
	return k, nil
}

// swapOut writes the bottom chunk in memory onto the segment stack.
func (q *lifo) swapOut() error {
	k := q.list[0]
	s, err := q.c.swapOut(k)
	if err != nil {
		return err
	}
	q.segs = append(q.segs, s)
	copy(q.list, q.list[1:])
	q.list[len(q.list)-1] = nil
	q.list = q.list[:len(q.list)-1]
	q.c.put(k)
	return nil
}

func (q *lifo) Pop() ([]byte, error) {
	for {
		if q.c.closed {
			return nil, ErrClosed
		}
		n := len(q.list)
		if n > 0 {
			if t := q.list[n-1]; t.w > 0 {
				t.w -= q.c.rec
				copy(q.out, t.buf[t.w:])
				q.c.n--
				return q.out, nil
			}
		}
		if n > 1 {
			// The empty top chunk goes back; the one below has records.
			q.c.put(q.list[n-1])
			q.list[n-1] = nil
			q.list = q.list[:n-1]
			continue
		}
		if len(q.segs) == 0 {
			return nil, nil
		}
		if err := q.swapIn(); err != nil {
			return nil, err
		}
	}
}

// swapIn loads the most recent segment into memory, which is empty.
func (q *lifo) swapIn() error {
	var k *chunk
	if len(q.list) == 1 {
		k = q.list[0] // empty: reuse it
	} else {
		var err error
		if k, err = q.c.get(); err != nil {
			return err
		}
		q.list = append(q.list, k)
	}
	s := q.segs[len(q.segs)-1]
	loaded, err := q.c.swapIn(s, k)
	if loaded {
		q.segs = q.segs[:len(q.segs)-1]
	}
	return err
}

func (q *lifo) Close() error {
	err := q.c.close(q.segs)
	q.list, q.segs = nil, nil
	return err
}
