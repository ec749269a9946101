//go:build js && wasm

package storagefs

// This file implements the IndexedDB backend over hackpadfs/indexeddb.

import (
	"context"
	"syscall/js"

	"github.com/hack-pad/go-indexeddb/idb"
	"github.com/hack-pad/hackpadfs"
	"github.com/hack-pad/hackpadfs/indexeddb"
)

// idbDir is the directory of segments inside the database.
const idbDir = "segments"

// NewIndexedDB returns a store in the IndexedDB database called name,
// created if missing. It fails with ErrUnavailable where there is no
// IndexedDB. hackpadfs cannot close its connection: it stays open until the
// Worker ends or the database is deleted.
func NewIndexedDB(name string, opts Options) (FS, error) {
	fail := func(err error) error { return &Error{Op: "open", Kind: "indexeddb", Name: name, Err: err} }
	if js.Global().Get("indexedDB").Type() != js.TypeObject {
		return nil, fail(ErrUnavailable)
	}
	fs, err := indexeddb.NewFS(context.Background(), name, indexeddb.Options{
		// Spill data is rebuilt by rerunning, so durability buys nothing.
		TransactionDurability: idb.DurabilityRelaxed,
	})
	if err != nil {
		return nil, fail(classifyIDBOr(err))
	}
	if err := hackpadfs.MkdirAll(fs, idbDir, 0o700); err != nil {
		return nil, fail(classifyIDBOr(err))
	}
	d := &hpDriver{
		fs:        fs,
		dir:       idbDir,
		classify:  classifyIDB,
		spaceFn:   browserSpace,
		persistFn: browserPersist,
	}
	return newStore("indexeddb", d, opts)
}

// classifyIDB maps IndexedDB exceptions: a full quota, and a connection
// closed because the database was deleted (or site data cleared).
func classifyIDB(err error) error {
	switch jsErrorName(err) {
	case "QuotaExceededError":
		return because(ErrQuotaExceeded, err)
	case "InvalidStateError":
		return because(ErrStoreGone, err)
	}
	return nil
}

func classifyIDBOr(err error) error {
	if e := classifyIDB(err); e != nil {
		return e
	}
	return err
}
