//go:build js && wasm

package storagefs

// This file is the IndexedDB writer: it builds the Blobs and commits the
// transactions, off the engine's thread where it can.
//
// Building a Blob from a 16 MiB segment costs more than committing it (in
// Chromium the Blob constructor copies the bytes, and on a loaded machine
// that copy runs at 40-70 MiB/s), and on the engine's thread it stalls
// the search. So where Workers can start Workers, a store gets a small
// writer Worker with its own connection to the database: a write copies
// the segment into a reused ArrayBuffer and transfers it there; the writer
// builds the Blob, hands the buffer back for the next write, and commits
// everything that arrived while its previous transaction was committing in
// one transaction, one transaction at a time, in the order posted. It stops
// at the first failed transaction, so the database still holds a prefix of
// the changes. The engine's thread meanwhile goes on computing. Where no
// Worker can be started (Node), the same script runs on this thread.

import (
	"sync"
	"syscall/js"
)

// idbWriterJS is the writer's script. It runs in a Worker of its own, started
// from a Blob URL so it needs no file of its own (and no entry in the service
// worker's cache), or, where no Worker can be started (Node), on the
// engine's thread behind idbInThreadJS: one implementation either way.
//
// Messages to it: {open: name}; {seq, name, buf, len} a put of the first len
// bytes of buf; {seq, name, del: true}; {close: true}. From it: {opened} or
// {failed}; {buf} a buffer handed back; {committed: seq, placed} every
// change up to seq is in the database, and placed lists where its puts went
// (name, pack, offset, len, ...); {failed: {name, message}} a transaction failed and
// nothing more will be committed; {gone: true} the database was deleted
// from outside; {closed: true}.
//
// Segments are stored in packs: the puts of one transaction go into one
// Blob per family of names (a queue's chunks, the signature file's blocks:
// the name less its 16 hex digits), of at most 16 MiB, under a numeric key
// in the data store, and the size store maps each segment to {pack,
// offset, len}. In Chromium a stored value and a Blob each cost more than
// their bytes below a few MiB: 256 KiB segments as values of their own
// were written at 58-61 MiB/s, and as packs at 114 (1 MiB: 104 against 117;
// 16 MiB segments, one to a pack, 118-126 either way). A pack is deleted
// with the last of its segments; grouping by family keeps a short-lived
// queue chunk from sharing a pack with a long-lived block. Databases
// written before packs map a name to its length and hold its Blob under
// the name; they are still read and deleted.
const idbWriterJS = `'use strict';
const PACK = 16 << 20; // a pack's bound: 16 MiB values are written at the full rate
let db = null, queue = [], busy = false, stopped = false;
let filling = new Map(); // family -> the pack the queued puts fill
const where = new Map(); // segment name -> its pack
const live = new Map();  // pack -> how many segments it holds
let nextPack = 1;
const failure = (e) => ({ name: (e && e.name) || 'Error', message: String((e && e.message) || e) });
const family = (name) => /^.+[0-9a-f]{16}$/.test(name) ? name.slice(0, -16) : '';
function stop(e) {
  stopped = true;
  queue = [];
  for (const pk of filling.values()) handBack(pk);
  filling = new Map();
  self.postMessage({ failed: failure(e) });
}
function handBack(pk) {
  for (const b of pk.bufs) self.postMessage({ buf: b }, [b]);
  pk.bufs = [];
}
// seal builds a pack's Blob, one for all its segments (a Blob costs per
// Blob as well as per byte), from views of 256 KiB (Chromium takes such a
// Blob faster than one of large parts: measured back to back, 16 MiB
// writes at a median 108 against 101 MiB/s; parts of 128 KiB were slower,
// of 512 KiB no faster), and hands the buffers back.
function seal(pk) {
  const parts = [];
  for (let i = 0; i < pk.bufs.length; i++) {
    const b = pk.bufs[i], n = pk.lens[i];
    for (let o = 0; o < n; o += 262144) parts.push(new Uint8Array(b, o, Math.min(262144, n - o)));
  }
  try {
    pk.blob = new Blob(parts);
  } finally {
    handBack(pk);
  }
}
// add queues a put in the pack its family is filling, sealing it once full.
function add(m) {
  const k = family(m.name);
  let pk = filling.get(k);
  if (pk && pk.len + m.len > PACK) {
    filling.delete(k);
    seal(pk);
    pk = undefined;
  }
  if (!pk) {
    pk = { id: nextPack++, bufs: [], lens: [], len: 0, blob: null };
    filling.set(k, pk);
  }
  m.pack = pk;
  m.offset = pk.len;
  pk.bufs.push(m.buf);
  pk.lens.push(m.len);
  pk.len += m.len;
  m.buf = null;
  if (pk.len >= PACK) { // full: its Blob is built now, while a transaction may be committing
    filling.delete(k);
    seal(pk);
  }
}
// release forgets name's data: its pack goes with its last segment.
function release(name, data) {
  const p = where.get(name);
  if (p === undefined) { // a segment of the layout before packs (or none)
    data.delete(name);
    return;
  }
  where.delete(name);
  const n = live.get(p) - 1;
  if (n > 0) {
    live.set(p, n);
  } else {
    live.delete(p);
    data.delete(p);
  }
}
function pump() {
  if (busy || stopped || !db || queue.length === 0) return;
  const batch = queue;
  queue = [];
  busy = true;
  const placed = [];
  let tx;
  try {
    const packs = new Set();
    for (const pk of filling.values()) seal(pk);
    filling = new Map();
    tx = db.transaction(['data', 'size'], 'readwrite', { durability: 'relaxed' });
    const data = tx.objectStore('data'), size = tx.objectStore('size');
    for (const op of batch) {
      if (op.del) {
        release(op.name, data);
        size.delete(op.name);
        continue;
      }
      if (where.has(op.name)) release(op.name, data);
      const pk = op.pack;
      packs.add(pk);
      size.put({ pack: pk.id, offset: op.offset, len: op.len }, op.name);
      placed.push(op.name, pk.id, op.offset, op.len);
      where.set(op.name, pk.id);
      live.set(pk.id, (live.get(pk.id) || 0) + 1);
    }
    for (const pk of packs) {
      if (live.has(pk.id)) data.put(pk.blob, pk.id); // else all its segments went already
    }
    if (tx.commit) tx.commit();
  } catch (e) {
    // The changes already in tx must not commit without the rest.
    try { if (tx) tx.abort(); } catch (_) {}
    busy = false;
    stop(e);
    return;
  }
  const last = batch[batch.length - 1].seq;
  tx.oncomplete = () => {
    busy = false;
    self.postMessage({ committed: last, placed });
    pump();
  };
  tx.onabort = () => {
    busy = false;
    stop(tx.error || new Error('transaction aborted'));
  };
}
// learn reads which pack holds each segment, numbers new packs after every
// pack in the database, and deletes packs no segment is in (there should
// be none: a pack and its segments change in one transaction).
function learn(then) {
  const tx = db.transaction(['data', 'size'], 'readwrite', { durability: 'relaxed' });
  const data = tx.objectStore('data');
  const cur = tx.objectStore('size').openCursor();
  cur.onsuccess = () => {
    const c = cur.result;
    if (c) {
      const v = c.value;
      if (v !== null && typeof v === 'object') {
        where.set(c.key, v.pack);
        live.set(v.pack, (live.get(v.pack) || 0) + 1);
      }
      c.continue();
      return;
    }
    const keys = data.getAllKeys(IDBKeyRange.bound(-Infinity, Infinity));
    keys.onsuccess = () => {
      for (const p of keys.result) {
        if (p >= nextPack) nextPack = p + 1;
        if (!live.has(p)) data.delete(p);
      }
      for (const p of live.keys()) if (p >= nextPack) nextPack = p + 1;
    };
  };
  tx.oncomplete = then;
  tx.onabort = () => self.postMessage({ failed: failure(tx.error || new Error('transaction aborted')) });
}
self.onmessage = (e) => {
  const m = e.data;
  if (m.open !== undefined) {
    const req = indexedDB.open(m.open);
    req.onsuccess = () => {
      db = req.result;
      db.onversionchange = () => {
        db.close();
        stopped = true;
        queue = [];
        self.postMessage({ gone: true });
      };
      try {
        learn(() => {
          self.postMessage({ opened: true });
          pump();
        });
      } catch (err) {
        self.postMessage({ failed: failure(err) });
      }
    };
    req.onerror = () => self.postMessage({ failed: failure(req.error) });
    return;
  }
  if (m.close) {
    if (db) db.close();
    self.postMessage({ closed: true });
    return;
  }
  if (stopped) {
    if (m.buf) self.postMessage({ buf: m.buf }, [m.buf]);
    return;
  }
  if (m.buf) {
    try {
      add(m);
    } catch (err) {
      stop(err);
      return;
    }
  }
  queue.push(m);
  pump();
};
`

