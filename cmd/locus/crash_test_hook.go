//go:build locustestcrash

package main

import (
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"
)

func init() {
	killAfter = 2 * time.Second
	testCrash = func() {
		switch os.Getenv("LOCUS_TEST_CRASH") {
		case "panic": // in the main goroutine, outside the engine's recover
			panic("a test panic")
		case "goroutine": // in another goroutine: nothing can recover it
			go func() { panic("a test panic in a goroutine") }()
			time.Sleep(time.Minute)
		case "fatal": // a runtime fatal error: concurrent map writes
			m := map[int]int{}
			for i := 0; i < 4; i++ {
				go func() {
					for j := 0; ; j++ {
						m[j%64] = j
					}
				}()
			}
			time.Sleep(time.Minute)
		case "stack": // a Go stack overflow
			debug.SetMaxStack(16 << 20) // reach it soon
			var f func(int) int
			f = func(n int) int { return f(n+1) + 1 }
			f(0)
		case "exit": // an abrupt exit with the code of a rejection
			os.Exit(2)
		case "hang": // ignores signals and never ends
			signal.Ignore(os.Interrupt, syscall.SIGTERM)
			time.Sleep(time.Hour)
		}
	}
}
