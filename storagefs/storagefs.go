// Package storagefs is the disk seam every engine uses for its data on disk.
//
// The unit of storage is the segment: a named, write-once block of bytes
// (1-16 MiB in practice), written whole, read sequentially (whole or in
// chunks), listed and deleted. Segments suit every backend: hackpadfs's
// IndexedDB store rewrites a whole file on every write (appending 1024 x
// 4 KiB took 9.4 s, whole 1 MiB writes run at 130-175 MiB/s), and OPFS sync
// handles are fastest with large blocks.
//
// Backends:
//
//	NewOS(dir, opts)          a directory on the native file system
//	NewMemory(opts)           in memory, for tests
//	NewIndexedDB(name, opts)  browser IndexedDB (js/wasm; also Node + fake-indexeddb)
//	NewOPFS(name, opts)       origin private file system with sync access
//	                          handles (js/wasm, dedicated Workers only)
//	OpenBrowser(name, opts)   OPFS when available, else IndexedDB
//
// Failures are *Error values wrapping a sentinel (ErrNotExist, ErrExist,
// ErrQuotaExceeded, ErrStoreGone, ...) so engines can test them with
// errors.Is and still print a message that says what happened.
package storagefs

import "io"

// MaxSegmentSize is the largest segment a backend accepts. IndexedDB holds
// a segment as one value and reads it whole, so segments stay small.
const MaxSegmentSize = 16 << 20

// MaxNameLen is the longest segment name.
const MaxNameLen = 128

// FS is a store of named write-once segments.
//
// A store assumes it is the only writer of its directory or database while
// open. Methods are safe for concurrent use.
type FS interface {
	// WriteSegment stores data whole under name. It fails with ErrExist if
	// the segment exists: segments are never overwritten, only removed.
	// The caller may reuse data as soon as WriteSegment returns. A failed
	// write leaves no segment behind.
	WriteSegment(name string, data []byte) error

	// ReadSegment reads the segment whole into buf[:0], growing it only if
	// its capacity is too small, and returns the filled slice.
	ReadSegment(name string, buf []byte) ([]byte, error)

	// OpenSegment opens the segment for sequential reading in chunks.
	OpenSegment(name string) (Segment, error)

	// RemoveSegment deletes the segment.
	RemoveSegment(name string) error

	// ListSegments returns the segments whose names start with prefix,
	// sorted by name.
	ListSegments(prefix string) ([]SegmentInfo, error)

	// Space reports how much more the store may hold.
	Space() (Space, error)

	// Persist asks that the store's data not be evicted under storage
	// pressure and reports whether it is protected. Browsers grant it per
	// origin (navigator.storage.persist()); native directories always are.
	Persist() (bool, error)

	// Sync makes the segments written so far durable: on the native
	// file system it flushes them (and the directory) to the device;
	// browser stores commit each write as it completes.
	Sync() error

	// Stats returns the I/O counters since the store was opened.
	Stats() Stats

	// Kind names the backend: "os", "memory", "indexeddb" or "opfs".
	Kind() string

	// Close releases the store. Segments stay where they are.
	Close() error
}

// Segment is an open segment, read front to back.
type Segment interface {
	io.Reader
	// Size is the segment's length in bytes.
	Size() int64
	Close() error
}

// SegmentInfo describes one stored segment.
type SegmentInfo struct {
	Name string
	Size int64
}

// Space is what a store knows about the room left for it.
// Unknown quantities are -1.
type Space struct {
	Free  int64 // bytes that may still be written
	Quota int64 // bytes the store or origin may use in all
	Used  int64 // bytes the store or origin uses now
}

// Known reports whether the free space is known.
func (s Space) Known() bool { return s.Free >= 0 }

// Stats counts a store's I/O, for progress reports.
type Stats struct {
	BytesWritten    int64 // bytes handed to successful WriteSegment calls
	BytesRead       int64 // bytes delivered by ReadSegment and Segment.Read
	SegmentsWritten int64
	SegmentsRead    int64 // segments opened for reading
	SegmentsRemoved int64
	LiveBytes       int64 // bytes in the segments this store knows of
}

// Options configures a store.
type Options struct {
	// MaxBytes caps the bytes the store holds (its live segments); a write
	// past it fails with ErrQuotaExceeded. 0 means no cap beyond the
	// backend's own quota.
	MaxBytes int64
}

// ValidName reports whether name may name a segment: 1 to MaxNameLen
// characters from [A-Za-z0-9._-], not starting with '.'. The rule keeps
// names portable across file systems, OPFS and IndexedDB keys.
func ValidName(name string) bool {
	if len(name) == 0 || len(name) > MaxNameLen || name[0] == '.' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !nameByte(name[i]) {
			return false
		}
	}
	return true
}

func nameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-'
}

// RemoveAll deletes every segment whose name starts with prefix, for
// example the leftovers of a run that crashed.
func RemoveAll(fs FS, prefix string) error {
	segs, err := fs.ListSegments(prefix)
	if err != nil {
		return err
	}
	for _, s := range segs {
		if err := fs.RemoveSegment(s.Name); err != nil {
			return err
		}
	}
	return nil
}
