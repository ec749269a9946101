// Package queue holds the search queues of fixed-size records that the
// engines use: a FIFO for breadth-first search, in memory or spilling to
// disk through storagefs, and a LIFO stack with the same discipline.
//
// Records are the engine's packed states plus a few bytes of trace index;
// the engine picks the record size per model. Records live in chunks: byte
// slices holding many records back to back, so Push is one copy and Pop
// one reslice, with no allocation per record. Chunks are reserved from the
// run's budget.Budget as part "queue".
//
// The disk-backed FIFO is the queue of the CBFS paper (transition locality,
// §4, Fig. 5): records are taken from a head in memory and added to a tail
// in memory; when memory is full a tail chunk is written whole as a swap-out
// segment, and when the head runs dry the oldest segment is swapped back
// in. Memory stays within the share the engine gives the queue however long
// the queue grows, and records come out in exact FIFO order.
package queue

import (
	"errors"
	"fmt"

	"github.com/locus-mc/locus/core/budget"
)

// Part is the budget part queues reserve their memory under.
const Part = "queue"

// FIFO is a first-in first-out queue of fixed-size records.
type FIFO interface {
	// Push copies rec (len(rec) == RecordSize()) to the back. Its error
	// wraps *budget.ErrExhausted or a storagefs error; rec is then not
	// queued.
	Push(rec []byte) error
	// Pop removes the front record and returns it, or (nil, nil) when the
	// queue is empty. The slice is valid until the next Pop.
	Pop() ([]byte, error)
	// Len is the number of records queued.
	Len() int64
	RecordSize() int
	Stats() Stats
	// Close releases the queue's memory and deletes its segments.
	Close() error
}

// LIFO is a last-in first-out stack of fixed-size records, with the same
// contracts as FIFO (Pop returns the most recently pushed record).
type LIFO interface {
	Push(rec []byte) error
	Pop() ([]byte, error)
	Len() int64
	RecordSize() int
	Stats() Stats
	Close() error
}

// Stats describes a queue for progress reports.
type Stats struct {
	InMemory        int64 // records held in memory
	OnDisk          int64 // records held in segments
	MemoryBytes     int64 // bytes reserved from the budget
	BytesWritten    int64 // segment bytes written
	BytesRead       int64 // segment bytes read back
	SegmentsWritten int64
	SegmentsRead    int64
}

// ErrClosed is returned by a queue used after Close.
var ErrClosed = errors.New("queue: used after Close")

// Memory-only queues grow by chunks whose size doubles from minChunk to
// maxChunk bytes: a small queue costs little, a large one reserves budget
// in steps coarse enough to be cheap and fine enough to use it all.
const (
	minChunk = 4 << 10
	maxChunk = 1 << 20
)

// NewMemory returns a FIFO held in memory only, reserving its chunks from
// b; Push fails with *budget.ErrExhausted when b refuses one.
func NewMemory(recSize int, b *budget.Budget) FIFO {
	checkRecSize(recSize)
	return &fifo{c: newChunks(recSize, b)}
}

// NewMemoryLIFO returns a LIFO held in memory only, like NewMemory.
func NewMemoryLIFO(recSize int, b *budget.Budget) LIFO {
	checkRecSize(recSize)
	return &lifo{c: newChunks(recSize, b), out: make([]byte, recSize)}
}

func checkRecSize(recSize int) {
	if recSize <= 0 {
		panic(fmt.Sprintf("queue: record size %d", recSize))
	}
}

// exhausted is the error a refused reservation of n bytes becomes.
func exhausted(b *budget.Budget, n int64) error {
	return fmt.Errorf("queue: %w", &budget.ErrExhausted{Part: Part, Need: n, Limit: b.Limit()})
}

// SegmentRecords returns how many records of recSize bytes a disk queue with
// a memory share of memShare bytes writes per segment, or the error NewDisk
// would return for that geometry.
func SegmentRecords(recSize int, memShare int64) (int, error) {
	size, _, err := geometry(recSize, memShare)
	if err != nil {
		return 0, err
	}
	return size / recSize, nil
}
