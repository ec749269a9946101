//go:build js && wasm

package storagefs

import (
	"errors"
	"io/fs"
	"strings"
	"syscall/js"
	"testing"

	"github.com/hack-pad/go-indexeddb/idb"
)

// TestClassifyIDB maps real DOMExceptions, in the three shapes they reach
// us (converted by us, by go-indexeddb, or as a raw js.Error).
func TestClassifyIDB(t *testing.T) {
	dom := func(name string) js.Value {
		return js.Global().Get("DOMException").New("test message", name)
	}
	tests := []struct {
		name string
		err  error
		want error // nil: not classified
	}{
		{"converted quota", jsError(dom("QuotaExceededError")), ErrQuotaExceeded},
		{"go-indexeddb quota", &fs.PathError{Op: "write", Path: "x", Err: idb.NewDOMException("QuotaExceededError")}, ErrQuotaExceeded},
		{"raw js.Error quota", js.Error{Value: dom("QuotaExceededError")}, ErrQuotaExceeded},
		{"closed connection", jsError(dom("InvalidStateError")), ErrStoreGone},
		{"go-indexeddb closed connection", idb.NewDOMException("InvalidStateError"), ErrStoreGone},
		{"abort", jsError(dom("AbortError")), nil},
		{"go error", errors.New("plain"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := classifyIDB(tt.err)
			if tt.want == nil {
				if got != nil {
					t.Fatalf("classifyIDB(%v) = %v, want nil", tt.err, got)
				}
				return
			}
			// js.Error is not comparable, so the cause shows in the text.
			if !errors.Is(got, tt.want) || !strings.Contains(got.Error(), tt.err.Error()) {
				t.Fatalf("classifyIDB(%v) = %v, want %v wrapping the cause", tt.err, got, tt.want)
			}
		})
	}
}

func TestAwaitRejection(t *testing.T) {
	p := js.Global().Get("Promise").Call("reject", js.Global().Get("DOMException").New("no room", "QuotaExceededError"))
	_, err := await(p)
	if jsErrorName(err) != "QuotaExceededError" || err.Error() != "QuotaExceededError: no room" {
		t.Fatalf("await(rejected) = %v (name %q)", err, jsErrorName(err))
	}
	v, err := await(js.Global().Get("Promise").Call("resolve", 42))
	if err != nil || v.Int() != 42 {
		t.Fatalf("await(resolved 42) = %v, %v", v, err)
	}
}
