//go:build linux || darwin || freebsd || netbsd || openbsd

package main

import (
	"os"
	"path/filepath"
	"syscall"
)

// lockFile creates the file path and holds an exclusive lock on it until
// unlockFile (or the process's death). The file is locked under a name
// sweepSpills ignores and only then renamed into place, so no sweeping run
// can ever find it unlocked.
func lockFile(path string) (*os.File, error) {
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".new")
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, err
	}
	return f, nil
}

// tryLockFile locks an existing file if no process holds it.
func tryLockFile(path string) (*os.File, bool) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, false
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		f.Close()
		return nil, false
	}
	return f, true
}

func unlockFile(f *os.File) { f.Close() }
