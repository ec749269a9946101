//go:build !linux && !darwin

package main

// peakRSS is unknown on this platform.
func peakRSS() int64 { return 0 }
