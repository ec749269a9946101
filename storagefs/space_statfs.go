//go:build linux || darwin || freebsd

package storagefs

import "syscall"

// statfs reports the free space of the file system holding dir.
func statfs(dir string) (Space, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return Space{Free: -1, Quota: -1, Used: -1}, nil
	}
	bs := uint64(st.Bsize)
	total := uint64(st.Blocks) * bs
	free := uint64(st.Bavail) * bs
	used := total - uint64(st.Bfree)*bs
	return Space{Free: int64(free), Quota: int64(total), Used: int64(used)}, nil
}
