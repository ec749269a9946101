package queue

// This file implements FIFO: the memory-only queue and the disk queue of
// the CBFS paper's Fig. 5, in one type.

import (
	"fmt"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/storagefs"
)

// fifo keeps its records in list (chunks in memory) and segs (chunks
// swapped out), in this order of age:
//
//	list[:h]  head: the oldest records, popped from list[0]
//	segs      swapped-out segments, oldest first
//	list[h:]  tail: the newest records, pushed into the last chunk
//
// With no segments every chunk counts as head (h == len(list)). Only
// list[0] is ever read from, so no other chunk holds popped records, and
// the chunk of the record the last Pop returned is recycled only by the
// next Pop.
type fifo struct {
	c    chunks
	list []*chunk
	h    int
	segs []seg // segs[s0:] are live
	s0   int
	tail *chunk // the chunk Push writes into, nil if none is open
}

// NewDisk returns the disk-backed FIFO of the CBFS paper: at most memShare
// bytes of records in memory (reserved from b as part "queue"), the rest
// in segments of fs named prefix followed by 16 hex digits. The prefix
// must not be shared with (or be a prefix of) another live queue's on fs;
// segments an earlier run left under it are deleted. Two chunks are
// reserved at once; more are reserved as the queue grows, and if b
// refuses one before memShare is used the queue swaps out sooner instead
// of failing.
func NewDisk(recSize int, b *budget.Budget, memShare int64, fs storagefs.FS, prefix string) (FIFO, error) {
	checkRecSize(recSize)
	q := &fifo{c: newChunks(recSize, b)}
	if err := q.c.openDisk(memShare, fs, prefix); err != nil {
		return nil, err
	}
	return q, nil
}

func (q *fifo) RecordSize() int { return q.c.rec }
func (q *fifo) Len() int64      { return q.c.n }
func (q *fifo) Stats() Stats    { return q.c.stats() }

func (q *fifo) Push(rec []byte) error {
	t := q.tail
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

// open returns a tail chunk with room, swapping a chunk out if the memory
// share is full.
func (q *fifo) open(rec []byte) (*chunk, error) {
	if err := q.c.checkLen(rec); err != nil {
		return nil, err
	}
	if t := q.tail; t != nil && t.w < len(t.buf) {
		return t, nil
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
	if q.s0 == len(q.segs) {
		q.h = len(q.list)
	}
	q.tail = k
	return k, nil
}

// swapOut writes one chunk to disk and recycles its buffer: the oldest
// tail chunk, which goes after the last segment, or if there is no tail
// the newest head chunk, which goes before the first.
func (q *fifo) swapOut() error {
	i := q.h
	if i == len(q.list) {
		i--
	}
	if i <= 0 && q.h > 0 {
		// Only list[0] is left, and it may hold the record the last Pop
		// returned; the two-chunk floor of openDisk prevents this.
		return fmt.Errorf("queue: memory share too small to swap out")
	}
	k := q.list[i]
	s, err := q.c.swapOut(k)
	if err != nil {
		return err
	}
	if i == q.h {
		q.segs = append(q.segs, s)
	} else {
		q.insertSeg(s)
		q.h--
	}
	q.list = append(q.list[:i], q.list[i+1:]...)
	if k == q.tail {
		q.tail = nil
	}
	q.c.put(k)
	return nil
}

// insertSeg puts s before the first live segment.
func (q *fifo) insertSeg(s seg) {
	if q.s0 > 0 {
		q.s0--
		q.segs[q.s0] = s
		return
	}
	q.segs = append([]seg{s}, q.segs...)
}

func (q *fifo) Pop() ([]byte, error) {
	if q.h > 0 {
		if k := q.list[0]; k.r < k.w {
			rec := k.buf[k.r : k.r+q.c.rec : k.r+q.c.rec]
			k.r += q.c.rec
			q.c.n--
			return rec, nil
		}
	}
	return q.popSlow()
}

// popSlow recycles an exhausted head chunk and swaps a segment in.
func (q *fifo) popSlow() ([]byte, error) {
	for {
		if q.c.closed {
			return nil, ErrClosed
		}
		if q.h > 0 {
			k := q.list[0]
			if k.r < k.w {
				return q.Pop()
			}
			if k == q.tail {
				// The only chunk, and empty: reuse it in place.
				k.r, k.w = 0, 0
				return nil, nil
			}
			copy(q.list, q.list[1:])
			q.list[len(q.list)-1] = nil
			q.list = q.list[:len(q.list)-1]
			q.h--
			q.c.put(k)
			continue
		}
		if q.s0 == len(q.segs) {
			return nil, nil // h == 0 and no segments: empty
		}
		if err := q.swapIn(); err != nil {
			return nil, err
		}
	}
}

// swapIn loads the oldest segment as the new head chunk.
func (q *fifo) swapIn() error {
	k, err := q.c.get()
	if q.c.mustSwap(err) {
		// Pushes used the recycled head buffer since a failed swap-in.
		if err = q.swapOut(); err == nil {
			k, err = q.c.get()
		}
	}
	if err != nil {
		return err
	}
	s := q.segs[q.s0]
	loaded, err := q.c.swapIn(s, k)
	if !loaded {
		q.c.put(k)
		return err
	}
	q.segs[q.s0] = seg{}
	q.s0++
	if q.s0 == len(q.segs) {
		q.segs, q.s0 = q.segs[:0], 0
	}
	q.list = append(q.list, nil)
	copy(q.list[1:], q.list)
	q.list[0] = k
	q.h = 1
	if q.s0 == len(q.segs) {
		q.h = len(q.list)
	}
	return err
}

func (q *fifo) Close() error {
	err := q.c.close(q.segs[q.s0:])
	q.list, q.segs, q.s0, q.h, q.tail = nil, nil, 0, 0, nil
	return err
}
