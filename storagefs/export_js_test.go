//go:build js && wasm

package storagefs

import "syscall/js"

// VanishIndexedDB deletes the database name as another tab (or a user
// clearing site data) would; open connections get a versionchange event.
func VanishIndexedDB(name string) error {
	req, err := call(js.Global().Get("indexedDB"), "deleteDatabase", name)
	if err != nil {
		return err
	}
	p := js.Global().Get("Promise").New(js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		req.Set("onsuccess", js.FuncOf(func(js.Value, []js.Value) any { resolve.Invoke(); return nil }))
		req.Set("onerror", js.FuncOf(func(js.Value, []js.Value) any { reject.Invoke(req.Get("error")); return nil }))
		return nil
	}))
	_, err = await(p)
	return err
}

// VanishOPFS deletes the OPFS directory name and everything in it.
func VanishOPFS(name string) error {
	sm, _ := storageManager()
	root, err := callAwait(sm, "getDirectory")
	if err != nil {
		return err
	}
	opts := js.Global().Get("Object").New()
	opts.Set("recursive", true)
	_, err = callAwait(root, "removeEntry", name, opts)
	return err
}
