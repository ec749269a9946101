//go:build !(js && wasm)

package stackyield

// Enabled reports whether Yield does anything here: native goroutine
// stacks grow in memory (up to 1 GB), so they never need yielding.
const Enabled = false

// Yield does nothing natively.
func Yield() {}
