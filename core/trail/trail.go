// Package trail records how every state an engine keeps was reached, so
// that a counterexample can be rebuilt without keeping the states.
//
// Each kept state gets the next id (0, 1, 2, ...) and one record: the id of
// the state it was reached from (or none, for a start state) and the rule
// instance that led to it (the start state's number for a start state). A
// trace to state i walks the records back to a start state; the engine
// then replays the rules concretely. Engines that keep every state (exact
// BFS and DFS) could read the path from their tables, but they use the same
// trail so that one mechanism serves every engine, including those that
// forget states (cache-based BFS) or never store them (hash compaction).
//
// Records live in chunks in memory, reserved from the run's budget; when
// the budget refuses a chunk and a storagefs store is available, full
// chunks are written out as segments and their memory is given back, so a
// trail grows on disk at the speed of the search (appends only). Reading a
// record of a spilled chunk loads that segment.
package trail

import (
	"errors"
	"fmt"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/storagefs"
)

// None is the parent of a start state.
const None = -1

// MaxID is the largest id a trail can record: parents are stored in 40 bits.
const MaxID = 1<<40 - 2

const (
	parentBytes = 5
	noParent    = 1<<40 - 1
	// chunkBytes is the largest size of a chunk in memory: small, so that a small
	// model's trail costs little.
	chunkBytes = 64 << 10
	// minChunkBytes is the smallest chunk: under a budget, a chunk is at
	// most a 64th of it (a trail spilling to disk holds one chunk in
	// memory, which a small budget must not be made to pay 64 KiB for).
	minChunkBytes = 4 << 10
	// segmentChunks is how many chunks a segment holds at most: segments
	// of about 1 MiB suit every backend (see storagefs).
	segmentChunks = 16
	part          = "trail"
)

// segment is a run of spilled chunks written as one segment.
type segment struct {
	name  string
	first int64 // its first chunk
}

// Trail is an append-only list of (parent, rule) records.
type Trail struct {
	b      *budget.Budget
	fs     storagefs.FS
	prefix string

	ruleBytes int
	rec       int
	per       int64 // records per chunk

	chunks [][]byte // nil where the chunk is on disk
	onDisk []bool
	segOf  []int32 // for a chunk on disk, its segment
	segs   []segment
	n      int64

	reserved int64 // bytes reserved from b
	diskLive int64 // bytes in segments

	readSeg int32 // the segment cached for reads, -1 if none
	readBuf []byte

	written, read int64
	keep          bool
}

