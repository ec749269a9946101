//go:build js && wasm

package compile

import "runtime"

// yieldLevels is how many levels of nested calls run between two yields of
// the stack. Go on js/wasm runs on the engine's own call stack, which is
// small in a browser's Web Worker (a few thousand levels of compiled code
// in Chromium; measured in web/test/app-hostile.test.mjs), but it unwinds
// that stack whenever a goroutine is rescheduled: only the frames entered
// since then stay on it, the rest live in Go's own stack in linear memory.
const yieldLevels = 256

// yieldStack lets the scheduler run, which empties the engine's call stack.
func yieldStack() { runtime.Gosched() }
