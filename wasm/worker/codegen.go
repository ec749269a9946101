//go:build js && wasm

package main

// This file runs modules generated for a model (core/wasmgen) in the
// browser's own WebAssembly engine: verify.Check gets this runtime, so bfs
// and auto run in the generated module where the generator covers the
// model and the options (and on the closures, with a note, where it does
// not), on several Workers where asked (genparts.go). The browser compiles the generated code to machine code; it
// ran mcslock1 3.4-3.5x faster than the closures in Go's wasm output
// (issue 8). The page's {module, codegen: 'off'} message turns it off
// (public/worker.js sets self.locusCodegen), to measure the closures.

import (
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
	return browserRuntime{parts: &helperRuntime{}}
}
