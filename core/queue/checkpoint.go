package queue

// This file lets a disk FIFO be saved in a checkpoint and rebuilt from it:
// the records it holds in memory are copied to new segments, and the
// segments it already had are pinned (kept on disk when swapped in) until
// the checkpoint's owner replaces the checkpoint.

import (
	"fmt"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/storagefs"
)

// Snapshot is a disk FIFO as a checkpoint records it: its records as an
// ordered list of segments, oldest first.
type Snapshot struct {
	Segments []SegmentRef `json:"segments"`
	Seq      uint64       `json:"seq"` // the queue's next segment number
	Records  int64        `json:"records"`
}

// SegmentRef is one segment of a Snapshot.
type SegmentRef struct {
	Name    string `json:"name"`
	Records int64  `json:"records"`
}

// Names lists the snapshot's segments.
func (s Snapshot) Names() []string {
	out := make([]string, len(s.Segments))
	for i, r := range s.Segments {
		out[i] = r.Name
	}
	return out
}

// Checkpointer is a FIFO that can be saved in a checkpoint (a disk FIFO).
type Checkpointer interface {
	FIFO
	// Checkpoint copies the records held in memory to new segments named
	// copyPrefix followed by 16 hex digits and returns the whole queue as
	// segments, in order. The queue is unchanged, and every segment of
	// the snapshot that it owns is pinned until the next Pin.
	Checkpoint(copyPrefix string) (Snapshot, error)
	// Pin sets the segments that swapping in must not delete (those of
	// the latest checkpoint), replacing the previous set.
	Pin(names []string)
	// KeepSegments makes Close leave every segment on disk.
	KeepSegments()
}

func (q *fifo) Checkpoint(copyPrefix string) (Snapshot, error) {
	if q.c.fs == nil {
		return Snapshot{}, fmt.Errorf("queue: a memory queue has no checkpoint")
	}
	snap := Snapshot{Records: q.c.n}
	copies := 0
	copyChunk := func(k *chunk) error {
		if k.r == k.w {
			return nil
		}
		name := fmt.Sprintf("%s%016x", copyPrefix, copies)
		copies++
		if err := q.c.fs.WriteSegment(name, k.buf[k.r:k.w]); err != nil {
			return fmt.Errorf("queue: checkpoint: %w", err)
		}
		q.c.bytesWritten += int64(k.w - k.r)
		snap.Segments = append(snap.Segments, SegmentRef{Name: name, Records: int64((k.w - k.r) / q.c.rec)})
		return nil
	}
	for _, k := range q.list[:q.h] {
		if err := copyChunk(k); err != nil {
			return snap, err
		}
	}
	for _, s := range q.segs[q.s0:] {
		snap.Segments = append(snap.Segments, SegmentRef{Name: s.name, Records: s.recs})
	}
	for _, k := range q.list[q.h:] {
		if err := copyChunk(k); err != nil {
			return snap, err
		}
	}
	snap.Seq = q.c.seq
	return snap, nil
}

func (q *fifo) Pin(names []string) {
	q.c.pinned = make(map[string]bool, len(names))
	for _, n := range names {
		q.c.pinned[n] = true
	}
}

func (q *fifo) KeepSegments() { q.c.keep = true }

// RestoreDisk rebuilds a disk FIFO (as NewDisk makes it) from a snapshot:
// its records are the snapshot's segments, which stay pinned; new segments
// are named prefix followed by 16 hex digits from the snapshot's sequence
// number on. Unlike NewDisk it deletes nothing.
func RestoreDisk(recSize int, b *budget.Budget, memShare int64, fs storagefs.FS, prefix string, snap Snapshot) (Checkpointer, error) {
	checkRecSize(recSize)
	q := &fifo{c: newChunks(recSize, b)}
	if fs == nil {
		return nil, fmt.Errorf("queue: a disk queue needs a storagefs.FS")
	}
	size, count, err := geometry(recSize, memShare)
	if err != nil {
		return nil, err
	}
	q.c.fs, q.c.prefix, q.c.size, q.c.max = fs, prefix, size, count
	q.c.floor = 2 * int64(size)
	if !q.c.account(0) {
		return nil, exhausted(b, q.c.floor)
	}
	var n int64
	for _, r := range snap.Segments {
		if int64(len(r.Name)) == 0 || r.Records <= 0 {
			return nil, fmt.Errorf("queue: snapshot segment %q of %d records", r.Name, r.Records)
		}
		q.segs = append(q.segs, seg{name: r.Name, recs: r.Records})
		n += r.Records
	}
	if n != snap.Records {
		return nil, fmt.Errorf("queue: snapshot of %d records lists %d", snap.Records, n)
	}
	q.c.n, q.c.onDisk, q.c.seq = n, n, snap.Seq
	q.Pin(snap.Names())
	return q, nil
}