// idbInThreadJS makes a Worker-like pair of endpoints that runs a script on
// this thread, for where no Worker can be started (Node): messages are
// delivered in order from the microtask queue, transfer lists are checked
// (not honoured), and an exception the script throws is reported to
// onerror, as a Worker would.
const idbInThreadJS = `(script) => {
  const outer = { onmessage: null, onerror: null }, inner = { onmessage: null };
  let ended = false;
  const check = (transfer) => {
    for (const t of transfer || []) if (!(t instanceof ArrayBuffer)) throw new TypeError('a transfer list holds a value that is not an ArrayBuffer');
  };
  inner.postMessage = (m, transfer) => {
    check(transfer);
    queueMicrotask(() => { if (!ended && outer.onmessage) outer.onmessage({ data: m }); });
  };
  outer.postMessage = (m, transfer) => {
    check(transfer);
    queueMicrotask(() => {
      if (ended) return;
      try {
        inner.onmessage({ data: m });
      } catch (e) {
        if (outer.onerror) outer.onerror({ message: String((e && e.message) || e), preventDefault() {} });
      }
    });
  };
  outer.terminate = () => { ended = true; };
  new Function('self', script)(inner);
  return outer;
}`

var (
	idbWriterURLOnce sync.Once
	idbWriterURL     js.Value
	idbInThreadOnce  sync.Once
	idbInThread      js.Value
)

