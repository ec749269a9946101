//go:build js && wasm

// This file opens the browser storage an engine may spill its queue to, and
// cleans up the storage of runs that were cancelled.

package main

import (
	"fmt"
	"syscall/js"
	"time"

	"github.com/locus-mc/locus/internal/jsutil"
	"github.com/locus-mc/locus/storagefs"
	"github.com/locus-mc/locus/wasm/protocol"
)

// storePrefix names every run's store (an OPFS directory or an IndexedDB
// database). Each run has its own store, and holds a Web Lock of the same
// name for its Worker's lifetime: the page cancels a run by terminating its
// Worker, which cannot clean up, so the next run deletes every store whose
// lock nobody holds.
const storePrefix = "locus-run-"

// storageKind names the storage a check in this Worker will use, for the
// ready message.
func storageKind() string {
	switch {
	case storagefs.OPFSAvailable():
		return protocol.StorageOPFS
	case js.Global().Get("indexedDB").Type() == js.TypeObject:
		return protocol.StorageIndexedDB
	}
	return protocol.StorageNone
}

// openStorage removes the stores of dead runs and opens a fresh store for
// run id, asking the browser to persist it.
func openStorage(id int64) (storagefs.FS, error) {
	if _, err := await(js.Global().Call("locusCleanStores", storePrefix)); err != nil {
		return nil, fmt.Errorf("cannot clean up old runs' storage: %w", err)
	}
	name := fmt.Sprintf("%s%d-%d", storePrefix, time.Now().UnixNano(), id)
	if _, err := await(js.Global().Call("locusHoldLock", name)); err != nil {
		return nil, fmt.Errorf("cannot lock the run's storage: %w", err)
	}
	fs, err := storagefs.OpenBrowser(name, storagefs.Options{})
	if err != nil {
		return nil, err
	}
	// Without persistence the run still works; the browser may just evict
	// its data under storage pressure.
	fs.Persist()
	return fs, nil
}

// lazyStore is a run's store, opened only when the engine first writes to
// it. Opening browser storage (cleaning up after cancelled runs, taking a
// Web Lock, opening OPFS) takes a good part of a second, and most runs of
// small models never spill their queue: they should not wait for it. A
// store not yet opened is empty, as a new one is.
type lazyStore struct {
	id   int64
	fs   storagefs.FS
	err  error
	kind string
}

func newLazyStore(id int64) *lazyStore { return &lazyStore{id: id, kind: storageKind()} }

func (l *lazyStore) open() (storagefs.FS, error) {
	if l.fs == nil && l.err == nil {
		l.fs, l.err = openStorage(l.id)
	}
	return l.fs, l.err
}

func (l *lazyStore) WriteSegment(name string, data []byte) error {
	fs, err := l.open()
	if err != nil {
		return err
	}
	return fs.WriteSegment(name, data)
}

func (l *lazyStore) ReadSegment(name string, buf []byte) ([]byte, error) {
	if l.fs == nil {
		return nil, &storagefs.Error{Op: "read", Name: name, Err: storagefs.ErrNotExist}
	}
	return l.fs.ReadSegment(name, buf)
}

func (l *lazyStore) OpenSegment(name string) (storagefs.Segment, error) {
	if l.fs == nil {
		return nil, &storagefs.Error{Op: "open", Name: name, Err: storagefs.ErrNotExist}
	}
	return l.fs.OpenSegment(name)
}

func (l *lazyStore) RemoveSegment(name string) error {
	if l.fs == nil {
		return &storagefs.Error{Op: "remove", Name: name, Err: storagefs.ErrNotExist}
	}
	return l.fs.RemoveSegment(name)
}

func (l *lazyStore) ListSegments(prefix string) ([]storagefs.SegmentInfo, error) {
	if l.fs == nil {
		return nil, nil
	}
	return l.fs.ListSegments(prefix)
}

func (l *lazyStore) Space() (storagefs.Space, error) {
	fs, err := l.open()
	if err != nil {
		return storagefs.Space{}, err
	}
	return fs.Space()
}

func (l *lazyStore) Persist() (bool, error) {
	fs, err := l.open()
	if err != nil {
		return false, err
	}
	return fs.Persist()
}

func (l *lazyStore) Stats() storagefs.Stats {
	if l.fs == nil {
		return storagefs.Stats{}
	}
	return l.fs.Stats()
}

func (l *lazyStore) Kind() string {
	if l.fs != nil {
		return l.fs.Kind()
	}
	return l.kind
}

func (l *lazyStore) Close() error {
	if l.fs == nil {
		return nil
	}
	storagefs.RemoveAll(l.fs, "")
	return l.fs.Close()
}

// await blocks the calling goroutine (never a JavaScript callback) until
// promise settles.
func await(promise js.Value) (js.Value, error) { return jsutil.Await(promise) }
