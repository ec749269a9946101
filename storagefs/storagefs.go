// Package storagefs is the file seam every engine uses for its disk data.
//
// Placeholder: the storage helper replaces this file with the real seam
// (segments over hackpadfs: OS directory, memory, IndexedDB, OPFS).
package storagefs

// FS is a store of write-once segments.
type FS interface {
	WriteSegment(name string, data []byte) error
	ReadSegment(name string) ([]byte, error)
	Remove(name string) error
}
