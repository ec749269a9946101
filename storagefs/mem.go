package storagefs

// This file implements the in-memory backend used by tests.

import (
	"github.com/hack-pad/hackpadfs"
	"github.com/hack-pad/hackpadfs/mem"
)

// memDir is the directory of the memory store's segments; tests remove it
// to simulate a store deleted under its user.
const memDir = "segments"

// NewMemory returns an empty store held in memory. Its data is not
// persisted and its space is unknown unless opts.MaxBytes caps it.
func NewMemory(opts Options) FS {
	m, err := mem.NewFS()
	if err == nil {
		err = hackpadfs.Mkdir(m, memDir, 0o700)
	}
	if err != nil {
		// mem.NewFS and Mkdir on a fresh FS cannot fail.
		panic("storagefs: memory store: " + err.Error())
	}
	s, err := newStore("memory", &hpDriver{fs: m, dir: memDir}, opts)
	if err != nil {
		panic("storagefs: memory store: " + err.Error())
	}
	return s
}
