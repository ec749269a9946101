// Package sigfile holds the signature file D of disk-based breadth-first
// search (Stern and Dill's DBFS; Penna et al., "Exploiting transition
// locality...", §5.1): an append-only list of fixed-size entries (state
// signatures, or whole packed states, plus optional ids) kept on storagefs.
//
// Entries are appended in memory to a tail block; a full block is written
// as one segment and never changes. Blocks are what the engine reads back
// selectively (the "disk cloud", §5.3-5.4): block i holds entries
// [i*per, (i+1)*per), and reading it is one sequential segment read, so a
// block is the unit of both storage and selection (the paper's concern
// about seeks between blocks is moot with one segment per block).
package sigfile

import (
	"errors"
	"fmt"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/storagefs"
)

// part is the budget part a File reserves its buffers under.
const part = "signature file"

// File is an append-only file of fixed-size entries in blocks.
type File struct {
	fs     storagefs.FS
	b      *budget.Budget
	prefix string
	entry  int // bytes per entry
	per    int // entries per block

	blocks   int    // full blocks written
	tail     []byte // the partial last block
	n        int64  // entries
	buf      []byte // read buffer, one block
	reserved int64

	written, read int64
	keep          bool

	// index maps the keys of the tail (the first keyLen bytes of each
	// entry) to their positions: slot = position+1, 0 empty.
	index   []uint32
	keyLen  int
	hash    func([]byte) uint64
	indexed int64 // bytes reserved for the index
}

// BlockBytes is the size of a block of per entries of entry bytes.
func BlockBytes(entry, per int) int64 { return int64(entry) * int64(per) }

// New returns an empty file of entries of entry bytes, per entries to a
// block, whose blocks are segments of fs named prefix followed by 16 hex
// digits. Segments an earlier run left under prefix are deleted. Two
// blocks of memory (the tail and a read buffer) are reserved from b.
func New(fs storagefs.FS, b *budget.Budget, prefix string, entry, per int) (*File, error) {
	f, err := open(fs, b, prefix, entry, per)
	if err != nil {
		return nil, err
	}
	if err := storagefs.RemoveAll(fs, prefix); err != nil {
		f.Close()
		return nil, fmt.Errorf("signature file: removing old blocks: %w", err)
	}
	return f, nil
}

func open(fs storagefs.FS, b *budget.Budget, prefix string, entry, per int) (*File, error) {
	if fs == nil {
		return nil, errors.New("signature file: no storage")
	}
	if entry <= 0 || per <= 0 {
		return nil, fmt.Errorf("signature file: entries of %d bytes, %d to a block", entry, per)
	}
	size := BlockBytes(entry, per)
	if size > storagefs.MaxSegmentSize {
		return nil, fmt.Errorf("signature file: blocks of %s exceed the largest segment", budget.FormatBytes(size))
	}
	if !storagefs.ValidName(prefix + "0000000000000000") {
		return nil, fmt.Errorf("signature file: %q cannot prefix segment names", prefix)
	}
	if !b.Reserve(part, 2*size) {
		return nil, &budget.ErrExhausted{Part: part, Need: 2 * size, Limit: b.Limit()}
	}
	return &File{fs: fs, b: b, prefix: prefix, entry: entry, per: per, reserved: 2 * size,
		tail: make([]byte, 0, size), buf: make([]byte, 0, size)}, nil
}

func (f *File) name(i int) string { return fmt.Sprintf("%s%016x", f.prefix, i) }

// Entry is the size of an entry.
func (f *File) Entry() int { return f.entry }

// PerBlock is the number of entries in a full block.
func (f *File) PerBlock() int { return f.per }

// Len is the number of entries.
func (f *File) Len() int64 { return f.n }

// Blocks is the number of full blocks, all on disk.
func (f *File) Blocks() int { return f.blocks }

// Append adds an entry (Entry() bytes), writing the tail block out when it
// is full.
func (f *File) Append(e []byte) error {
	if len(e) != f.entry {
		return fmt.Errorf("signature file: entry of %d bytes, want %d", len(e), f.entry)
	}
	f.tail = append(f.tail, e...)
	f.n++
	if f.index != nil {
		f.indexAdd(len(f.tail)/f.entry - 1)
	}
	if len(f.tail) == cap(f.tail) {
		if err := f.fs.WriteSegment(f.name(f.blocks), f.tail); err != nil {
			f.tail = f.tail[:len(f.tail)-f.entry]
			f.n--
			if f.index != nil {
				clear(f.index)
				for i := 0; i < len(f.tail)/f.entry; i++ {
					f.indexAdd(i)
				}
			}
			return fmt.Errorf("signature file: %w", err)
		}
		f.written += int64(len(f.tail))
		f.blocks++
		f.tail = f.tail[:0]
		clear(f.index)
	}
	return nil
}

// IndexBytes is the memory IndexTail takes for blocks of per entries.
func IndexBytes(per int) int64 {
	slots := 1
	for slots < 2*per {
		slots *= 2
	}
	return int64(slots) * 4
}

// IndexTail keeps an index of the tail's keys, the first keyLen bytes of
// each entry, hashed by hash, so that LookupTail finds one without a scan
// (a check with few candidates then costs little however large the tail).
// Its memory is reserved from the budget.
func (f *File) IndexTail(keyLen int, hash func([]byte) uint64) error {
	size := IndexBytes(f.per)
	slots := int(size / 4)
	if !f.b.Reserve(part, size) {
		return &budget.ErrExhausted{Part: part, Need: size, Limit: f.b.Limit()}
	}
	f.indexed = size
	f.index = make([]uint32, slots)
	f.keyLen, f.hash = keyLen, hash
	for i := 0; i < len(f.tail)/f.entry; i++ {
		f.indexAdd(i)
	}
	return nil
}

