//go:build js && wasm

package main

// This file runs a search in generated code on several Workers: each part
// of it (core/explore/genparts.go) is an instance of the model's module in
// a helper Worker of its own, which this Worker's goroutines call through
// postMessage. A helper is worker.js without the Go engine: its first
// message, {genpart: WebAssembly.Module}, makes it instantiate the module
// (compiled once, here) and serve calls, reads and writes of the
// instance's memory. A goroutine waiting for a helper's answer leaves the
// thread to the others, so this Worker only routes the parts' states
// while the helpers expand them, each on a core.

import (
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/locus-mc/locus/core/wasmgen"
	"github.com/locus-mc/locus/core/wasmgen/jsrun"
)

// browserRuntime runs modules in this Worker, and a search's parts in
// helper Workers (wasmgen.PartsRuntime).
type browserRuntime struct {
	jsrun.Runtime
	parts *helperRuntime
}

func (r browserRuntime) Parts() wasmgen.Runtime { return r.parts }

// helperRuntime starts an instance in a helper Worker of its own.
type helperRuntime struct {
	mu       sync.Mutex
	compiled *wasmgen.Module // the module last compiled, and its code
	code     js.Value
	// started are helpers started ahead (prestart), not yet given a
	// module
	started []*helperInstance
}

// prestart starts n helpers now, so that they load while the model
// compiles (a Worker takes 70-230 ms to start here).
func (r *helperRuntime) prestart(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for range n {
		r.started = append(r.started, newHelper())
	}
}

func (*helperRuntime) Name() string { return "browser" }

// Concurrent implements wasmgen.ConcurrentRuntime.
func (*helperRuntime) Concurrent() bool { return true }

// Instantiate starts the helper and posts it the module, without waiting
// for it to load (the first call does): the parts' helpers load at once.
func (r *helperRuntime) Instantiate(m *wasmgen.Module) (in wasmgen.Instance, err error) {
	defer func() {
		if x := recover(); x != nil {
			in, err = nil, fmt.Errorf("%v", x)
		}
	}()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.compiled != m {
		code := js.Global().Get("Uint8Array").New(len(m.Code))
		js.CopyBytesToJS(code, m.Code)
		r.code = js.Global().Get("WebAssembly").Get("Module").New(code)
		r.compiled = m
	}
	code := r.code
	var h *helperInstance
	if k := len(r.started); k > 0 {
		h, r.started = r.started[k-1], r.started[:k-1]
	} else {
		h = newHelper()
	}
	h.sigs = m.Exports
	first := js.Global().Get("Object").New()
	first.Set("genpart", code)
	h.worker.Call("postMessage", first)
	return h, nil
}

// newHelper starts a helper Worker, which waits for its module.
func newHelper() *helperInstance {
	h := &helperInstance{replies: make(chan reply, 4)}
	h.worker = js.Global().Get("Worker").New(js.Global().Get("location").Get("href").String())
	h.onMessage = js.FuncOf(func(_ js.Value, args []js.Value) any {
		data := args[0].Get("data")
		if e := data.Get("error"); e.Truthy() {
			offer(h.replies, reply{v: data, err: errors.New(e.String())})
		} else {
			offer(h.replies, reply{v: data})
		}
		return nil
	})
	h.onError = js.FuncOf(func(_ js.Value, args []js.Value) any {
		// Handled here: not reported again as this Worker's own error.
		args[0].Call("preventDefault")
		offer(h.replies, reply{err: fmt.Errorf("its Worker failed: %s", args[0].Get("message").String())})
		return nil
	})
	h.worker.Set("onmessage", h.onMessage)
	h.worker.Set("onerror", h.onError)
	return h
}

// reply is a helper's answer: the message's data, or what went wrong.
type reply struct {
	v   js.Value
	err error
}

// helperInstance is an instance in a helper Worker. Its calls are made one
// at a time (a part is driven by one goroutine at a time; mu makes sure).
type helperInstance struct {
	mu                 sync.Mutex
	worker             js.Value
	onMessage, onError js.Func
	sigs               map[string]wasmgen.Signature
	replies            chan reply
	loaded             bool
	failed             error // the helper's failure, for every later call
}

