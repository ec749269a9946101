//go:build js && wasm

package storagefs

// This file holds the JavaScript plumbing shared by the browser backends:
// awaiting promises, turning exceptions into errors, and the origin-wide
// StorageManager (navigator.storage).

import (
	"errors"
	"syscall/js"

	"github.com/hack-pad/go-indexeddb/idb"

	"github.com/locus-mc/locus/internal/jsutil"
)

// domError is a JavaScript exception (usually a DOMException) as an error.
type domError struct {
	name, message string
}

func (e *domError) Error() string {
	if e.message == "" {
		return e.name
	}
	return e.name + ": " + e.message
}

// jsError converts a thrown or rejected JavaScript value.
func jsError(v js.Value) error {
	if v.Type() != js.TypeObject {
		return &domError{name: "Error", message: v.String()}
	}
	name, msg := v.Get("name"), v.Get("message")
	e := &domError{name: "Error"}
	if name.Type() == js.TypeString {
		e.name = name.String()
	}
	if msg.Type() == js.TypeString {
		e.message = msg.String()
	}
	return e
}

// jsErrorNames are the exception names the backends tell apart.
var jsErrorNames = []string{
	"QuotaExceededError", "InvalidStateError", "NotFoundError",
	"NoModificationAllowedError", "SecurityError", "AbortError", "UnknownError",
}

// jsErrorName returns the exception name inside err, or "".
func jsErrorName(err error) string {
	var de *domError
	if errors.As(err, &de) {
		return de.name
	}
	var je js.Error
	if errors.As(err, &je) && je.Value.Type() == js.TypeObject {
		if n := je.Value.Get("name"); n.Type() == js.TypeString {
			return n.String()
		}
	}
	for _, n := range jsErrorNames {
		if errors.Is(err, idb.NewDOMException(n)) {
			return n
		}
	}
	return ""
}

// call calls v[method](args...), returning a thrown exception as an error.
func call(v js.Value, method string, args ...any) (js.Value, error) {
	return catchJS(func() js.Value { return v.Call(method, args...) })
}

// catchJS runs f, returning an exception it throws as an error.
func catchJS(f func() js.Value) (v js.Value, err error) {
	defer func() {
		if x := recover(); x != nil {
			je, ok := x.(js.Error)
			if !ok {
				panic(x)
			}
			err = jsError(je.Value)
		}
	}()
	return f(), nil
}

// await blocks the calling goroutine until promise p settles, turning a
// rejection into a storage error.
func await(p js.Value) (js.Value, error) {
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		return js.Undefined(), jsError(p)
	}
	v, err := jsutil.Await(p)
	var rej *jsutil.Rejection
	if errors.As(err, &rej) {
		return v, jsError(rej.Reason)
	}
	return v, err
}

// callAwait calls a promise-returning method and awaits its result.
func callAwait(v js.Value, method string, args ...any) (js.Value, error) {
	p, err := call(v, method, args...)
	if err != nil {
		return p, err
	}
	return await(p)
}

// storageManager returns navigator.storage, if this context has one.
func storageManager() (js.Value, bool) {
	nav := js.Global().Get("navigator")
	if nav.Type() != js.TypeObject {
		return js.Undefined(), false
	}
	sm := nav.Get("storage")
	return sm, sm.Type() == js.TypeObject
}

// browserSpace asks navigator.storage.estimate() for the origin's quota
// and usage; where there is no StorageManager (Node) the space is unknown.
func browserSpace() (Space, error) {
	unknown := Space{Free: -1, Quota: -1, Used: -1}
	sm, ok := storageManager()
	if !ok || sm.Get("estimate").Type() != js.TypeFunction {
		return unknown, nil
	}
	est, err := callAwait(sm, "estimate")
	if err != nil {
		return unknown, err
	}
	q, u := est.Get("quota"), est.Get("usage")
	if q.Type() != js.TypeNumber || u.Type() != js.TypeNumber {
		return unknown, nil
	}
	sp := Space{Quota: int64(q.Float()), Used: int64(u.Float())}
	sp.Free = sp.Quota - sp.Used
	if sp.Free < 0 {
		sp.Free = 0
	}
	return sp, nil
}

// browserPersist calls navigator.storage.persist() where it exists (the
// page; it is not exposed to Workers) and otherwise reports persisted().
func browserPersist() (bool, error) {
	sm, ok := storageManager()
	if !ok {
		return false, nil
	}
	method := "persist"
	if sm.Get(method).Type() != js.TypeFunction {
		method = "persisted"
		if sm.Get(method).Type() != js.TypeFunction {
			return false, nil
		}
	}
	v, err := callAwait(sm, method)
	if err != nil {
		return false, err
	}
	return v.Truthy(), nil
}
