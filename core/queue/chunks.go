package queue

// This file implements the machinery FIFO and LIFO share: chunk buffers
// reserved from the budget, the disk geometry chosen from the memory share,
// and swapping chunks out to segments and back.

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/storagefs"
)

// chunk is a run of records: buf[r:w] are live, buf is len(buf) bytes,
// a multiple of the record size.
type chunk struct {
	buf  []byte
	r, w int
}

// seg is a swapped-out chunk: a segment name and how many records it holds.
type seg struct {
	name string
	recs int64
}

// minSegment is the smallest segment a share of 2 MiB or more gets; tests
// lower it to get many chunks from small shares.
var minSegment int64 = 1 << 20

// errFull says a disk queue holds all the chunks its share allows.
var errFull = errors.New("queue: memory share full")

// chunks allocates and recycles chunk buffers for one queue and moves them
// to and from disk.
type chunks struct {
	rec int
	b   *budget.Budget

	fs     storagefs.FS // nil for memory-only queues
	prefix string
	size   int   // bytes per chunk and per segment (disk queues)
	max    int   // chunks allowed in memory (disk queues)
	floor  int64 // bytes reserved at creation and held until Close

	inUse    int    // chunks handed out and not put back
	spare    *chunk // one recycled chunk, so a queue hovering at a chunk boundary does not churn
	alloc    int64  // bytes of allocated buffers, in use and spare
	reserved int64  // bytes reserved from b: max(alloc, floor)
	seq      uint64 // next segment number
	garbage  []string
	// pinned segments belong to a checkpoint: swapping one in does not
	// delete it (the checkpoint's owner does, once a newer one replaces
	// it); keep makes close leave every segment where it is.
	pinned map[string]bool
	keep   bool

	n, onDisk                     int64 // records queued, and of them on disk
	bytesWritten, bytesRead       int64
	segmentsWritten, segmentsRead int64
	closed                        bool
}

func newChunks(rec int, b *budget.Budget) chunks {
	return chunks{rec: rec, b: b}
}

// geometry picks the chunk (= segment) size and the chunk count for a disk
// queue with memShare bytes of memory. Segments are 1-16 MiB, as
// IndexedDB's per-transaction cost (3-4 ms) wants, and at most an eighth
// of the share so that swapping moves a small part of memory at a time;
// a share under 2 MiB gets two chunks of half the share each.
func geometry(rec int, memShare int64) (size, count int, err error) {
	if memShare < 2*int64(rec) {
		return 0, 0, fmt.Errorf("queue: memory share of %s cannot hold the two records of %d bytes a disk queue needs (one in its head, one in its tail)",
			budget.FormatBytes(memShare), rec)
	}
	if rec > storagefs.MaxSegmentSize {
		return 0, 0, fmt.Errorf("queue: records of %s exceed the largest segment (%s)",
			budget.FormatBytes(int64(rec)), budget.FormatBytes(storagefs.MaxSegmentSize))
	}
	s := min(max(memShare/8, minSegment), storagefs.MaxSegmentSize)
	if 2*s > memShare {
		s = memShare / 2
	}
	size = max(int(s)/rec, 1) * rec // records over 1 MiB get one per segment
	return size, int(memShare / int64(size)), nil
}

// openDisk makes c a disk queue's machinery: it checks the prefix, deletes
// segments an earlier run left under it, and reserves the two chunks (head
// and tail) a disk queue cannot work without.
func (c *chunks) openDisk(memShare int64, fs storagefs.FS, prefix string) error {
	if fs == nil {
		return errors.New("queue: a disk queue needs a storagefs.FS")
	}
	if !storagefs.ValidName(prefix + "0000000000000000") {
		return fmt.Errorf("queue: %q cannot prefix segment names (letters, digits, '.', '_', '-')", prefix)
	}
	size, count, err := geometry(c.rec, memShare)
	if err != nil {
		return err
	}
	if err := storagefs.RemoveAll(fs, prefix); err != nil {
		return fmt.Errorf("queue: removing old segments: %w", err)
	}
	c.fs, c.prefix, c.size, c.max = fs, prefix, size, count
	c.floor = 2 * int64(size)
	if !c.account(0) {
		return exhausted(c.b, c.floor)
	}
	return nil
}

// account sets the reservation for alloc bytes of buffers, reporting false
// (changing nothing) if the budget refuses.
func (c *chunks) account(alloc int64) bool {
	want := max(alloc, c.floor)
	switch {
	case want > c.reserved:
		if !c.b.Reserve(Part, want-c.reserved) {
			return false
		}
	case want < c.reserved:
		c.b.Release(Part, c.reserved-want)
	}
	c.reserved = want
	return true
}

