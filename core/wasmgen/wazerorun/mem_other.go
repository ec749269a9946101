//go:build !js && !unix

package wazerorun

import "github.com/tetratelabs/wazero/experimental"

func allocate(capacity, max uint64) experimental.LinearMemory {
	return &sliceMemory{buf: make([]byte, 0, capacity), max: max}
}

// reserved reports whether m is a reserved mapping: never here.
func reserved(experimental.LinearMemory) bool { return false }
