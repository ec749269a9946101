//go:build js && wasm

package storagefs

// This file opens the IndexedDB backend (idbwb_js.go) and maps its errors.

import "syscall/js"

// NewIndexedDB returns a store in the IndexedDB database called name,
// created if missing. It fails with ErrUnavailable where there is no
// IndexedDB. Writes are committed in batches behind the caller (see
// idbwb_js.go): Sync waits for them, and Close commits them and closes the
// connection.
func NewIndexedDB(name string, opts Options) (FS, error) {
	fail := func(err error) error { return &Error{Op: "open", Kind: "indexeddb", Name: name, Err: err} }
	if js.Global().Get("indexedDB").Type() != js.TypeObject {
		return nil, fail(ErrUnavailable)
	}
	d, err := openIDBWriteBehind(name)
	if err != nil {
		return nil, fail(err)
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
