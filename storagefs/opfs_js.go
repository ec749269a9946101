//go:build js && wasm

package storagefs

// This file implements the OPFS backend: the origin private file system
// through FileSystemSyncAccessHandle, which only dedicated Workers have.
// Sync handles read and write without a promise per call; measured from Go
// with 1 MiB chunks they wrote at 184 MiB/s and read at 571 MiB/s, against
// 7/17 MiB/s with 4 KiB chunks, so data crosses into JavaScript in large
// pieces through one reused Uint8Array.

import (
	"io"
	"sync"
	"syscall/js"
)

// opfsChunk is the most bytes copied across the Go/JavaScript boundary at
// once; it bounds the scratch array.
const opfsChunk = 4 << 20

// OPFSAvailable reports whether this context has OPFS sync access handles,
// that is, whether it is a dedicated Worker of a browser that has them.
func OPFSAvailable() bool {
	fh := js.Global().Get("FileSystemFileHandle")
	if fh.Type() != js.TypeFunction {
		return false
	}
	if fh.Get("prototype").Get("createSyncAccessHandle").Type() != js.TypeFunction {
		return false
	}
	sm, ok := storageManager()
	return ok && sm.Get("getDirectory").Type() == js.TypeFunction
}

// NewOPFS returns a store in the OPFS directory called name (a valid
// segment name), created if missing. It fails with ErrUnavailable outside
// a dedicated Worker or where the browser refuses OPFS.
func NewOPFS(name string, opts Options) (FS, error) {
	fail := func(err error) error { return &Error{Op: "open", Kind: "opfs", Name: name, Err: err} }
	if !ValidName(name) {
		return nil, fail(ErrInvalidName)
	}
	if !OPFSAvailable() {
		return nil, fail(ErrUnavailable)
	}
	sm, _ := storageManager()
	root, err := callAwait(sm, "getDirectory")
	if err != nil {
		return nil, fail(because(ErrUnavailable, err))
	}
	d := &opfsDriver{root: root, name: name}
	if d.dir, err = callAwait(root, "getDirectoryHandle", name, createOpt(true)); err != nil {
		return nil, fail(d.mapErr(err))
	}
	return newStore("opfs", d, opts)
}

type opfsDriver struct {
	mu      sync.Mutex // guards scratch
	root    js.Value   // the origin's OPFS root
	dir     js.Value   // the store's directory
	name    string
	scratch js.Value // Uint8Array reused for transfers
}

func createOpt(create bool) js.Value {
	o := js.Global().Get("Object").New()
	o.Set("create", create)
	return o
}

func atOpt(off int64) js.Value {
	o := js.Global().Get("Object").New()
	o.Set("at", float64(off))
	return o
}

// buffer returns a view of n bytes of the scratch array, growing it.
func (d *opfsDriver) buffer(n int) js.Value {
	if d.scratch.IsUndefined() || d.scratch.Get("length").Int() < n {
		size := 1 << 20
		for size < n {
			size *= 2
		}
		d.scratch = js.Global().Get("Uint8Array").New(size)
	}
	return d.scratch.Call("subarray", 0, n)
}

// alive reports whether the store's directory still exists.
func (d *opfsDriver) alive() bool {
	_, err := callAwait(d.root, "getDirectoryHandle", d.name, createOpt(false))
	return err == nil
}

func (d *opfsDriver) mapErr(err error) error {
	if err == nil {
		return nil
	}
	switch jsErrorName(err) {
	case "QuotaExceededError":
		return because(ErrQuotaExceeded, err)
	case "NotFoundError", "InvalidStateError":
		if !d.alive() {
			return because(ErrStoreGone, err)
		}
		if jsErrorName(err) == "NotFoundError" {
			return ErrNotExist
		}
	}
	return err
}

