//go:build js && wasm

package storagefs

// This file implements the IndexedDB backend directly against IndexedDB,
// with asynchronous writes batched many segments to a transaction.
//
// In Chromium a read-write transaction costs tens to hundreds of
// milliseconds whatever it holds, so one transaction per segment (or
// several, through a file system layer) caps writes at a few MB/s. Here a
// write copies the segment into a JavaScript buffer and queues it; one
// goroutine commits everything queued in one transaction, then the next
// batch, so the cost of a transaction is paid per batch. Reads of queued
// segments are served from the queue, Sync waits until the queue is
// committed, and a write waits while more than writeBehindBytes are queued.
// A commit that fails (a full quota, a deleted database) fails every later
// operation: the segments it held are lost, and saying so at once is what
// keeps the loss from going unnoticed. Changes commit in the order they
// were made and nothing commits after a failure, so the database always
// holds a prefix of them, as after a crash at that point: what checkpoints
// (a manifest written after a Sync) are built to survive.
//
// Where a Worker can be started (a browser), the Blobs are built and the
// transactions committed by a writer Worker instead (idbwriter_js.go), off
// the engine's thread, with the same order, batching and failure rules;
// the goroutine and queue here serve where there is none (Node).

import (
	"bytes"
	"errors"
	"sync"
	"syscall/js"
)

const (
	idbData = "data" // segment name -> Blob (or Uint8Array)
	idbSize = "size" // segment name -> its length, so listing reads no data
	// writeBehindBytes bounds the bytes queued and not yet committed.
	writeBehindBytes = 64 << 20
)

// idbBlobs stores segments as Blobs rather than Uint8Arrays: in Chromium
// that doubled the write and read rates of 16 MiB segments (structured
// cloning a large array costs more than handing over a Blob).
var idbBlobs = js.Global().Get("Blob").Type() == js.TypeFunction

// idbOp is one queued change: a segment put (data set) or deleted.
type idbOp struct {
	name string
	data js.Value // a Blob (or Uint8Array); undefined for a delete
	size int64
	seq  uint64
}

type idbDriver struct {
	name string
	db   js.Value

	mu       sync.Mutex
	ops      []idbOp             // queued, not yet in a transaction
	inflight bool                // a transaction is committing
	pending  map[string]js.Value // the newest queued or committing data of a name
	deleted  map[string]bool     // names whose newest queued change is a delete
	known    map[string]bool     // every segment, committed or queued
	lastSeq  map[string]uint64
	seq      uint64
	queued   int64 // bytes queued or committing
	err      error // the first failed commit
	gone     bool  // the database was deleted from outside
	closed   bool
	changed  chan struct{} // closed and replaced whenever a transaction ends
	w        *idbWriter    // the writer Worker, where there is one (idbwriter_js.go)
	kick     chan struct{}
	onChange js.Func
}

func openIDBWriteBehind(name string) (*idbDriver, error) {
	idb := js.Global().Get("indexedDB")
	req, err := call(idb, "open", name, 1)
	if err != nil {
		return nil, classifyIDBOr(err)
	}
	upgrade := js.FuncOf(func(js.Value, []js.Value) any {
		db := req.Get("result")
		for _, s := range []string{idbData, idbSize} {
			if !db.Get("objectStoreNames").Call("contains", s).Bool() {
				db.Call("createObjectStore", s)
			}
		}
		return nil
	})
	defer upgrade.Release()
	req.Set("onupgradeneeded", upgrade)
	db, err := awaitRequest(req)
	if err != nil {
		return nil, classifyIDBOr(err)
	}
	names := db.Get("objectStoreNames")
	if !names.Call("contains", idbData).Bool() || !names.Call("contains", idbSize).Bool() {
		db.Call("close")
		return nil, errors.New("the database is not a segment store of this version of Locus")
	}
	d := &idbDriver{name: name, db: db, pending: map[string]js.Value{}, deleted: map[string]bool{},
		lastSeq: map[string]uint64{}, known: map[string]bool{}, changed: make(chan struct{}), kick: make(chan struct{}, 1)}
	segs, err := d.list()
	if err != nil {
		db.Call("close")
		return nil, err
	}
	for _, sg := range segs {
		d.known[sg.Name] = true
	}
	// Deleted from outside (another tab, site data cleared): let go, so
	// the deletion proceeds, and fail from now on.
	d.onChange = js.FuncOf(func(js.Value, []js.Value) any {
		d.mu.Lock()
		d.gone = true
		d.mu.Unlock()
		db.Call("close")
		return nil
	})
	db.Set("onversionchange", d.onChange)
	if idbWorkersAvailable() {
		w, err := startIDBWriter(d)
		if err != nil {
			db.Call("close")
			return nil, classifyIDBOr(err)
		}
		if w != nil {
			return d, nil
		}
	}
	go d.flusher()
	return d, nil
}

