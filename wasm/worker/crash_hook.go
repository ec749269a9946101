//go:build js && wasm && locustestcrash

package main

import (
	"strings"
	"unsafe"
)

// The model's text asks for a crash with a line "-- crash: KIND".
func init() {
	testCrash = func(source string) {
		_, kind, ok := strings.Cut(source, "-- crash: ")
		if !ok {
			return
		}
		kind, _, _ = strings.Cut(kind, "\n")
		switch kind {
		case "recursion": // exhausts the engine's call stack: a RangeError
			var f func(int) int
			f = func(n int) int { return f(n+1) + n }
			f(0)
		case "trap": // a WebAssembly trap: memory access out of bounds
			var x int64
			p := (*int64)(unsafe.Add(unsafe.Pointer(&x), 3<<30))
			println(*p)
		case "panic": // in the engine's own goroutine: recovered
			panic("a test panic")
		case "goroutine": // elsewhere: the Go runtime exits
			go func() { panic("a test panic in a goroutine") }()
			select {}
		}
	}
}