// ask posts msg (with the ArrayBuffers in transfer) and waits for the
// answer; it first waits for the helper to load the module.
func (h *helperInstance) ask(msg js.Value, transfer ...any) (js.Value, error) {
	if h.failed != nil {
		return js.Value{}, h.failed
	}
	if !h.loaded {
		if r := <-h.replies; r.err != nil {
			h.failed = fmt.Errorf("the module did not load in a helper Worker: %w", r.err)
			return js.Value{}, h.failed
		}
		h.loaded = true
	}
	h.worker.Call("postMessage", msg, transfer)
	r := <-h.replies
	return r.v, r.err
}

func (h *helperInstance) Call(name string, args ...uint64) (uint64, error) {
	sig, err := jsrun.Lookup(h.sigs, name, len(args))
	if err != nil {
		return 0, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	msg := js.Global().Get("Object").New()
	msg.Set("op", "call")
	msg.Set("name", name)
	msg.Set("args", jsrun.Args(sig, args))
	v, err := h.ask(msg)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return jsrun.Result(sig, v.Get("result"))
}

func (h *helperInstance) Read(addr uint32, b []byte) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	msg := js.Global().Get("Object").New()
	msg.Set("op", "read")
	msg.Set("addr", addr)
	msg.Set("n", len(b))
	v, err := h.ask(msg)
	if err != nil {
		return err
	}
	js.CopyBytesToGo(b, js.Global().Get("Uint8Array").New(v.Get("bytes")))
	return nil
}

// Steps implements wasmgen.Stepper: the steps go in one message, and
// their results and reads come back in one.
func (h *helperInstance) Steps(steps []wasmgen.Step) (int, error) {
	list := make([]any, len(steps))
	var transfer []any
	sigs := make([]wasmgen.Signature, len(steps))
	for i := range steps {
		st := &steps[i]
		sig, err := jsrun.Lookup(h.sigs, st.Name, len(st.Args))
		if err != nil {
			return 0, err
		}
		sigs[i] = sig
		o := js.Global().Get("Object").New()
		o.Set("name", st.Name)
		o.Set("args", jsrun.Args(sig, st.Args))
		if len(st.Write) > 0 {
			buf := bytesToJS(st.Write)
			o.Set("write", buf)
			o.Set("writeAt", st.WriteAt)
			transfer = append(transfer, buf)
		}
		o.Set("readAt", st.ReadAt)
		o.Set("readBytes", st.ReadBytes)
		o.Set("readUnit", st.ReadUnit)
		list[i] = o
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	msg := js.Global().Get("Object").New()
	msg.Set("op", "steps")
	msg.Set("steps", list)
	v, err := h.ask(msg, transfer...)
	if err != nil {
		done := 0
		if v.Type() == js.TypeObject {
			if d := v.Get("done"); d.Type() == js.TypeNumber {
				done = d.Int()
			}
		}
		if done < len(steps) {
			err = fmt.Errorf("%s: %w", steps[done].Name, err)
		}
		return done, err
	}
	results, bytes := v.Get("results"), v.Get("bytes")
	for i := range steps {
		r, err := jsrun.Result(sigs[i], results.Index(i))
		if err != nil {
			return i, err
		}
		steps[i].Result = r
		if b := bytes.Index(i); b.Truthy() {
			steps[i].Bytes = bytesOf(b)
		}
	}
	return len(steps), nil
}

// bytesToJS copies b into a new ArrayBuffer.
func bytesToJS(b []byte) js.Value {
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	return u8.Get("buffer")
}

// Write posts the bytes and does not wait: the helper answers the next
// question with the write's failure, if it failed.
func (h *helperInstance) Write(addr uint32, b []byte) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.failed != nil {
		return h.failed
	}
	buf := bytesToJS(b)
	msg := js.Global().Get("Object").New()
	msg.Set("op", "write")
	msg.Set("addr", addr)
	msg.Set("bytes", buf)
	h.worker.Call("postMessage", msg, []any{buf})
	return nil
}

// Close ends the helper, and with it the instance's memory.
func (h *helperInstance) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.worker.Call("terminate")
	if h.failed == nil {
		h.failed = errors.New("the instance is closed")
	}
	// The handlers stay: a message already queued for them may still
	// come, and finds a function to call.
}
