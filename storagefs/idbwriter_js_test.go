//go:build js && wasm

package storagefs

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"syscall/js"
	"testing"
	"time"
)

// openWriterStore opens a fresh IndexedDB store, and returns it with its
// driver. Its writer is a Worker in a browser and runs on this thread in
// Node: the same script either way.
func openWriterStore(t *testing.T) (FS, *idbDriver, string) {
	t.Helper()
	name := fmt.Sprintf("locus-test-writer-%d", time.Now().UnixNano())
	t.Cleanup(func() { VanishIndexedDB(name) })
	fs, err := NewIndexedDB(name, Options{})
	if err != nil {
		t.Fatalf("NewIndexedDB = %v", err)
	}
	d := fs.(*store).d.(*idbDriver)
	if d.w == nil {
		t.Fatal("the store has no writer")
	}
	return fs, d, name
}

// TestIDBWriterReadsInFlight reads segments back while their transactions
// are still being committed by the writer. The segments are small (pooled
// buffers start at idbPoolMin): the origin quota test runs after this one,
// and Chromium may not yet have reclaimed a deleted database's space.
func TestIDBWriterReadsInFlight(t *testing.T) {
	fs, _, _ := openWriterStore(t)
	defer fs.Close()
	segs := map[string][]byte{}
	for i := range 6 {
		data := bytes.Repeat([]byte{byte(i + 1)}, 256<<10+i)
		name := fmt.Sprintf("s%d", i)
		if err := fs.WriteSegment(name, data); err != nil {
			t.Fatalf("WriteSegment(%s) = %v", name, err)
		}
		segs[name] = data
		// Overwrite through a delete, so the newest change is the one read.
		if i == 3 {
			if err := fs.RemoveSegment("s0"); err != nil {
				t.Fatal(err)
			}
			data = bytes.Repeat([]byte{0xAB}, 128<<10)
			if err := fs.WriteSegment("s0", data); err != nil {
				t.Fatal(err)
			}
			segs["s0"] = data
		}
		for n, want := range segs {
			got, err := fs.ReadSegment(n, nil)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("ReadSegment(%s) after writing s%d = %d bytes, %v; want %d bytes", n, i, len(got), err, len(want))
			}
		}
	}
}

