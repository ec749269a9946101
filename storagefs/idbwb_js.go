//go:build js && wasm

package storagefs

// This file implements the IndexedDB backend directly against IndexedDB,
// with asynchronous writes batched many segments to a transaction.
//
// In Chromium a read-write transaction costs tens to hundreds of
// milliseconds whatever it holds, so one transaction per segment (or
// several, through a file system layer) caps writes at a few MB/s. Here a
// write hands the segment to the writer (idbwriter_js.go), which commits
// everything that arrived while its previous transaction was committing in
// one transaction, packed into few stored values. Reads of segments not yet
// committed wait for their commit, Sync waits until everything is
// committed, and a write waits while more than writeBehindBytes are queued.
// A commit that fails (a full quota, a deleted database) fails every later
// operation: the segments it held are lost, and saying so at once is what
// keeps the loss from going unnoticed. Changes commit in the order they
// were made and nothing commits after a failure, so the database always
// holds a prefix of them, as after a crash at that point: what checkpoints
// (a manifest written after a Sync) are built to survive.

import (
	"bytes"
	"errors"
	"sync"
	"syscall/js"
)

const (
	idbData = "data" // pack number -> Blob; before packs, segment name -> Blob
	idbSize = "size" // segment name -> {pack, offset, len}; before packs, its length
	// writeBehindBytes bounds the bytes queued and not yet committed.
	writeBehindBytes = 64 << 20
)

// idbLoc is where a segment is: in pack, from offset, len bytes.
type idbLoc struct {
	pack        int
	offset, len int64
}

type idbDriver struct {
	name string
	db   js.Value

	mu       sync.Mutex
	known    map[string]bool   // every segment, committed or queued
	loc      map[string]idbLoc // where the committed packed segments are
	lastSeq  map[string]uint64 // the newest uncommitted change of a name
	seq      uint64
	queued   int64         // bytes posted and not yet committed
	err      error         // the first failed commit
	gone     bool          // the database was deleted from outside
	changed  chan struct{} // closed and replaced whenever the writer reports
	w        *idbWriter
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
	d := &idbDriver{name: name, db: db, lastSeq: map[string]uint64{}, known: map[string]bool{},
		loc: map[string]idbLoc{}, changed: make(chan struct{})}
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
	if err := startIDBWriter(d); err != nil {
		db.Call("close")
		return nil, classifyIDBOr(err)
	}
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
	d.queued += n
	d.known[name] = true
	d.post(name, data, false)
	return nil
}

// idbReadJS reads the Blob under key in the data store: a promise of the
// Blob, of its len bytes from offset where offset >= 0, or of undefined
// where there is none.
const idbReadJS = `(db, key, offset, len) => new Promise((resolve, reject) => {
  const tx = db.transaction('data', 'readonly');
  tx.onabort = () => reject(tx.error || new Error('transaction aborted'));
  const get = tx.objectStore('data').get(key);
  get.onsuccess = () => {
    const b = get.result;
    // A slice is a Blob of its own to register: not for the whole pack.
    if (b === undefined || offset < 0 || offset === 0 && len === b.size) return resolve(b);
    resolve(b.slice(offset, offset + len));
  };
})`

var (
	idbReadOnce sync.Once
	idbRead     js.Value
)

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
	// The data is the writer's until committed: read it back then.
	for d.failure() == nil && d.lastSeq[name] != 0 {
		d.wait()
	}
	if err := d.failure(); err != nil {
		d.mu.Unlock()
		return nil, err
	}
	// A segment of the layout before packs is stored under its name.
	key, offset, n := js.ValueOf(name), int64(-1), int64(0)
	if l, ok := d.loc[name]; ok {
		key, offset, n = js.ValueOf(l.pack), l.offset, l.len
	}
	d.mu.Unlock()
	idbReadOnce.Do(func() { idbRead = js.Global().Call("eval", idbReadJS) })
	p, err := catchJS(func() js.Value { return idbRead.Invoke(d.db, key, offset, n) })
	if err != nil {
		return nil, d.mapErr(err)
	}
	v, err := await(p)
	if err != nil {
		return nil, d.mapErr(err)
	}
	if v.Type() != js.TypeObject {
		return nil, ErrNotExist
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
	delete(d.loc, name)
	d.post(name, nil, true)
	return nil
}

// idle waits until everything queued is committed; mu is held.
func (d *idbDriver) idle() error {
	for d.failure() == nil && d.w != nil && len(d.w.posted) > 0 {
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
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := range out {
		name, v := keys.Index(i).String(), vals.Index(i)
		if v.Type() == js.TypeObject { // {pack, offset, len}
			// (A name removed meanwhile may get a stale entry: reads
			// check known first, and a new write places it again.)
			l := idbLoc{pack: v.Get("pack").Int(), offset: int64(v.Get("offset").Float()), len: int64(v.Get("len").Float())}
			d.loc[name] = l
			v = js.ValueOf(l.len)
		}
		out[i] = SegmentInfo{Name: name, Size: int64(v.Float())}
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
	d.mu.Unlock()
	d.w.stop()
	d.db.Call("close")
	return err
}
