//go:build linux

package nativerun

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// newShare makes the memory a program shares with its host: a memory
// file (memfd) of shareBytes, sparse until written, mapped here; the
// program gets the file.
func newShare() (*os.File, []byte, error) {
	fd, err := unix.MemfdCreate("locus-share", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, nil, err
	}
	f := os.NewFile(uintptr(fd), "locus-share")
	if err := f.Truncate(shareBytes); err != nil {
		f.Close()
		return nil, nil, err
	}
	b, err := syscall.Mmap(fd, 0, shareBytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, b, nil
}
