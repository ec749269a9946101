//go:build js && wasm

package main

// This file runs modules generated for a model (core/wasmgen) in the
// browser's own WebAssembly engine: verify.Check gets this runtime, so a
// one-worker bfs runs in the generated module where the generator covers
// the model and the options (and on the closures, with a note, where it
// does not). The browser compiles the generated code to machine code; it
// ran mcslock1 3.4-3.5x faster than the closures in Go's wasm output
// (issue 8). The page's {module, codegen: 'off'} message turns it off
// (public/worker.js sets self.locusCodegen), to measure the closures.

import (
	"fmt"
	"strconv"
	"syscall/js"

	"github.com/locus-mc/locus/core/wasmgen"
)

// codegenRuntime gives the browser's runtime, or nil where the page asked
// for the closures. The switch rides on the page's first message, not on
// the Worker's URL: a Worker whose script the service worker serves from
// its cache gets the cached URL, without the query.
func codegenRuntime() wasmgen.Runtime {
	if js.Global().Get("locusCodegen").String() == "off" {
		return nil
	}
	return browserRuntime{}
}

// browserRuntime instantiates generated modules with WebAssembly.Module
// and WebAssembly.Instance (synchronous compilation is allowed in a
// Worker).
type browserRuntime struct{}

func (browserRuntime) Name() string { return "browser" }

func (browserRuntime) Instantiate(m *wasmgen.Module) (in wasmgen.Instance, err error) {
	defer func() {
		if x := recover(); x != nil {
			in, err = nil, fmt.Errorf("%v", x)
		}
	}()
	code := js.Global().Get("Uint8Array").New(len(m.Code))
	js.CopyBytesToJS(code, m.Code)
	wa := js.Global().Get("WebAssembly")
	mod := wa.Get("Module").New(code)
	inst := wa.Get("Instance").New(mod, js.Global().Get("Object").New())
	ex := inst.Get("exports")
	return &browserInstance{exports: ex, memory: ex.Get("memory"), sigs: m.Exports}, nil
}

type browserInstance struct {
	exports, memory js.Value
	sigs            map[string]wasmgen.Signature
}

// Call converts the arguments to what the signature asks (an i64 is a
// BigInt), calls the export and converts its result back; a trap (a
// JavaScript exception) is an error.
func (b *browserInstance) Call(name string, args ...uint64) (res uint64, err error) {
	sig, ok := b.sigs[name]
	if !ok || len(sig.Params) != len(args) {
		return 0, fmt.Errorf("wasmgen: no function %s of %d parameters", name, len(args))
	}
	defer func() {
		if x := recover(); x != nil {
			res, err = 0, fmt.Errorf("%s: %v", name, x)
		}
	}()
	bigInt := js.Global().Get("BigInt")
	in := make([]any, len(args))
	for i, a := range args {
		if sig.Params[i] {
			in[i] = bigInt.Invoke(strconv.FormatUint(a, 10))
		} else {
			in[i] = int32(uint32(a))
		}
	}
	v := b.exports.Call(name, in...)
	switch {
	case sig.Results == 0:
		return 0, nil
	case sig.Result64:
		s := bigInt.Call("asUintN", 64, v).Call("toString").String()
		return strconv.ParseUint(s, 10, 64)
	}
	return uint64(uint32(v.Int())), nil
}

func (b *browserInstance) view(addr uint32, n int) (js.Value, error) {
	buf := b.memory.Get("buffer") // a new one after every memory.grow
	if int64(addr)+int64(n) > int64(buf.Get("byteLength").Int()) {
		return js.Value{}, fmt.Errorf("wasmgen: %d bytes at %d are out of memory", n, addr)
	}
	return js.Global().Get("Uint8Array").New(buf, addr, n), nil
}

func (b *browserInstance) Read(addr uint32, p []byte) error {
	v, err := b.view(addr, len(p))
	if err == nil {
		js.CopyBytesToGo(p, v)
	}
	return err
}

func (b *browserInstance) Write(addr uint32, p []byte) error {
	v, err := b.view(addr, len(p))
	if err == nil {
		js.CopyBytesToJS(v, p)
	}
	return err
}

// Close drops the instance, so the browser may free its memory (up to the
// budget) before the closures run a search the module could not finish.
func (b *browserInstance) Close() {
	b.exports, b.memory = js.Undefined(), js.Undefined()
}
