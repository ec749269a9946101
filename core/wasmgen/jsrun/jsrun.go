//go:build js && wasm

// Package jsrun runs modules generated for a model (core/wasmgen) in the
// JavaScript host's own WebAssembly engine: the browser's (a Worker runs
// the search in it) or Node's (where the tests run it).
package jsrun

import (
	"fmt"
	"strconv"
	"syscall/js"

	"github.com/locus-mc/locus/core/wasmgen"
)

// Runtime instantiates generated modules with WebAssembly.Module and
// WebAssembly.Instance (synchronous compilation is allowed in a Worker and
// in Node).
type Runtime struct{}

func (Runtime) Name() string { return "browser" }

func (Runtime) Instantiate(m *wasmgen.Module) (in wasmgen.Instance, err error) {
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
	return &instance{exports: ex, memory: ex.Get("memory"), sigs: m.Exports}, nil
}

type instance struct {
	exports, memory js.Value
	sigs            map[string]wasmgen.Signature
}

// Call converts the arguments to what the signature asks, calls the
// export and converts its result back; a trap (a JavaScript exception) is
// an error.
func (b *instance) Call(name string, args ...uint64) (res uint64, err error) {
	sig, err := Lookup(b.sigs, name, len(args))
	if err != nil {
		return 0, err
	}
	defer func() {
		if x := recover(); x != nil {
			res, err = 0, fmt.Errorf("%s: %v", name, x)
		}
	}()
	return Result(sig, b.exports.Call(name, Args(sig, args)...))
}

// Lookup gives the signature of the export name, which a call passes
// args arguments.
func Lookup(sigs map[string]wasmgen.Signature, name string, args int) (wasmgen.Signature, error) {
	sig, ok := sigs[name]
	if !ok || len(sig.Params) != args {
		return sig, fmt.Errorf("wasmgen: no function %s of %d parameters", name, args)
	}
	return sig, nil
}

// Args converts a call's arguments to the JavaScript values sig asks for:
// an i64 is a BigInt, an i32 a number.
func Args(sig wasmgen.Signature, args []uint64) []any {
	bigInt := js.Global().Get("BigInt")
	in := make([]any, len(args))
	for i, a := range args {
		if sig.Params[i] {
			in[i] = bigInt.Invoke(strconv.FormatUint(a, 10))
		} else {
			in[i] = int32(uint32(a))
		}
	}
	return in
}

// Result converts what a call of sig returned (0 if it returns nothing).
func Result(sig wasmgen.Signature, v js.Value) (uint64, error) {
	switch {
	case sig.Results == 0:
		return 0, nil
	case sig.Result64:
		// String(x), not x.toString(): a BigInt is a primitive, and
		// syscall/js calls methods on objects only.
		bigInt := js.Global().Get("BigInt")
		s := js.Global().Get("String").Invoke(bigInt.Call("asUintN", 64, v)).String()
		return strconv.ParseUint(s, 10, 64)
	}
	return uint64(uint32(v.Int())), nil
}

func (b *instance) view(addr uint32, n int) (js.Value, error) {
	buf := b.memory.Get("buffer") // a new one after every memory.grow
	if int64(addr)+int64(n) > int64(buf.Get("byteLength").Int()) {
		return js.Value{}, fmt.Errorf("wasmgen: %d bytes at %d are out of memory", n, addr)
	}
	return js.Global().Get("Uint8Array").New(buf, addr, n), nil
}

func (b *instance) Read(addr uint32, p []byte) error {
	v, err := b.view(addr, len(p))
	if err == nil {
		js.CopyBytesToGo(p, v)
	}
	return err
}

func (b *instance) Write(addr uint32, p []byte) error {
	v, err := b.view(addr, len(p))
	if err == nil {
		js.CopyBytesToJS(v, p)
	}
	return err
}

// Close drops the instance, so the browser may free its memory (up to the
// budget) before the closures run a search the module could not finish.
func (b *instance) Close() {
	b.exports, b.memory = js.Undefined(), js.Undefined()
}