// TestIDBWriterFailure: a transaction that fails in the writer fails the
// store's later operations, and nothing posted after it is committed, so
// the database holds a prefix of the changes.
func TestIDBWriterFailure(t *testing.T) {
	fs, d, name := openWriterStore(t)
	if err := fs.WriteSegment("kept", []byte("kept")); err != nil {
		t.Fatal(err)
	}
	if err := fs.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := fs.WriteSegment("lost-before", []byte("x")); err != nil {
		t.Fatal(err)
	}
	// A change IndexedDB rejects (a null key): its transaction fails.
	d.mu.Lock()
	d.seq++
	d.w.posted = append(d.w.posted, idbPosted{name: "bad", seq: d.seq})
	d.w.worker.Call("postMessage", map[string]any{"seq": d.seq, "name": nil, "del": true})
	d.mu.Unlock()
	fs.WriteSegment("lost-after", []byte("y")) // may fail already
	if err := fs.Sync(); err == nil {
		t.Fatal("Sync after a failed transaction = nil, want its error")
	}
	if err := fs.WriteSegment("later", []byte("z")); err == nil {
		t.Fatal("WriteSegment after a failed transaction = nil, want an error")
	}
	fs.Close()

	fs2, err := NewIndexedDB(name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer fs2.Close()
	segs, err := fs2.ListSegments("")
	if err != nil {
		t.Fatal(err)
	}
	// lost-before may have committed in a transaction of its own before
	// the failing one; nothing posted after the failing change may.
	var got []string
	for _, sg := range segs {
		got = append(got, sg.Name)
	}
	if want := []string{"kept"}; !slices.Equal(got, want) && !slices.Equal(got, append(want, "lost-before")) {
		t.Fatalf("after the failure the database holds %v, want kept (and lost-before) only", got)
	}
}

// TestIDBWriterQuota: a full quota reported by the writer is the store's
// ErrQuotaExceeded on every later operation. (Chromium does not apply a
// quota override to IndexedDB, so the writer's report is simulated.)
func TestIDBWriterQuota(t *testing.T) {
	fs, d, _ := openWriterStore(t)
	defer fs.Close()
	if err := fs.WriteSegment("a", make([]byte, 128<<10)); err != nil {
		t.Fatal(err)
	}
	d.fromWriter(js.ValueOf(map[string]any{"failed": map[string]any{
		"name": "QuotaExceededError", "message": "simulated: the quota is full"}}))
	for what, err := range map[string]error{
		"Sync":         fs.Sync(),
		"WriteSegment": fs.WriteSegment("b", []byte("b")),
	} {
		if !errors.Is(err, ErrQuotaExceeded) {
			t.Errorf("%s after the writer reported a full quota = %v, want ErrQuotaExceeded", what, err)
		}
	}
	if _, err := fs.ReadSegment("a", nil); !errors.Is(err, ErrQuotaExceeded) {
		t.Errorf("ReadSegment after the writer reported a full quota = %v, want ErrQuotaExceeded", err)
	}
}

// TestIDBWriterUncaught: an exception the writer does not catch fails the
// store instead of leaving Sync waiting for a commit that never comes.
func TestIDBWriterUncaught(t *testing.T) {
	fs, d, _ := openWriterStore(t)
	defer fs.Close()
	// A message that is not an object: reading its fields throws.
	d.mu.Lock()
	d.seq++
	d.w.posted = append(d.w.posted, idbPosted{name: "odd", seq: d.seq})
	d.w.worker.Call("postMessage", nil)
	d.mu.Unlock()
	if err := fs.Sync(); err == nil || !strings.Contains(err.Error(), "writer Worker failed") {
		t.Fatalf("Sync after the writer threw = %v, want the writer's failure", err)
	}
}

// inIDB runs body, a JavaScript function (tx, out, ...args), in one
// transaction of the data and size stores of the database name, and
// returns out once the transaction has committed: the test's view of the
// database, underneath the store.
func inIDB(t *testing.T, name, mode, body string, args ...any) js.Value {
	t.Helper()
	run := js.Global().Call("eval", `(name, mode, body, args) => new Promise((resolve, reject) => {
  const open = indexedDB.open(name);
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result, tx = db.transaction(['data', 'size'], mode), out = {};
    tx.oncomplete = () => { db.close(); resolve(out); };
    tx.onabort = () => { db.close(); reject(tx.error); };
    (0, eval)(body)(tx, out, ...args);
  };
})`)
	v, err := await(run.Invoke(name, mode, body, js.ValueOf(args)))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// idbContentsJS lists a database as stored: its packs (numeric keys of the
// data store) with their sizes, the other data keys, and the size entries.
const idbContentsJS = `(tx, out) => {
  out.packs = {}, out.named = [], out.entries = {};
  const data = tx.objectStore('data').openCursor();
  data.onsuccess = () => {
    const c = data.result;
    if (!c) return;
    if (typeof c.key === 'number') out.packs[c.key] = c.value.size;
    else out.named.push(c.key);
    c.continue();
  };
  const size = tx.objectStore('size').openCursor();
  size.onsuccess = () => {
    const c = size.result;
    if (!c) return;
    out.entries[c.key] = c.value;
    c.continue();
  };
}`

type idbContents struct {
	packs   map[int]int64 // pack -> bytes
	named   []string      // data keys of the layout before packs
	entries map[string]js.Value
}

func readIDBContents(t *testing.T, name string) idbContents {
	t.Helper()
	v := inIDB(t, name, "readonly", idbContentsJS)
	c := idbContents{packs: map[int]int64{}, entries: map[string]js.Value{}}
	keys := js.Global().Get("Object").Call("keys", v.Get("packs"))
	for i := range keys.Length() {
		var p int
		fmt.Sscan(keys.Index(i).String(), &p)
		c.packs[p] = int64(v.Get("packs").Get(keys.Index(i).String()).Float())
	}
	for i := range v.Get("named").Length() {
		c.named = append(c.named, v.Get("named").Index(i).String())
	}
	keys = js.Global().Get("Object").Call("keys", v.Get("entries"))
	for i := range keys.Length() {
		k := keys.Index(i).String()
		c.entries[k] = v.Get("entries").Get(k)
	}
	return c
}

func (c idbContents) packBytes() (n int64) {
	for _, b := range c.packs {
		n += b
	}
	return n
}

// TestIDBPacks: segments are stored in packs, one family of names to a
// pack; a pack goes with its last segment; packs are numbered after every
// existing one when the store is reopened; and segments of the layout
// before packs are still listed, read and removed.
func TestIDBPacks(t *testing.T) {
	fs, _, name := openWriterStore(t)
	content := func(prefix string, i, n int) []byte {
		return bytes.Repeat([]byte(fmt.Sprintf("%s%d.", prefix, i)), n)
	}
	var dBytes int64
	for i := range 12 {
		q := fmt.Sprintf("q%016x", i)
		if err := fs.WriteSegment(q, content("q", i, 20000)); err != nil {
			t.Fatal(err)
		}
		d := fmt.Sprintf("d%016x", i)
		data := content("d", i, 60000)
		if err := fs.WriteSegment(d, data); err != nil {
			t.Fatal(err)
		}
		dBytes += int64(len(data))
	}
	if err := fs.Sync(); err != nil {
		t.Fatal(err)
	}
	c := readIDBContents(t, name)
	if len(c.named) != 0 || len(c.entries) != 24 {
		t.Fatalf("after 24 writes: %d size entries, data under names %v; want 24, none", len(c.entries), c.named)
	}
	packOf := map[string]int{}
	for seg, v := range c.entries {
		if v.Type() != js.TypeObject {
			t.Fatalf("size entry of %s = %v, want {pack, offset, len}", seg, v)
		}
		packOf[seg] = v.Get("pack").Int()
	}
	for i := range 12 {
		for j := range 12 {
			if q, d := packOf[fmt.Sprintf("q%016x", i)], packOf[fmt.Sprintf("d%016x", j)]; q == d {
				t.Fatalf("q%016x and d%016x share pack %d: a pack must hold one family", i, j, q)
			}
		}
	}
	// Read back where the writer said it put them (reads after reopening,
	// below, find them through the size store).
	for i := range 12 {
		for _, f := range []struct {
			prefix string
			n      int
		}{{"q", 20000}, {"d", 60000}} {
			seg := fmt.Sprintf("%s%016x", f.prefix, i)
			if got, err := fs.ReadSegment(seg, nil); err != nil || !bytes.Equal(got, content(f.prefix, i, f.n)) {
				t.Fatalf("ReadSegment(%s) = %d bytes, %v; want what was written", seg, len(got), err)
			}
		}
	}
	for i := range 12 {
		if err := fs.RemoveSegment(fmt.Sprintf("q%016x", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := fs.Sync(); err != nil {
		t.Fatal(err)
	}
	if c = readIDBContents(t, name); c.packBytes() != dBytes {
		t.Fatalf("with only the d segments left, packs hold %d bytes, want their %d", c.packBytes(), dBytes)
	}
	maxPack := 0
	for p := range c.packs {
		maxPack = max(maxPack, p)
	}
	fs.Close()

	// A segment as a version before packs stored it.
	old := []byte("written before packs")
	u8 := js.Global().Get("Uint8Array").New(len(old))
	js.CopyBytesToJS(u8, old)
	inIDB(t, name, "readwrite", `(tx, out, data) => {
  tx.objectStore('data').put(new Blob([data]), 'old');
  tx.objectStore('size').put(data.length, 'old');
}`, u8)

	fs, err := NewIndexedDB(name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	segs, err := fs.ListSegments("")
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) != 13 {
		t.Fatalf("after reopening, %d segments listed, want 12 d and old", len(segs))
	}
	if got, err := fs.ReadSegment("old", nil); err != nil || !bytes.Equal(got, old) {
		t.Fatalf("ReadSegment(old) = %q, %v; want %q", got, err, old)
	}
	if err := fs.WriteSegment(fmt.Sprintf("x%016x", 0), []byte("after reopening")); err != nil {
		t.Fatal(err)
	}
	if err := fs.RemoveSegment("old"); err != nil {
		t.Fatal(err)
	}
	if err := fs.Sync(); err != nil {
		t.Fatal(err)
	}
	c = readIDBContents(t, name)
	if len(c.named) != 0 {
		t.Fatalf("after removing old, data is still stored under %v", c.named)
	}
	if p := c.entries[fmt.Sprintf("x%016x", 0)].Get("pack").Int(); p <= maxPack {
		t.Fatalf("the pack written after reopening is %d, want one after every earlier pack (%d)", p, maxPack)
	}
	for i := range 12 {
		d := fmt.Sprintf("d%016x", i)
		if got, err := fs.ReadSegment(d, nil); err != nil || !bytes.Equal(got, content("d", i, 60000)) {
			t.Fatalf("ReadSegment(%s) after reopening = %d bytes, %v", d, len(got), err)
		}
		if err := fs.RemoveSegment(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := fs.RemoveSegment(fmt.Sprintf("x%016x", 0)); err != nil {
		t.Fatal(err)
	}
	if err := fs.Sync(); err != nil {
		t.Fatal(err)
	}
	if c = readIDBContents(t, name); len(c.packs) != 0 || len(c.entries) != 0 {
		t.Fatalf("with every segment removed the database holds packs %v and entries %d", c.packs, len(c.entries))
	}

	// A pack lost from outside: reading its segment fails, and does not hang.
	lost := fmt.Sprintf("y%016x", 0)
	if err := fs.WriteSegment(lost, []byte("its pack goes")); err != nil {
		t.Fatal(err)
	}
	if err := fs.Sync(); err != nil {
		t.Fatal(err)
	}
	pack := readIDBContents(t, name).entries[lost].Get("pack").Int()
	inIDB(t, name, "readwrite", `(tx, out, pack) => tx.objectStore('data').delete(pack)`, pack)
	if _, err := fs.ReadSegment(lost, nil); !errors.Is(err, ErrNotExist) {
		t.Fatalf("ReadSegment of a segment whose pack is gone = %v, want ErrNotExist", err)
	}
}
