//go:build windows

package storagefs

import (
	"errors"
	"syscall"
)

// quotaErrno reports whether err is a full disk.
func quotaErrno(err error) bool {
	return errors.Is(err, syscall.ENOSPC)
}
