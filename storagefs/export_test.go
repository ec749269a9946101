package storagefs

import "github.com/hack-pad/hackpadfs"

// VanishMemory deletes a memory store's segment directory behind its back.
func VanishMemory(fs FS) error {
	return hackpadfs.RemoveAll(fs.(*store).d.(*hpDriver).fs, memDir)
}
