package storagetest

// This file implements FaultFS, a store wrapper that fails chosen calls.

import (
	"sync"

	"github.com/locus-mc/locus/storagefs"
)

// FaultFS wraps a store and makes chosen operations fail, for testing how
// the store's users handle storage errors.
type FaultFS struct {
	storagefs.FS
	mu     sync.Mutex
	faults []fault
	calls  map[string]int
}

type fault struct {
	op   string
	at   int // fail the at'th call of op from now on; 0 means every call
	left int // calls of op still to pass
	err  error
}

// NewFaultFS wraps fs.
func NewFaultFS(fs storagefs.FS) *FaultFS {
	return &FaultFS{FS: fs, calls: make(map[string]int)}
}

// Fail makes the n'th next call of op fail with err, wrapped in a
// *storagefs.Error; n <= 1 means the next call. Ops are "write", "read",
// "open", "remove" and "list".
func (f *FaultFS) Fail(op string, n int, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n < 1 {
		n = 1
	}
	f.faults = append(f.faults, fault{op: op, left: n - 1, err: err})
}

// FailAlways makes every call of op fail with err until Heal.
func (f *FaultFS) FailAlways(op string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = append(f.faults, fault{op: op, left: -1, err: err})
}

// Heal cancels every pending fault.
func (f *FaultFS) Heal() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = nil
}

// Calls returns how many times op was called, failed calls included.
func (f *FaultFS) Calls(op string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[op]
}

// check counts a call of op and returns its injected error, if any.
func (f *FaultFS) check(op, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[op]++
	for i := range f.faults {
		x := &f.faults[i]
		if x.op != op {
			continue
		}
		switch {
		case x.left < 0:
			return &storagefs.Error{Op: op, Kind: "fault", Name: name, Err: x.err}
		case x.left == 0:
			f.faults = append(f.faults[:i], f.faults[i+1:]...)
			return &storagefs.Error{Op: op, Kind: "fault", Name: name, Err: x.err}
		default:
			x.left--
		}
	}
	return nil
}

func (f *FaultFS) WriteSegment(name string, data []byte) error {
	if err := f.check("write", name); err != nil {
		return err
	}
	return f.FS.WriteSegment(name, data)
}

func (f *FaultFS) ReadSegment(name string, buf []byte) ([]byte, error) {
	if err := f.check("read", name); err != nil {
		return nil, err
	}
	return f.FS.ReadSegment(name, buf)
}

func (f *FaultFS) OpenSegment(name string) (storagefs.Segment, error) {
	if err := f.check("open", name); err != nil {
		return nil, err
	}
	return f.FS.OpenSegment(name)
}

func (f *FaultFS) RemoveSegment(name string) error {
	if err := f.check("remove", name); err != nil {
		return err
	}
	return f.FS.RemoveSegment(name)
}

func (f *FaultFS) ListSegments(prefix string) ([]storagefs.SegmentInfo, error) {
	if err := f.check("list", prefix); err != nil {
		return nil, err
	}
	return f.FS.ListSegments(prefix)
}
