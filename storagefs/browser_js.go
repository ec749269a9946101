//go:build js && wasm

package storagefs

import "errors"

// OpenBrowser returns the fastest store this browser context offers under
// name: OPFS in a dedicated Worker that has sync access handles, else
// IndexedDB (the database of that name). Kind tells which it chose.
func OpenBrowser(name string, opts Options) (FS, error) {
	fs, err := NewOPFS(name, opts)
	if err == nil || !errors.Is(err, ErrUnavailable) {
		return fs, err
	}
	return NewIndexedDB(name, opts)
}