// awaitRequest waits for an IDBRequest and returns its result.
func awaitRequest(req js.Value) (js.Value, error) {
	var ok, fail js.Func
	p := js.Global().Get("Promise").New(js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		ok = js.FuncOf(func(js.Value, []js.Value) any { resolve.Invoke(req.Get("result")); return nil })
		fail = js.FuncOf(func(js.Value, []js.Value) any { reject.Invoke(req.Get("error")); return nil })
		req.Set("onsuccess", ok)
		req.Set("onerror", fail)
		return nil
	}))
	v, err := await(p)
	ok.Release()
	fail.Release()
	return v, err
}

// awaitTx waits for a transaction to commit.
func awaitTx(tx js.Value) error {
	var done, fail js.Func
	p := js.Global().Get("Promise").New(js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		done = js.FuncOf(func(js.Value, []js.Value) any { resolve.Invoke(); return nil })
		fail = js.FuncOf(func(js.Value, []js.Value) any {
			e := tx.Get("error")
			if e.IsNull() || e.IsUndefined() {
				e = js.Global().Get("Error").New("transaction aborted")
			}
			reject.Invoke(e)
			return nil
		})
		tx.Set("oncomplete", done)
		tx.Set("onabort", fail)
		tx.Set("onerror", fail)
		return nil
	}))
	_, err := await(p)
	done.Release()
	fail.Release()
	return err
}

// failure is the error every operation returns once the store is unusable.
func (d *idbDriver) failure() error {
	switch {
	case d.gone:
		return ErrStoreGone
	case d.err != nil:
		return d.err
	}
	return nil
}

// wait blocks until a transaction ends; mu is held on entry and on return.
func (d *idbDriver) wait() {
	ch := d.changed
	d.mu.Unlock()
	<-ch
	d.mu.Lock()
}

func (d *idbDriver) queue(op idbOp) {
	d.seq++
	op.seq = d.seq
	d.lastSeq[op.name] = op.seq
	if op.data.Type() == js.TypeObject {
		d.pending[op.name] = op.data
		delete(d.deleted, op.name)
	} else {
		delete(d.pending, op.name)
		d.deleted[op.name] = true
	}
	d.ops = append(d.ops, op)
	select {
	case d.kick <- struct{}{}:
	default:
	}
}

// flusher commits the queued changes, a batch per transaction.
func (d *idbDriver) flusher() {
	for {
		d.mu.Lock()
		for len(d.ops) == 0 && !d.closed {
			d.mu.Unlock()
			<-d.kick
			d.mu.Lock()
		}
		if len(d.ops) == 0 {
			d.mu.Unlock()
			return
		}
		batch := d.ops
		d.ops = nil
		d.inflight = true
		fail := d.failure()
		d.mu.Unlock()

		err := fail
		if err == nil {
			err = d.commit(batch)
		}

		d.mu.Lock()
		for _, op := range batch {
			d.queued -= op.size
			if d.lastSeq[op.name] == op.seq {
				delete(d.lastSeq, op.name)
				delete(d.pending, op.name)
				delete(d.deleted, op.name)
			}
		}
		if err != nil && d.err == nil {
			d.err = classifyIDBOr(err)
			if d.gone {
				d.err = ErrStoreGone
			}
		}
		d.inflight = false
		close(d.changed)
		d.changed = make(chan struct{})
		d.mu.Unlock()
	}
}

func (d *idbDriver) commit(batch []idbOp) (err error) {
	opts := js.Global().Get("Object").New()
	opts.Set("durability", "relaxed")
	tx, err := call(d.db, "transaction", js.ValueOf([]any{idbData, idbSize}), "readwrite", opts)
	if err != nil {
		return err
	}
	data, size := tx.Call("objectStore", idbData), tx.Call("objectStore", idbSize)
	for _, op := range batch {
		if op.data.Type() == js.TypeObject {
			_, err = call(data, "put", op.data, op.name)
			if err == nil {
				_, err = call(size, "put", op.size, op.name)
			}
		} else {
			_, err = call(data, "delete", op.name)
			if err == nil {
				_, err = call(size, "delete", op.name)
			}
		}
		if err != nil {
			tx.Call("abort")
			return err
		}
	}
	return awaitTx(tx)
}

