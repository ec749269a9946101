//go:build js && wasm

// Package stackyield lets deep recursion run under js/wasm, where Go runs
// on the WebAssembly engine's own call stack: small in a browser's Web
// Worker (Chromium's holds about 1800 calls of a simple recursive Murphi
// function, some 10,000 Go frames; measured with a probe in a Worker), and
// exhausting it kills the Worker with a RangeError. Go unwinds that stack
// whenever a goroutine is rescheduled: only the frames entered since then
// stay on it, the rest live in Go's own stack in linear memory. Code that
// recurses deeply calls Yield every so often; natively it does nothing.
package stackyield

import "runtime"

// Enabled reports whether Yield does anything here.
const Enabled = true

// Yield empties the engine's call stack by letting the scheduler run.
func Yield() { runtime.Gosched() }