func (d *opfsDriver) write(name string, data []byte) (err error) {
	fh, err := callAwait(d.dir, "getFileHandle", name, createOpt(true))
	if err != nil {
		return d.mapErr(err)
	}
	defer func() {
		if err != nil {
			callAwait(d.dir, "removeEntry", name)
		}
	}()
	h, err := callAwait(fh, "createSyncAccessHandle")
	if err != nil {
		return d.mapErr(err)
	}
	d.mu.Lock()
	err = d.writeAll(h, data)
	d.mu.Unlock()
	if _, cerr := call(h, "close"); err == nil && cerr != nil {
		err = cerr
	}
	return d.mapErr(err)
}

func (d *opfsDriver) writeAll(h js.Value, data []byte) error {
	if _, err := call(h, "truncate", 0); err != nil {
		return err
	}
	for off := 0; off < len(data); {
		n := min(len(data)-off, opfsChunk)
		buf := d.buffer(n)
		js.CopyBytesToJS(buf, data[off:off+n])
		w, err := call(h, "write", buf, atOpt(int64(off)))
		if err != nil {
			return err
		}
		if w.Int() != n {
			return io.ErrShortWrite
		}
		off += n
	}
	return nil
}

func (d *opfsDriver) open(name string) (segmentReader, error) {
	fh, err := callAwait(d.dir, "getFileHandle", name, createOpt(false))
	if err != nil {
		if jsErrorName(err) == "TypeMismatchError" {
			return nil, ErrNotExist // a directory of that name
		}
		return nil, d.mapErr(err)
	}
	h, err := callAwait(fh, "createSyncAccessHandle")
	if err != nil {
		return nil, d.mapErr(err)
	}
	size, err := call(h, "getSize")
	if err != nil {
		call(h, "close")
		return nil, d.mapErr(err)
	}
	return &opfsReader{d: d, h: h, size: int64(size.Float())}, nil
}

type opfsReader struct {
	d    *opfsDriver
	h    js.Value // FileSystemSyncAccessHandle, exclusive while open
	size int64
	off  int64
}

func (r *opfsReader) Size() int64 { return r.size }

func (r *opfsReader) Read(p []byte) (int, error) {
	if r.off >= r.size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), r.size-r.off, opfsChunk))
	if n == 0 {
		return 0, nil
	}
	r.d.mu.Lock()
	defer r.d.mu.Unlock()
	buf := r.d.buffer(n)
	got, err := call(r.h, "read", buf, atOpt(r.off))
	if err != nil {
		return 0, r.d.mapErr(err)
	}
	m := got.Int()
	if m <= 0 {
		return 0, io.ErrUnexpectedEOF // the file shrank under us
	}
	js.CopyBytesToGo(p[:m], buf)
	r.off += int64(m)
	return m, nil
}

func (r *opfsReader) Close() error {
	_, err := call(r.h, "close")
	return r.d.mapErr(err)
}

func (d *opfsDriver) remove(name string) error {
	_, err := callAwait(d.dir, "removeEntry", name)
	return d.mapErr(err)
}

func (d *opfsDriver) list() ([]SegmentInfo, error) {
	it, err := call(d.dir, "values")
	if err != nil {
		return nil, d.mapErr(err)
	}
	var segs []SegmentInfo
	for {
		r, err := callAwait(it, "next")
		if err != nil {
			return nil, d.mapErr(err)
		}
		if r.Get("done").Truthy() {
			return segs, nil
		}
		h := r.Get("value")
		name := h.Get("name").String()
		if h.Get("kind").String() != "file" || !ValidName(name) {
			continue
		}
		f, err := callAwait(h, "getFile")
		if err != nil {
			return nil, d.mapErr(err)
		}
		segs = append(segs, SegmentInfo{Name: name, Size: int64(f.Get("size").Float())})
	}
}

func (d *opfsDriver) space() (Space, error)  { return browserSpace() }
func (d *opfsDriver) persist() (bool, error) { return browserPersist() }
func (d *opfsDriver) close() error           { return nil }
