//go:build !unix

package runkit

import "time"

var start = time.Now()

// UserTime returns the time since the process started (no CPU clock here).
func UserTime() time.Duration { return time.Since(start) }
