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

// openWriterStore opens a fresh IndexedDB store that writes through a
// writer Worker, and returns it with its driver.
func openWriterStore(t *testing.T) (FS, *idbDriver, string) {
	t.Helper()
	if !idbWorkersAvailable() {
		t.Skip("no Workers here (Node): the IndexedDB writer Worker runs only in a browser")
	}
	name := fmt.Sprintf("locus-test-writer-%d", time.Now().UnixNano())
	t.Cleanup(func() { VanishIndexedDB(name) })
	fs, err := NewIndexedDB(name, Options{})
	if err != nil {
		t.Fatalf("NewIndexedDB = %v", err)
	}
	d := fs.(*store).d.(*idbDriver)
	if d.w == nil {
		t.Fatal("Workers exist here but the store has no writer Worker")
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
	// A buffer that is not an ArrayBuffer cannot be handed back: the
	// writer's postMessage throws.
	d.mu.Lock()
	d.seq++
	d.w.posted = append(d.w.posted, idbPosted{name: "odd", seq: d.seq})
	d.w.worker.Call("postMessage", map[string]any{"seq": d.seq, "name": "odd", "buf": 5, "len": 1})
	d.mu.Unlock()
	if err := fs.Sync(); err == nil || !strings.Contains(err.Error(), "writer Worker failed") {
		t.Fatalf("Sync after the writer threw = %v, want the writer's failure", err)
	}
}
