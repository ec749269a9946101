package main

import (
	"os"

	"github.com/locus-mc/locus/storagefs"
)

// diskFS returns where the engine spills its queue when the queue's share of
// the memory budget is full: a fresh directory inside dir (or the system
// temporary directory), removed again by cleanup.
func diskFS(dir string) (storagefs.FS, func(), error) {
	tmp, err := os.MkdirTemp(dir, "locus-")
	if err != nil {
		return nil, nil, err
	}
	fsys, err := storagefs.NewOS(tmp, storagefs.Options{})
	if err != nil {
		os.RemoveAll(tmp)
		return nil, nil, err
	}
	return fsys, func() {
		fsys.Close()
		os.RemoveAll(tmp)
	}, nil
}
