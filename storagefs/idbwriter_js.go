//go:build js && wasm

package storagefs

// This file moves the IndexedDB write work off the engine's thread.
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
// the changes. The engine's thread meanwhile goes on computing.

import (
	"sync"
	"syscall/js"
)

// idbWriterJS is the writer Worker's script, started from a Blob URL so it
// needs no file of its own (and no entry in the service worker's cache).
//
// Messages to it: {open: name}; {seq, name, buf, len} a put of the first len
// bytes of buf; {seq, name, del: true}; {close: true}. From it: {opened} or
// {failed}; {buf} a buffer handed back; {committed: seq} every change up to
// seq is in the database; {failed: {name, message}} a transaction failed and
// nothing more will be committed; {gone: true} the database was deleted
// from outside; {closed: true}.
const idbWriterJS = `'use strict';
let db = null, queue = [], busy = false, stopped = false;
const failure = (e) => ({ name: (e && e.name) || 'Error', message: String((e && e.message) || e) });
function stop(e) {
  stopped = true;
  queue = [];
  self.postMessage({ failed: failure(e) });
}
function pump() {
  if (busy || stopped || !db || queue.length === 0) return;
  const batch = queue;
  queue = [];
  busy = true;
  let tx;
  try {
    tx = db.transaction(['data', 'size'], 'readwrite', { durability: 'relaxed' });
    const data = tx.objectStore('data'), size = tx.objectStore('size');
    for (const op of batch) {
      if (op.del) {
        data.delete(op.name);
        size.delete(op.name);
      } else {
        data.put(op.blob, op.name);
        size.put(op.len, op.name);
      }
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
    self.postMessage({ committed: last });
    pump();
  };
  tx.onabort = () => {
    busy = false;
    stop(tx.error || new Error('transaction aborted'));
  };
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
      self.postMessage({ opened: true });
      pump();
    };
    req.onerror = () => self.postMessage({ failed: failure(req.error) });
    return;
  }
  if (m.close) {
    if (db) db.close();
    self.postMessage({ closed: true });
    return;
  }
  if (m.buf) {
    try {
      // In parts of 256 KiB: Chromium takes such a Blob faster than one
      // of a single large part (measured back to back: 16 MiB writes at a
      // median 108 against 101 MiB/s, 1 MiB writes 88 against 67; parts
      // of 128 KiB were slower, of 512 KiB no faster).
      const parts = [];
      for (let o = 0; o < m.len; o += 262144) parts.push(new Uint8Array(m.buf, o, Math.min(262144, m.len - o)));
      m.blob = new Blob(parts);
    } catch (err) {
      self.postMessage({ buf: m.buf }, [m.buf]);
      if (!stopped) stop(err);
      return;
    }
    self.postMessage({ buf: m.buf }, [m.buf]);
    m.buf = null;
  }
  if (stopped) return;
  queue.push(m);
  pump();
};
`

var (
	idbWriterURLOnce sync.Once
	idbWriterURL     js.Value
)

// idbWorkersAvailable reports whether this context can start a Worker (a
// browser's dedicated Worker or page; not Node).
func idbWorkersAvailable() bool {
	g := js.Global()
	return g.Get("Worker").Type() == js.TypeFunction && g.Get("Blob").Type() == js.TypeFunction &&
		g.Get("URL").Get("createObjectURL").Type() == js.TypeFunction
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

// startIDBWriter starts d's writer Worker on the database d.name and sets
// d.w; it returns nil, nil where no Worker can be started.
func startIDBWriter(d *idbDriver) (*idbWriter, error) {
	idbWriterURLOnce.Do(func() {
		blob := js.Global().Get("Blob").New([]any{idbWriterJS}, map[string]any{"type": "text/javascript"})
		idbWriterURL = js.Global().Get("URL").Call("createObjectURL", blob)
	})
	worker, err := newJS(js.Global().Get("Worker"), idbWriterURL)
	if err != nil {
		return nil, nil // no Worker here after all (a policy forbids it): write in-thread
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
		return nil, err
	}
	return w, nil
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