// idbWorkersAvailable reports whether this context can start a Worker (a
// browser's dedicated Worker or page; not Node).
func idbWorkersAvailable() bool {
	g := js.Global()
	return g.Get("Worker").Type() == js.TypeFunction && g.Get("Blob").Type() == js.TypeFunction &&
		g.Get("URL").Get("createObjectURL").Type() == js.TypeFunction
}

// newIDBWriterEndpoint starts the writer: a Worker where one can be
// started, else the script on this thread.
func newIDBWriterEndpoint() (js.Value, error) {
	if idbWorkersAvailable() {
		idbWriterURLOnce.Do(func() {
			blob := js.Global().Get("Blob").New([]any{idbWriterJS}, map[string]any{"type": "text/javascript"})
			idbWriterURL = js.Global().Get("URL").Call("createObjectURL", blob)
		})
		if w, err := newJS(js.Global().Get("Worker"), idbWriterURL); err == nil {
			return w, nil
		} // else no Worker here after all (a policy forbids it)
	}
	idbInThreadOnce.Do(func() {
		idbInThread = js.Global().Call("eval", idbInThreadJS)
	})
	return catchJS(func() js.Value { return idbInThread.Invoke(idbWriterJS) })
}

// idbPosted is a change handed to the writer and not yet committed.
type idbPosted struct {
	name string
	size int64
	seq  uint64
}

// idbWriter is the engine side of the writer Worker; the idbDriver's mu
// guards its fields.
type idbWriter struct {
	worker  js.Value
	onMsg   js.Func
	onErr   js.Func
	posted  []idbPosted // in seq order
	pool    []js.Value  // ArrayBuffers handed back, for the next writes
	poolLen int64       // their bytes
	isOpen  bool
	opened  chan error
	closed  chan struct{}
}

// idbPoolMin is the smallest write that takes a pooled buffer: smaller
// writes (manifests) are cheap to copy into a fresh one.
const idbPoolMin = 64 << 10

// idbPoolMax bounds the bytes of pooled buffers: a buffer comes back as
// soon as its Blob is built, so two segments' worth keep writes from
// allocating (and, on a fresh buffer, page-faulting) without holding much.
const idbPoolMax = writeBehindBytes

// startIDBWriter starts d's writer on the database d.name and sets d.w.
func startIDBWriter(d *idbDriver) error {
	worker, err := newIDBWriterEndpoint()
	if err != nil {
		return err
	}
	w := &idbWriter{worker: worker, opened: make(chan error, 1), closed: make(chan struct{}, 1)}
	w.onMsg = js.FuncOf(func(_ js.Value, args []js.Value) any {
		d.fromWriter(args[0].Get("data"))
		return nil
	})
	worker.Set("onmessage", w.onMsg)
	// An exception the writer did not catch (or its crash) would otherwise
	// leave Sync waiting for commits that never come.
	w.onErr = js.FuncOf(func(_ js.Value, args []js.Value) any {
		args[0].Call("preventDefault") // handled here: not an error of the engine's Worker too
		msg := "the IndexedDB writer Worker failed"
		if m := args[0].Get("message"); m.Type() == js.TypeString {
			msg += ": " + m.String()
		}
		d.fromWriter(js.ValueOf(map[string]any{"failed": map[string]any{"name": "Error", "message": msg}}))
		return nil
	})
	worker.Set("onerror", w.onErr)
	d.w = w // before any message arrives
	worker.Call("postMessage", map[string]any{"open": d.name})
	if err := <-w.opened; err != nil {
		d.w = nil
		worker.Call("terminate")
		w.onMsg.Release()
		w.onErr.Release()
		return err
	}
	return nil
}