func (d *idbDriver) write(name string, data []byte) error {
	n := int64(len(data))
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.failure() == nil && d.queued > 0 && d.queued+n > writeBehindBytes {
		d.wait()
	}
	if err := d.failure(); err != nil {
		return err
	}
	if d.w != nil {
		d.queued += n
		d.known[name] = true
		d.post(name, data, false)
		return nil
	}
	u8 := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(u8, data)
	buf := u8
	if idbBlobs {
		buf = js.Global().Get("Blob").New([]any{u8})
	}
	d.queued += n
	d.known[name] = true
	d.queue(idbOp{name: name, data: buf, size: n})
	return nil
}

func (d *idbDriver) open(name string) (segmentReader, error) {
	d.mu.Lock()
	if err := d.failure(); err != nil {
		d.mu.Unlock()
		return nil, err
	}
	if !d.known[name] {
		d.mu.Unlock()
		return nil, ErrNotExist
	}
	v, ok := d.pending[name]
	// With a writer Worker the data is over there: read it back once committed.
	for d.w != nil && d.failure() == nil && d.lastSeq[name] != 0 {
		d.wait()
	}
	if err := d.failure(); err != nil {
		d.mu.Unlock()
		return nil, err
	}
	d.mu.Unlock()
	if !ok {
		tx, err := call(d.db, "transaction", idbData, "readonly")
		if err != nil {
			return nil, d.mapErr(err)
		}
		req, err := call(tx.Call("objectStore", idbData), "get", name)
		if err != nil {
			return nil, d.mapErr(err)
		}
		if v, err = awaitRequest(req); err != nil {
			return nil, d.mapErr(err)
		}
		if v.Type() != js.TypeObject {
			return nil, ErrNotExist
		}
	}
	if v.Get("arrayBuffer").Type() == js.TypeFunction { // a Blob
		ab, err := callAwait(v, "arrayBuffer")
		if err != nil {
			return nil, d.mapErr(err)
		}
		v = js.Global().Get("Uint8Array").New(ab)
	}
	buf := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(buf, v)
	return &idbReader{Reader: bytes.NewReader(buf)}, nil
}

func (d *idbDriver) mapErr(err error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.gone {
		return ErrStoreGone
	}
	return classifyIDBOr(err)
}

type idbReader struct{ *bytes.Reader }

func (r *idbReader) Size() int64  { return r.Reader.Size() }
func (r *idbReader) Close() error { return nil }

func (d *idbDriver) remove(name string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.failure(); err != nil {
		return err
	}
	if !d.known[name] {
		return ErrNotExist
	}
	delete(d.known, name)
	if d.w != nil {
		d.post(name, nil, true)
		return nil
	}
	d.queue(idbOp{name: name})
	return nil
}

// idle waits until everything queued is committed; mu is held.
func (d *idbDriver) idle() error {
	for d.failure() == nil && (len(d.ops) > 0 || d.inflight || d.w != nil && len(d.w.posted) > 0) {
		d.wait()
	}
	return d.failure()
}

func (d *idbDriver) sync([]string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.idle()
}

func (d *idbDriver) list() ([]SegmentInfo, error) {
	d.mu.Lock()
	err := d.idle()
	d.mu.Unlock()
	if err != nil {
		return nil, err
	}
	tx, err := call(d.db, "transaction", idbSize, "readonly")
	if err != nil {
		return nil, d.mapErr(err)
	}
	st := tx.Call("objectStore", idbSize)
	keysReq, err := call(st, "getAllKeys")
	if err != nil {
		return nil, d.mapErr(err)
	}
	valsReq, err := call(st, "getAll")
	if err != nil {
		return nil, d.mapErr(err)
	}
	keys, err := awaitRequest(keysReq)
	if err != nil {
		return nil, d.mapErr(err)
	}
	vals, err := awaitRequest(valsReq)
	if err != nil {
		return nil, d.mapErr(err)
	}
	out := make([]SegmentInfo, keys.Length())
	for i := range out {
		out[i] = SegmentInfo{Name: keys.Index(i).String(), Size: int64(vals.Index(i).Float())}
	}
	return out, nil
}

func (d *idbDriver) space() (Space, error)  { return browserSpace() }
func (d *idbDriver) persist() (bool, error) { return browserPersist() }

// close commits what is queued and closes the connection, so that the
// database can be deleted at once.
func (d *idbDriver) close() error {
	d.mu.Lock()
	err := d.idle()
	d.closed = true
	d.mu.Unlock()
	if d.w != nil {
		d.w.stop()
	}
	select {
	case d.kick <- struct{}{}:
	default:
	}
	d.db.Call("close")
	return err
}