// New returns an empty trail for a model with rules rule instances (and
// start states: rule values range over both). fs may be nil: the trail
// then stays in memory. prefix names its segments; segments an earlier
// run left under it are deleted.
func New(b *budget.Budget, fs storagefs.FS, prefix string, rules int) (*Trail, error) {
	rb := 1
	for r := rules; r >= 1<<(8*rb) && rb < 4; rb++ {
	}
	t := &Trail{b: b, fs: fs, prefix: prefix, ruleBytes: rb, rec: parentBytes + rb, readSeg: -1}
	chunk := int64(chunkBytes)
	if l := b.Limit(); l > 0 && l/64 < chunk {
		chunk = max(l/64, minChunkBytes)
	}
	t.per = chunk / int64(t.rec)
	if fs != nil {
		if err := storagefs.RemoveAll(fs, prefix); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Len returns the number of records.
func (t *Trail) Len() int64 { return t.n }

// Append records that the next state (id Len()) was reached from parent
// (None for a start state) by rule, and returns the new state's id.
func (t *Trail) Append(parent int64, rule uint32) (int64, error) {
	id := t.n
	if id > MaxID {
		return -1, fmt.Errorf("more than %d states: the trail cannot record more", int64(MaxID))
	}
	c := id / t.per
	if c == int64(len(t.chunks)) {
		if err := t.newChunk(); err != nil {
			return -1, err
		}
	}
	p := uint64(noParent)
	if parent >= 0 {
		p = uint64(parent)
	}
	buf := t.chunks[c]
	off := int(id%t.per) * t.rec
	for k := 0; k < parentBytes; k++ {
		buf[off+k] = byte(p >> (8 * k))
	}
	for k := 0; k < t.ruleBytes; k++ {
		buf[off+parentBytes+k] = byte(rule >> (8 * k))
	}
	t.n++
	return id, nil
}

// newChunk opens the next chunk, spilling full chunks to disk if the
// budget refuses it.
func (t *Trail) newChunk() error {
	size := t.per * int64(t.rec)
	if !t.b.Reserve(part, size) {
		if t.fs == nil {
			return &budget.ErrExhausted{Part: "counterexample trail", Need: size, Limit: t.b.Limit()}
		}
		if err := t.Spill(); err != nil {
			return err
		}
		if !t.b.Reserve(part, size) {
			return &budget.ErrExhausted{Part: "counterexample trail", Need: size, Limit: t.b.Limit()}
		}
	}
	t.reserved += size
	t.chunks = append(t.chunks, make([]byte, size))
	t.onDisk = append(t.onDisk, false)
	t.segOf = append(t.segOf, -1)
	return nil
}

// Spill writes every full chunk still in memory to disk, up to
// segmentChunks of them to a segment, and releases their memory. It does
// nothing without a store.
func (t *Trail) Spill() error {
	if t.fs == nil {
		return nil
	}
	full := t.n / t.per
	size := t.per * int64(t.rec)
	for c := int64(0); c < full; {
		if t.onDisk[c] {
			c++
			continue
		}
		end := c
		for end < full && !t.onDisk[end] && end-c < segmentChunks {
			end++
		}
		// Several chunks make one segment, through a buffer the budget
		// must allow; else each chunk is a segment of its own.
		var buf []byte
		var held int64
		if end-c > 1 && t.b.Reserve(part, (end-c)*size) {
			held = (end - c) * size
			buf = make([]byte, 0, held)
			for k := c; k < end; k++ {
				buf = append(buf, t.chunks[k]...)
			}
		} else {
			end = c + 1
			buf = t.chunks[c]
		}
		seg := segment{name: fmt.Sprintf("%s%016x", t.prefix, c), first: c}
		err := t.fs.WriteSegment(seg.name, buf)
		t.b.Release(part, held)
		if err != nil {
			return fmt.Errorf("counterexample trail: %w", err)
		}
		t.segs = append(t.segs, seg)
		t.written += int64(len(buf))
		t.diskLive += int64(len(buf))
		for k := c; k < end; k++ {
			t.chunks[k] = nil
			t.onDisk[k] = true
			t.segOf[k] = int32(len(t.segs) - 1)
			t.b.Release(part, size)
			t.reserved -= size
		}
		c = end
	}
	return nil
}

// Get returns the parent (None for a start state) and rule of state id.
func (t *Trail) Get(id int64) (parent int64, rule uint32, err error) {
	if id < 0 || id >= t.n {
		return 0, 0, errors.New("trail: no such state")
	}
	c := id / t.per
	buf := t.chunks[c]
	off := int(id%t.per) * t.rec
	if t.onDisk[c] {
		si := t.segOf[c]
		if t.readSeg != si {
			t.readBuf, err = t.fs.ReadSegment(t.segs[si].name, t.readBuf)
			if err != nil {
				return 0, 0, fmt.Errorf("counterexample trail: %w", err)
			}
			t.read += int64(len(t.readBuf))
			t.readSeg = si
		}
		buf = t.readBuf
		off += int(c-t.segs[si].first) * int(t.per) * t.rec
	}
	var p uint64
	for k := 0; k < parentBytes; k++ {
		p |= uint64(buf[off+k]) << (8 * k)
	}
	for k := 0; k < t.ruleBytes; k++ {
		rule |= uint32(buf[off+parentBytes+k]) << (8 * k)
	}
	if p == noParent {
		return None, rule, nil
	}
	return int64(p), rule, nil
}

// Path returns the ids from a start state to id, in order.
func (t *Trail) Path(id int64) ([]int64, error) {
	var path []int64
	for i := id; ; {
		if int64(len(path)) > t.n {
			return nil, errors.New("trail: a cycle in the parent links")
		}
		path = append(path, i)
		p, _, err := t.Get(i)
		if err != nil {
			return nil, err
		}
		if p == None {
			break
		}
		i = p
	}
	for l, r := 0, len(path)-1; l < r; l, r = l+1, r-1 {
		path[l], path[r] = path[r], path[l]
	}
	return path, nil
}

// ChunkBytes returns the size of the trail's chunks: what a trail that
// spills to disk needs in memory.
func (t *Trail) ChunkBytes() int64 { return t.per * int64(t.rec) }

// MemoryBytes returns the bytes the trail holds in memory.
func (t *Trail) MemoryBytes() int64 { return t.reserved }

// DiskBytes returns the bytes the trail holds on disk.
func (t *Trail) DiskBytes() int64 { return t.diskLive }

// IO returns the bytes written to and read from disk.
func (t *Trail) IO() (written, read int64) { return t.written, t.read }

// Close releases the memory and deletes the segments.
func (t *Trail) Close() error {
	t.b.Release(part, t.reserved)
	t.reserved = 0
	t.chunks = nil
	var err error
	if t.fs != nil && t.diskLive > 0 && !t.keep {
		err = storagefs.RemoveAll(t.fs, t.prefix)
		t.diskLive = 0
	}
	return err
}
