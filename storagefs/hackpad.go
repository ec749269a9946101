package storagefs

// This file implements the driver shared by the backends built on
// hackpadfs: the OS directory, memory and IndexedDB.

import (
	"errors"
	"io"
	"io/fs"
	"path"

	"github.com/hack-pad/hackpadfs"
)

// hpDriver keeps segments as files in one directory of a hackpadfs.FS.
type hpDriver struct {
	fs  hackpadfs.FS
	dir string // directory holding the segments, "." for the root

	// classify maps a backend's own errors (DOMExceptions, errnos) onto
	// the sentinels; it returns nil for errors it does not know.
	classify  func(error) error
	spaceFn   func() (Space, error)
	persistFn func() (bool, error)
}

func (d *hpDriver) path(name string) string { return path.Join(d.dir, name) }

// alive reports whether the segment directory still exists.
func (d *hpDriver) alive() bool {
	info, err := hackpadfs.Stat(d.fs, d.dir)
	return err == nil && info.IsDir()
}

// mapErr turns err into a sentinel-wrapped error. A missing file is
// ErrStoreGone when the whole directory vanished, else ErrNotExist.
func (d *hpDriver) mapErr(err error) error {
	if err == nil {
		return nil
	}
	if d.classify != nil {
		if e := d.classify(err); e != nil {
			return e
		}
	}
	if quotaErrno(err) {
		return because(ErrQuotaExceeded, err)
	}
	if errors.Is(err, fs.ErrNotExist) {
		if !d.alive() {
			return because(ErrStoreGone, err)
		}
		return ErrNotExist
	}
	return err
}

func (d *hpDriver) write(name string, data []byte) (err error) {
	p := d.path(name)
	// hackpadfs's IndexedDB ignores FlagExclusive; store's write-once
	// check covers it there, the OS honours it.
	f, err := hackpadfs.OpenFile(d.fs, p, hackpadfs.FlagWriteOnly|hackpadfs.FlagCreate|hackpadfs.FlagExclusive, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return ErrExist
		}
		return d.mapErr(err)
	}
	defer func() {
		if err != nil {
			// Leave no partial segment behind; the write's error is the
			// one worth reporting.
			hackpadfs.Remove(d.fs, p)
		}
	}()
	if len(data) > 0 {
		n, err := hackpadfs.WriteFile(f, data)
		if err == nil && n != len(data) {
			err = io.ErrShortWrite
		}
		if err != nil {
			f.Close()
			return d.mapErr(err)
		}
	}
	return d.mapErr(f.Close())
}

func (d *hpDriver) open(name string) (segmentReader, error) {
	f, err := d.fs.Open(d.path(name))
	if err != nil {
		return nil, d.mapErr(err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, d.mapErr(err)
	}
	if info.IsDir() {
		f.Close()
		return nil, ErrNotExist
	}
	return &hpReader{d: d, f: f, size: info.Size()}, nil
}

type hpReader struct {
	d    *hpDriver
	f    hackpadfs.File
	size int64
}

func (r *hpReader) Size() int64 { return r.size }

func (r *hpReader) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	if err != nil && err != io.EOF {
		err = r.d.mapErr(err)
	}
	return n, err
}

func (r *hpReader) Close() error { return r.d.mapErr(r.f.Close()) }

func (d *hpDriver) remove(name string) error {
	return d.mapErr(hackpadfs.Remove(d.fs, d.path(name)))
}

func (d *hpDriver) list() ([]SegmentInfo, error) {
	entries, err := hackpadfs.ReadDir(d.fs, d.dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, because(ErrStoreGone, err)
		}
		return nil, d.mapErr(err)
	}
	segs := make([]SegmentInfo, 0, len(entries))
	for _, e := range entries {
		if e.IsDir() || !ValidName(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, d.mapErr(err)
		}
		segs = append(segs, SegmentInfo{Name: e.Name(), Size: info.Size()})
	}
	return segs, nil
}

func (d *hpDriver) space() (Space, error) {
	if d.spaceFn == nil {
		return Space{Free: -1, Quota: -1, Used: -1}, nil
	}
	return d.spaceFn()
}

func (d *hpDriver) persist() (bool, error) {
	if d.persistFn == nil {
		return false, nil
	}
	return d.persistFn()
}

func (d *hpDriver) close() error { return nil }
