//go:build unix

package runkit

import (
	"syscall"
	"time"
)

// UserTime returns the user CPU time this process has used.
func UserTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Sec)*time.Second + time.Duration(ru.Utime.Usec)*time.Microsecond
}
