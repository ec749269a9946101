//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package main

import "os"

// Without flock the lock is only the file's existence: sweepSpills then
// never judges another run dead and removes nothing.

func lockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
}

func tryLockFile(string) (*os.File, bool) { return nil, false }

func unlockFile(f *os.File) { f.Close() }