func (f *File) indexAdd(pos int) {
	mask := uint64(len(f.index) - 1)
	off := pos * f.entry
	for i := f.hash(f.tail[off:off+f.keyLen]) & mask; ; i = (i + 1) & mask {
		if f.index[i] == 0 {
			f.index[i] = uint32(pos + 1)
			return
		}
	}
}

// LookupTail returns the entry of the tail whose key is k (with the
// index of IndexTail).
func (f *File) LookupTail(k []byte) ([]byte, bool) {
	mask := uint64(len(f.index) - 1)
	for i := f.hash(k) & mask; ; i = (i + 1) & mask {
		p := f.index[i]
		if p == 0 {
			return nil, false
		}
		off := int(p-1) * f.entry
		if string(f.tail[off:off+f.keyLen]) == string(k) {
			return f.tail[off : off+f.entry], true
		}
	}
}

// TailLen is the number of entries in the tail.
func (f *File) TailLen() int { return len(f.tail) / f.entry }

// Block reads full block i; the slice is valid until the next call.
func (f *File) Block(i int) ([]byte, error) {
	if i < 0 || i >= f.blocks {
		return nil, fmt.Errorf("signature file: no block %d of %d", i, f.blocks)
	}
	data, err := f.fs.ReadSegment(f.name(i), f.buf[:0])
	if err != nil {
		return nil, fmt.Errorf("signature file: %w", err)
	}
	if len(data) != cap(f.buf) {
		return nil, fmt.Errorf("signature file: block %d holds %d bytes, want %d", i, len(data), cap(f.buf))
	}
	f.read += int64(len(data))
	return data, nil
}

// Tail returns the entries not yet written out: the newest, partial block
// (valid until the next Append).
func (f *File) Tail() []byte { return f.tail }

// IO returns the bytes written to and read from disk.
func (f *File) IO() (written, read int64) { return f.written, f.read }

// DiskBytes is the size of the blocks on disk.
func (f *File) DiskBytes() int64 { return int64(f.blocks) * BlockBytes(f.entry, f.per) }

// KeepSegments makes Close leave the blocks on disk (a checkpoint refers
// to them).
func (f *File) KeepSegments() { f.keep = true }

// Close releases the memory and, unless KeepSegments was called, deletes
// the blocks.
func (f *File) Close() error {
	f.b.Release(part, f.reserved+f.indexed)
	f.reserved, f.indexed = 0, 0
	f.tail, f.buf, f.index = nil, nil, nil
	if f.keep {
		return nil
	}
	var first error
	for i := 0; i < f.blocks; i++ {
		if err := f.fs.RemoveSegment(f.name(i)); err != nil && first == nil {
			first = err
		}
	}
	f.blocks = 0
	return first
}

// State is a File as a checkpoint records it.
type State struct {
	Entry  int    `json:"entry"`
	Per    int    `json:"per"`
	N      int64  `json:"n"`
	Blocks int    `json:"blocks"`
	Tail   string `json:"tail,omitempty"` // segment holding a copy of the tail
}

// Checkpoint returns the file's state, writing a copy of its tail as the
// segment tailName (if the tail is not empty). The file is unchanged.
func (f *File) Checkpoint(tailName string) (State, error) {
	st := State{Entry: f.entry, Per: f.per, N: f.n, Blocks: f.blocks}
	if len(f.tail) > 0 {
		if err := f.fs.WriteSegment(tailName, f.tail); err != nil {
			return st, fmt.Errorf("signature file: %w", err)
		}
		f.written += int64(len(f.tail))
		st.Tail = tailName
	}
	return st, nil
}

// Segments lists the segments a state refers to.
func (st State) Segments(prefix string) []string {
	var out []string
	for i := 0; i < st.Blocks; i++ {
		out = append(out, fmt.Sprintf("%s%016x", prefix, i))
	}
	if st.Tail != "" {
		out = append(out, st.Tail)
	}
	return out
}

// Restore reopens a file from a checkpoint's state: its blocks are the
// segments under prefix, its tail is read back from the copy.
func Restore(fs storagefs.FS, b *budget.Budget, prefix string, st State) (*File, error) {
	f, err := open(fs, b, prefix, st.Entry, st.Per)
	if err != nil {
		return nil, err
	}
	f.n, f.blocks = st.N, st.Blocks
	want := int(st.N-int64(st.Blocks)*int64(st.Per)) * st.Entry
	if want < 0 || want >= cap(f.tail) {
		f.Close()
		return nil, fmt.Errorf("signature file: checkpoint of %d entries in %d blocks is inconsistent", st.N, st.Blocks)
	}
	if want > 0 {
		data, err := fs.ReadSegment(st.Tail, f.tail[:0])
		if err != nil {
			f.KeepSegments()
			f.Close()
			return nil, fmt.Errorf("signature file: %w", err)
		}
		if len(data) != want {
			f.KeepSegments()
			f.Close()
			return nil, fmt.Errorf("signature file: tail copy holds %d bytes, want %d", len(data), want)
		}
		f.tail = append(f.tail[:0], data...) // a store may ignore the buffer
		f.read += int64(want)
	}
	return f, nil
}