// newJS calls new c(args...), returning a thrown exception as an error.
func newJS(c js.Value, args ...any) (js.Value, error) {
	return catchJS(func() js.Value { return c.New(args...) })
}

// fromWriter handles a message from the writer Worker.
func (d *idbDriver) fromWriter(m js.Value) {
	d.mu.Lock()
	defer d.mu.Unlock()
	w := d.w
	switch {
	case m.Get("opened").Truthy():
		w.isOpen = true
		w.opened <- nil
		return
	case m.Get("closed").Truthy():
		w.closed <- struct{}{}
		return
	case m.Get("buf").Truthy():
		buf := m.Get("buf")
		if n := int64(buf.Get("byteLength").Int()); n >= idbPoolMin && w.poolLen+n <= idbPoolMax {
			w.pool = append(w.pool, buf)
			w.poolLen += n
		}
		return
	case m.Get("committed").Truthy():
		last := uint64(m.Get("committed").Int())
		if pl := m.Get("placed"); pl.Type() == js.TypeObject {
			for i := 0; i+3 < pl.Length(); i += 4 {
				// A name removed since is not placed; one removed and
				// written again is placed again when that commits, before
				// a read of it goes on (reads wait for their name's commit).
				if name := pl.Index(i).String(); d.known[name] {
					d.loc[name] = idbLoc{pack: pl.Index(i + 1).Int(), offset: int64(pl.Index(i + 2).Float()), len: int64(pl.Index(i + 3).Float())}
				}
			}
		}
		done := 0
		for _, p := range w.posted {
			if p.seq > last {
				break
			}
			d.queued -= p.size
			if d.lastSeq[p.name] == p.seq {
				delete(d.lastSeq, p.name)
			}
			done++
		}
		w.posted = w.posted[done:]
	case m.Get("gone").Truthy():
		d.gone = true
	case m.Get("failed").Truthy():
		f := m.Get("failed")
		err := classifyIDBOr(&domError{name: f.Get("name").String(), message: f.Get("message").String()})
		if !w.isOpen {
			w.opened <- err
			return
		}
		if d.err == nil {
			d.err = err
		}
	default:
		return
	}
	close(d.changed)
	d.changed = make(chan struct{})
}

// post hands a put (data non-nil) or a delete of name to the writer; mu is held.
func (d *idbDriver) post(name string, data []byte, del bool) {
	w := d.w
	d.seq++
	d.lastSeq[name] = d.seq
	msg := map[string]any{"seq": d.seq, "name": name}
	n := int64(len(data))
	var transfer []any
	if del {
		msg["del"] = true
	} else {
		buf := js.Undefined()
		if n >= idbPoolMin {
			for i, b := range w.pool {
				if size := int64(b.Get("byteLength").Int()); size >= n {
					buf = b
					w.pool = append(w.pool[:i], w.pool[i+1:]...)
					w.poolLen -= size
					break
				}
			}
		}
		if buf.IsUndefined() {
			buf = js.Global().Get("ArrayBuffer").New(len(data))
		}
		js.CopyBytesToJS(js.Global().Get("Uint8Array").New(buf, 0, len(data)), data)
		msg["buf"], msg["len"] = buf, len(data)
		transfer = []any{buf}
	}
	w.posted = append(w.posted, idbPosted{name: name, size: n, seq: d.seq})
	if transfer != nil {
		w.worker.Call("postMessage", msg, transfer)
	} else {
		w.worker.Call("postMessage", msg)
	}
}

// stop closes the writer's connection and ends it; its queue is empty.
func (w *idbWriter) stop() {
	w.worker.Call("postMessage", map[string]any{"close": true})
	<-w.closed
	w.worker.Call("terminate")
	w.onMsg.Release()
	w.onErr.Release()
}
