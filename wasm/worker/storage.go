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
// run id, asking the browser to persist it. The caller closes it with
// closeStorage.
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

// closeStorage deletes the run's segments and closes its store; the empty
// store itself goes with the next run's clean-up.
func closeStorage(fs storagefs.FS) {
	storagefs.RemoveAll(fs, "")
	fs.Close()
}

// await blocks the calling goroutine (never a JavaScript callback) until
// promise settles.
func await(promise js.Value) (js.Value, error) { return jsutil.Await(promise) }
