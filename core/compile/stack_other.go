//go:build !(js && wasm)

package compile

import "math"

// yieldLevels: native goroutine stacks grow in memory (up to 1 GB), so
// calls never need to yield them.
const yieldLevels = math.MaxInt

func yieldStack() {}
