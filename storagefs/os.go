package storagefs

// This file implements the native backend: a directory of files.

import (
	"os"
	"path/filepath"

	hpos "github.com/hack-pad/hackpadfs/os"
)

// NewOS returns a store keeping segments as files in dir, which is created
// if missing.
func NewOS(dir string, opts Options) (FS, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, &Error{Op: "open", Kind: "os", Name: dir, Err: err}
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, &Error{Op: "open", Kind: "os", Name: dir, Err: err}
	}
	root := hpos.NewFS()
	rel, err := root.FromOSPath(abs)
	if err != nil {
		return nil, &Error{Op: "open", Kind: "os", Name: dir, Err: err}
	}
	sub, err := root.Sub(rel)
	if err != nil {
		return nil, &Error{Op: "open", Kind: "os", Name: dir, Err: err}
	}
	d := &osDriver{hpDriver{
		fs:        sub,
		dir:       ".",
		spaceFn:   func() (Space, error) { return statfs(abs) },
		persistFn: func() (bool, error) { return true, nil },
	}, abs}
	return newStore("os", d, opts)
}

// osDriver is the hackpadfs driver plus flushing to the device.
type osDriver struct {
	hpDriver
	abs string
}

// sync flushes the named files, then the directory (which records their
// names), to the device.
func (d *osDriver) sync(names []string) error {
	for _, n := range names {
		f, err := os.Open(filepath.Join(d.abs, n))
		if err != nil {
			if os.IsNotExist(err) {
				continue // removed since
			}
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	dir, err := os.Open(d.abs)
	if err != nil {
		return err
	}
	defer dir.Close()
	return dir.Sync()
}
