//go:build js && wasm

// This file chooses the browser storage an engine may spill its queue to.

package main

import (
	"syscall/js"

	"github.com/locus-mc/locus/storagefs"
	"github.com/locus-mc/locus/wasm/protocol"
)

// storageFS returns the file system for engine disk data. The storagefs
// package on this branch defines only the FS seam and no browser backend,
// so there is none to open: runs keep their queue in memory and a budget
// too small for it ends the run as incomplete.
func storageFS() storagefs.FS {
	return nil
}

// storageKind names the storage storageFS opens, for the ready message.
func storageKind() string {
	if storageFS() == nil {
		return protocol.StorageNone
	}
	if js.Global().Get("navigator").Get("storage").Get("getDirectory").Type() == js.TypeFunction {
		return protocol.StorageOPFS
	}
	return protocol.StorageIndexedDB
}

// persistStorage asks the browser not to evict the origin's storage during
// a disk-backed run. The answer arrives asynchronously and is not needed:
// without it the run still works, with eviction possible under pressure.
func persistStorage() {
	storage := js.Global().Get("navigator").Get("storage")
	if storage.Get("persist").Type() == js.TypeFunction {
		storage.Call("persist")
	}
}
