//go:build !linux

package main

// physicalMemory is unknown on this platform.
func physicalMemory() int64 { return 0 }