// get returns an empty chunk: the spare, or a new one if the share and the
// budget allow. A disk queue gets errFull or *budget.ErrExhausted when it
// must swap a chunk out first.
func (c *chunks) get() (*chunk, error) {
	if c.closed {
		return nil, ErrClosed
	}
	if k := c.spare; k != nil {
		c.spare = nil
		k.r, k.w = 0, 0
		c.inUse++
		return k, nil
	}
	size := c.size
	if c.fs == nil {
		size = int(min(max(c.alloc, minChunk), maxChunk)) / c.rec * c.rec
		if size == 0 {
			size = c.rec
		}
	} else if c.inUse >= c.max {
		return nil, errFull
	}
	if !c.account(c.alloc + int64(size)) {
		return nil, exhausted(c.b, int64(size))
	}
	c.alloc += int64(size)
	c.inUse++
	return &chunk{buf: make([]byte, size)}, nil
}

// put takes back a chunk no longer in use.
func (c *chunks) put(k *chunk) {
	c.inUse--
	if c.spare == nil {
		c.spare = k
		return
	}
	if len(k.buf) > len(c.spare.buf) {
		c.spare, k = k, c.spare // keep the larger
	}
	c.alloc -= int64(len(k.buf))
	c.account(c.alloc)
}

// mustSwap reports whether err from get means a disk queue should swap a
// chunk out and try again.
func (c *chunks) mustSwap(err error) bool {
	if c.fs == nil {
		return false
	}
	var ex *budget.ErrExhausted
	return err == errFull || errors.As(err, &ex)
}

// swapOut writes k's live records as a new segment. k is unchanged.
func (c *chunks) swapOut(k *chunk) (seg, error) {
	name := c.prefix + fmt.Sprintf("%016x", c.seq)
	data := k.buf[k.r:k.w]
	if err := c.fs.WriteSegment(name, data); err != nil {
		return seg{}, fmt.Errorf("queue: swap-out: %w", err)
	}
	c.seq++
	c.bytesWritten += int64(len(data))
	c.segmentsWritten++
	s := seg{name: name, recs: int64(len(data) / c.rec)}
	c.onDisk += s.recs
	return s, nil
}

// swapIn reads segment s into the empty chunk k and deletes it. On a read
// error nothing changes; if only the delete fails, k is filled, the
// segment is remembered for Close, and the error is returned.
func (c *chunks) swapIn(s seg, k *chunk) (loaded bool, err error) {
	want := int(s.recs) * c.rec
	data, err := c.fs.ReadSegment(s.name, k.buf[:0])
	if err != nil {
		return false, fmt.Errorf("queue: swap-in: %w", err)
	}
	if len(data) != want {
		return false, fmt.Errorf("queue: swap-in: segment %s holds %d bytes, want %d", s.name, len(data), want)
	}
	if len(data) > 0 && &data[0] != &k.buf[0] {
		copy(k.buf, data) // a store that ignored the buffer
	}
	k.r, k.w = 0, want
	c.bytesRead += int64(want)
	c.segmentsRead++
	c.onDisk -= s.recs
	if c.pinned[s.name] {
		return true, nil
	}
	if err := c.fs.RemoveSegment(s.name); err != nil {
		c.garbage = append(c.garbage, s.name)
		return true, fmt.Errorf("queue: deleting swapped-in segment: %w", err)
	}
	return true, nil
}

func (c *chunks) stats() Stats {
	return Stats{
		InMemory:        c.n - c.onDisk,
		OnDisk:          c.onDisk,
		MemoryBytes:     c.reserved,
		BytesWritten:    c.bytesWritten,
		BytesRead:       c.bytesRead,
		SegmentsWritten: c.segmentsWritten,
		SegmentsRead:    c.segmentsRead,
	}
}

// close deletes the segments still listed in live (and any whose delete
// failed earlier) and gives the memory back to the budget.
func (c *chunks) close(live []seg) error {
	if c.closed {
		return nil
	}
	c.closed = true
	var first error
	names := c.garbage
	for _, s := range live {
		names = append(names, s.name)
	}
	if c.keep {
		names = nil
	}
	for _, name := range names {
		if err := c.fs.RemoveSegment(name); err != nil && first == nil {
			first = fmt.Errorf("queue: close: %w", err)
		}
	}
	c.garbage = nil
	c.b.Release(Part, c.reserved)
	c.reserved, c.alloc, c.floor, c.spare, c.inUse = 0, 0, 0, nil, 0
	c.n, c.onDisk = 0, 0
	return first
}

// checkLen reports a record of the wrong size.
func (c *chunks) checkLen(rec []byte) error {
	if len(rec) == c.rec {
		return nil
	}
	return errors.New("queue: Push of a " + strconv.Itoa(len(rec)) + "-byte record, record size is " + strconv.Itoa(c.rec))
}
