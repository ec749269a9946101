//go:build js && wasm

// Package jsutil holds the few helpers every js/wasm part of Locus (the
// page, the engine Worker, the browser storage backends) needs.
package jsutil

import "syscall/js"

// Rejection is the error Await returns when the promise is rejected.
type Rejection struct {
	Reason js.Value // what the promise was rejected with
}

func (r *Rejection) Error() string {
	switch r.Reason.Type() {
	case js.TypeObject, js.TypeFunction:
		return r.Reason.Call("toString").String()
	case js.TypeUndefined, js.TypeNull:
		return "promise rejected"
	}
	return r.Reason.String()
}

// Await blocks the calling goroutine until promise p settles. It must not be
// called from a JavaScript callback (js.FuncOf): the callbacks below only
// send on a buffered channel, and the goroutine waiting here lets the event
// loop run them.
func Await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	arg := func(args []js.Value) js.Value {
		if len(args) == 0 {
			return js.Undefined()
		}
		return args[0]
	}
	then := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: arg(args)}
		return nil
	})
	catch := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{err: &Rejection{Reason: arg(args)}}
		return nil
	})
	defer then.Release()
	defer catch.Release()
	p.Call("then", then, catch)
	r := <-ch
	return r.v, r.err
}
