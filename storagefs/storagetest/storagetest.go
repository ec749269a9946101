// Package storagetest is the semantics suite every storagefs backend runs,
// plus a fault-injecting FS and segment benchmarks.
//
// A backend's test calls Run with a Harness that opens fresh stores; each
// case gets its own store, so cases do not depend on one another.
package storagetest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/locus-mc/locus/storagefs"
)

// Harness opens stores of one backend for the suite.
type Harness struct {
	// New returns a new, empty store. Every call returns a different store.
	New func(t testing.TB, opts storagefs.Options) storagefs.FS

	// Reopen, if set, opens again the store fs (already closed) refers to,
	// for backends whose segments outlive a store value.
	Reopen func(t testing.TB, fs storagefs.FS, opts storagefs.Options) storagefs.FS

	// Vanish, if set, deletes fs's directory or database behind its back,
	// as a user clearing site data or a directory would.
	Vanish func(t testing.TB, fs storagefs.FS)

	// Kind is what FS.Kind must report.
	Kind string
}

// Case is one step sequence of the suite.
type Case struct {
	Name string
	Run  func(t *testing.T, h Harness, fs storagefs.FS)
	Opts storagefs.Options // options the case's store is opened with
}

// Cases is the suite, in order.
var Cases = []Case{
	{Name: "Empty", Run: testEmpty},
	{Name: "WriteRead", Run: testWriteRead},
	{Name: "CallerReusesBuffer", Run: testCallerReusesBuffer},
	{Name: "ChunkedRead", Run: testChunkedRead},
	{Name: "WriteOnce", Run: testWriteOnce},
	{Name: "Remove", Run: testRemove},
	{Name: "List", Run: testList},
	{Name: "InvalidNames", Run: testInvalidNames},
	{Name: "EmptySegment", Run: testEmptySegment},
	{Name: "LargeSegments", Run: testLargeSegments},
	{Name: "ManySegments", Run: testManySegments},
	{Name: "Stats", Run: testStats},
	{Name: "Quota", Run: testQuota, Opts: storagefs.Options{MaxBytes: 3 << 20}},
	{Name: "SpaceAndPersist", Run: testSpaceAndPersist},
	{Name: "Closed", Run: testClosed},
	{Name: "Reopen", Run: testReopen},
	{Name: "Vanish", Run: testVanish},
}

// Run runs every case of the suite against h's backend.
func Run(t *testing.T, h Harness) {
	for _, c := range Cases {
		t.Run(c.Name, func(t *testing.T) {
			fs := h.New(t, c.Opts)
			defer fs.Close()
			if got := fs.Kind(); got != h.Kind {
				t.Fatalf("Kind() = %q, want %q", got, h.Kind)
			}
			c.Run(t, h, fs)
		})
	}
}

// Pattern returns n bytes that differ for every seed and position, so a
// misplaced or stale chunk shows.
func Pattern(seed, n int) []byte {
	b := make([]byte, n)
	x := uint32(seed)*2654435761 + 1
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

// wantErr fails t unless err matches target and is a *storagefs.Error
// naming op.
func wantErr(t testing.TB, call string, err, target error, op string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s = %v, want %v", call, err, target)
	}
	var se *storagefs.Error
	if !errors.As(err, &se) {
		t.Fatalf("%s = %T %v, want a *storagefs.Error", call, err, err)
	}
	if op != "" && se.Op != op {
		t.Fatalf("%s: Error.Op = %q, want %q", call, se.Op, op)
	}
}

func write(t testing.TB, fs storagefs.FS, name string, data []byte) {
	t.Helper()
	if err := fs.WriteSegment(name, data); err != nil {
		t.Fatalf("WriteSegment(%q, %d bytes) = %v", name, len(data), err)
	}
}

func read(t testing.TB, fs storagefs.FS, name string, want []byte) {
	t.Helper()
	got, err := fs.ReadSegment(name, nil)
	if err != nil {
		t.Fatalf("ReadSegment(%q) = %v", name, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("ReadSegment(%q) = %d bytes %s, want %d bytes %s", name, len(got), head(got), len(want), head(want))
	}
}

func head(b []byte) string {
	if len(b) > 8 {
		b = b[:8]
	}
	return fmt.Sprintf("%x...", b)
}

func names(segs []storagefs.SegmentInfo) string {
	var s []string
	for _, g := range segs {
		s = append(s, fmt.Sprintf("%s:%d", g.Name, g.Size))
	}
	return "[" + strings.Join(s, " ") + "]"
}

func list(t testing.TB, fs storagefs.FS, prefix, want string) {
	t.Helper()
	segs, err := fs.ListSegments(prefix)
	if err != nil {
		t.Fatalf("ListSegments(%q) = %v", prefix, err)
	}
	if got := names(segs); got != want {
		t.Fatalf("ListSegments(%q) = %s, want %s", prefix, got, want)
	}
}

func testEmpty(t *testing.T, h Harness, fs storagefs.FS) {
	list(t, fs, "", "[]")
	_, err := fs.ReadSegment("missing", nil)
	wantErr(t, `ReadSegment("missing")`, err, storagefs.ErrNotExist, "read")
	_, err = fs.OpenSegment("missing")
	wantErr(t, `OpenSegment("missing")`, err, storagefs.ErrNotExist, "open")
	err = fs.RemoveSegment("missing")
	wantErr(t, `RemoveSegment("missing")`, err, storagefs.ErrNotExist, "remove")
	if got := fs.Stats(); got != (storagefs.Stats{}) {
		t.Fatalf("Stats() = %+v, want zero", got)
	}
}

func testWriteRead(t *testing.T, h Harness, fs storagefs.FS) {
	data := Pattern(1, 100_000)
	write(t, fs, "seg-1", data)
	read(t, fs, "seg-1", data)

	// A buffer with room is filled in place, not reallocated.
	buf := make([]byte, 7, len(data)+10)
	got, err := fs.ReadSegment("seg-1", buf)
	if err != nil {
		t.Fatalf("ReadSegment into buffer = %v", err)
	}
	if &got[0] != &buf[:1][0] || !bytes.Equal(got, data) {
		t.Fatalf("ReadSegment into a buffer of capacity %d did not fill it in place", cap(buf))
	}
	// A small buffer is replaced.
	got, err = fs.ReadSegment("seg-1", make([]byte, 10))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadSegment into a small buffer = %d bytes, %v", len(got), err)
	}
}

func testCallerReusesBuffer(t *testing.T, h Harness, fs storagefs.FS) {
	data := Pattern(2, 4096)
	want := bytes.Clone(data)
	write(t, fs, "a", data)
	for i := range data {
		data[i] = 0xEE
	}
	read(t, fs, "a", want)
	got, err := fs.ReadSegment("a", nil)
	if err != nil {
		t.Fatal(err)
	}
	got[0] ^= 0xFF // the returned slice is the caller's, too
	read(t, fs, "a", want)
}

func testChunkedRead(t *testing.T, h Harness, fs storagefs.FS) {
	big := Pattern(3, 3<<20+123)
	small := big[:50_000] // tiny reads of 3 MiB take minutes under Node
	write(t, fs, "big", big)
	write(t, fs, "small", small)
	for _, chunk := range []int{1 << 20, 4096, 7, 1} {
		t.Run(fmt.Sprint(chunk), func(t *testing.T) {
			name, data := "big", big
			if chunk < 100 {
				name, data = "small", small
			}
			seg, err := fs.OpenSegment(name)
			if err != nil {
				t.Fatalf("OpenSegment = %v", err)
			}
			defer seg.Close()
			if seg.Size() != int64(len(data)) {
				t.Fatalf("Size() = %d, want %d", seg.Size(), len(data))
			}
			var got []byte
			p := make([]byte, chunk)
			for {
				n, err := seg.Read(p)
				got = append(got, p[:n]...)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("Read after %d bytes = %v", len(got), err)
				}
				if n == 0 {
					t.Fatalf("Read after %d bytes returned 0, nil", len(got))
				}
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("chunked read of %d-byte pieces: got %d bytes, want %d (contents differ: %v)", chunk, len(got), len(data), len(got) == len(data))
			}
			if n, err := seg.Read(p); n != 0 || err != io.EOF {
				t.Fatalf("Read at end = %d, %v, want 0, EOF", n, err)
			}
			if err := seg.Close(); err != nil {
				t.Fatalf("Close = %v", err)
			}
			if err := seg.Close(); err != nil {
				t.Fatalf("second Close = %v", err)
			}
			_, err = seg.Read(p)
			wantErr(t, "Read after Close", err, storagefs.ErrClosed, "read")
		})
	}
}

func testWriteOnce(t *testing.T, h Harness, fs storagefs.FS) {
	first, second := Pattern(4, 5000), Pattern(5, 3000)
	write(t, fs, "w", first)
	err := fs.WriteSegment("w", second)
	wantErr(t, `second WriteSegment("w")`, err, storagefs.ErrExist, "write")
	read(t, fs, "w", first)
	list(t, fs, "", "[w:5000]")
	if err := fs.RemoveSegment("w"); err != nil {
		t.Fatalf("RemoveSegment = %v", err)
	}
	write(t, fs, "w", second)
	read(t, fs, "w", second)
}

func testRemove(t *testing.T, h Harness, fs storagefs.FS) {
	write(t, fs, "x", Pattern(6, 10))
	write(t, fs, "y", Pattern(7, 20))
	if err := fs.RemoveSegment("x"); err != nil {
		t.Fatalf("RemoveSegment(x) = %v", err)
	}
	list(t, fs, "", "[y:20]")
	_, err := fs.ReadSegment("x", nil)
	wantErr(t, "ReadSegment after remove", err, storagefs.ErrNotExist, "read")
	err = fs.RemoveSegment("x")
	wantErr(t, "second RemoveSegment", err, storagefs.ErrNotExist, "remove")
	read(t, fs, "y", Pattern(7, 20))
}

func testList(t *testing.T, h Harness, fs storagefs.FS) {
	for i, name := range []string{"q-000002", "q-000001", "r-1", "q-000010", "Q-1"} {
		write(t, fs, name, Pattern(i, 100+i))
	}
	list(t, fs, "q-", "[q-000001:101 q-000002:100 q-000010:103]")
	list(t, fs, "", "[Q-1:104 q-000001:101 q-000002:100 q-000010:103 r-1:102]")
	list(t, fs, "zz", "[]")
	if err := storagefs.RemoveAll(fs, "q-"); err != nil {
		t.Fatalf("RemoveAll(q-) = %v", err)
	}
	list(t, fs, "", "[Q-1:104 r-1:102]")
}

func testInvalidNames(t *testing.T, h Harness, fs storagefs.FS) {
	bad := []string{"", ".", "..", ".hidden", "a/b", "a\\b", "a b", "ä", "a:b", strings.Repeat("n", storagefs.MaxNameLen+1)}
	for _, name := range bad {
		err := fs.WriteSegment(name, []byte("x"))
		wantErr(t, fmt.Sprintf("WriteSegment(%q)", name), err, storagefs.ErrInvalidName, "write")
		_, err = fs.ReadSegment(name, nil)
		wantErr(t, fmt.Sprintf("ReadSegment(%q)", name), err, storagefs.ErrInvalidName, "read")
		_, err = fs.OpenSegment(name)
		wantErr(t, fmt.Sprintf("OpenSegment(%q)", name), err, storagefs.ErrInvalidName, "open")
		err = fs.RemoveSegment(name)
		wantErr(t, fmt.Sprintf("RemoveSegment(%q)", name), err, storagefs.ErrInvalidName, "remove")
	}
	good := strings.Repeat("n", storagefs.MaxNameLen)
	write(t, fs, good, []byte("ok"))
	write(t, fs, "A.z_0-9", []byte("ok"))
	list(t, fs, "", fmt.Sprintf("[A.z_0-9:2 %s:2]", good))
}

func testEmptySegment(t *testing.T, h Harness, fs storagefs.FS) {
	write(t, fs, "empty", nil)
	read(t, fs, "empty", []byte{})
	list(t, fs, "", "[empty:0]")
	err := fs.WriteSegment("empty", []byte("x"))
	wantErr(t, "WriteSegment over an empty segment", err, storagefs.ErrExist, "write")
}

func testLargeSegments(t *testing.T, h Harness, fs storagefs.FS) {
	data := Pattern(8, storagefs.MaxSegmentSize)
	write(t, fs, "max", data)
	got, err := fs.ReadSegment("max", make([]byte, 0, len(data)))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadSegment(max) = %d bytes, %v; want the %d written", len(got), err, len(data))
	}
	err = fs.WriteSegment("over", make([]byte, storagefs.MaxSegmentSize+1))
	wantErr(t, "WriteSegment of MaxSegmentSize+1 bytes", err, storagefs.ErrTooLarge, "write")
	list(t, fs, "", fmt.Sprintf("[max:%d]", storagefs.MaxSegmentSize))
}

func testManySegments(t *testing.T, h Harness, fs storagefs.FS) {
	const n = 150
	for i := 0; i < n; i++ {
		write(t, fs, fmt.Sprintf("m-%05d", i), Pattern(i, 1000+i*7))
	}
	segs, err := fs.ListSegments("m-")
	if err != nil || len(segs) != n {
		t.Fatalf("ListSegments = %d segments, %v; want %d", len(segs), err, n)
	}
	for i, s := range segs {
		if want := fmt.Sprintf("m-%05d", i); s.Name != want || s.Size != int64(1000+i*7) {
			t.Fatalf("segment %d = %s:%d, want %s:%d", i, s.Name, s.Size, want, 1000+i*7)
		}
	}
	for i := n - 1; i >= 0; i -= 13 {
		read(t, fs, fmt.Sprintf("m-%05d", i), Pattern(i, 1000+i*7))
	}
	if err := storagefs.RemoveAll(fs, ""); err != nil {
		t.Fatalf("RemoveAll = %v", err)
	}
	list(t, fs, "", "[]")
}

func testStats(t *testing.T, h Harness, fs storagefs.FS) {
	write(t, fs, "s1", Pattern(1, 1000))
	write(t, fs, "s2", Pattern(2, 3000))
	fs.WriteSegment("s1", Pattern(1, 50)) // refused: counts nothing
	fs.WriteSegment("bad name", nil)      // refused: counts nothing
	read(t, fs, "s2", Pattern(2, 3000))
	seg, err := fs.OpenSegment("s1")
	if err != nil {
		t.Fatal(err)
	}
	io.ReadFull(seg, make([]byte, 400)) // partial chunked read counts what was read
	seg.Close()
	fs.ReadSegment("missing", nil) // counts nothing
	if err := fs.RemoveSegment("s1"); err != nil {
		t.Fatal(err)
	}
	want := storagefs.Stats{
		BytesWritten:    4000,
		BytesRead:       3400,
		SegmentsWritten: 2,
		SegmentsRead:    2,
		SegmentsRemoved: 1,
		LiveBytes:       3000,
	}
	if got := fs.Stats(); got != want {
		t.Fatalf("Stats() = %+v, want %+v", got, want)
	}
}

func testQuota(t *testing.T, h Harness, fs storagefs.FS) {
	// The case's store is capped at 3 MiB.
	write(t, fs, "a", Pattern(1, 2<<20))
	err := fs.WriteSegment("b", Pattern(2, 2<<20))
	wantErr(t, "WriteSegment past MaxBytes", err, storagefs.ErrQuotaExceeded, "write")
	if !strings.Contains(err.Error(), "quota") {
		t.Fatalf("quota error %q does not say quota", err)
	}
	list(t, fs, "", "[a:2097152]")
	sp, err := fs.Space()
	if err != nil {
		t.Fatalf("Space() = %v", err)
	}
	if sp.Free != 1<<20 || sp.Quota > 3<<20 {
		t.Fatalf("Space() = %+v, want Free 1 MiB and Quota <= 3 MiB", sp)
	}
	write(t, fs, "c", Pattern(3, 1<<20)) // exactly fills the cap
	if err := fs.RemoveSegment("a"); err != nil {
		t.Fatal(err)
	}
	write(t, fs, "b", Pattern(2, 2<<20))
	read(t, fs, "b", Pattern(2, 2<<20))
	if got := fs.Stats().LiveBytes; got != 3<<20 {
		t.Fatalf("LiveBytes = %d, want %d", got, 3<<20)
	}
}

func testSpaceAndPersist(t *testing.T, h Harness, fs storagefs.FS) {
	sp, err := fs.Space()
	if err != nil {
		t.Fatalf("Space() = %v", err)
	}
	if sp.Free < -1 || sp.Known() && sp.Quota >= 0 && sp.Free > sp.Quota {
		t.Fatalf("Space() = %+v: inconsistent", sp)
	}
	t.Logf("Space() = %+v", sp)
	ok, err := fs.Persist()
	if err != nil {
		t.Fatalf("Persist() = %v", err)
	}
	t.Logf("Persist() = %v", ok)
}

func testClosed(t *testing.T, h Harness, fs storagefs.FS) {
	write(t, fs, "c", []byte("data"))
	if err := fs.Close(); err != nil {
		t.Fatalf("Close() = %v", err)
	}
	if err := fs.Close(); err != nil {
		t.Fatalf("second Close() = %v", err)
	}
	wantErr(t, "WriteSegment after Close", fs.WriteSegment("d", nil), storagefs.ErrClosed, "write")
	_, err := fs.ReadSegment("c", nil)
	wantErr(t, "ReadSegment after Close", err, storagefs.ErrClosed, "read")
	_, err = fs.ListSegments("")
	wantErr(t, "ListSegments after Close", err, storagefs.ErrClosed, "list")
	wantErr(t, "RemoveSegment after Close", fs.RemoveSegment("c"), storagefs.ErrClosed, "remove")
}

func testReopen(t *testing.T, h Harness, fs storagefs.FS) {
	if h.Reopen == nil {
		t.Skipf("%s segments do not outlive the store value", h.Kind)
	}
	write(t, fs, "keep-1", Pattern(1, 1234))
	write(t, fs, "keep-2", Pattern(2, 99))
	if err := fs.Close(); err != nil {
		t.Fatal(err)
	}
	fs2 := h.Reopen(t, fs, storagefs.Options{MaxBytes: 2000})
	defer fs2.Close()
	list(t, fs2, "", "[keep-1:1234 keep-2:99]")
	read(t, fs2, "keep-1", Pattern(1, 1234))
	err := fs2.WriteSegment("keep-2", []byte("x"))
	wantErr(t, "WriteSegment over a segment from an earlier store value", err, storagefs.ErrExist, "write")
	if got := fs2.Stats().LiveBytes; got != 1333 {
		t.Fatalf("LiveBytes after reopen = %d, want 1333", got)
	}
	err = fs2.WriteSegment("more", make([]byte, 700))
	wantErr(t, "WriteSegment past MaxBytes counting old segments", err, storagefs.ErrQuotaExceeded, "write")
}

func testVanish(t *testing.T, h Harness, fs storagefs.FS) {
	if h.Vanish == nil {
		t.Skipf("%s stores cannot be deleted from outside", h.Kind)
	}
	write(t, fs, "v1", Pattern(1, 5000))
	h.Vanish(t, fs)
	err := fs.WriteSegment("v2", Pattern(2, 5000))
	wantErr(t, "WriteSegment after the store vanished", err, storagefs.ErrStoreGone, "write")
	_, err = fs.ReadSegment("v1", nil)
	wantErr(t, "ReadSegment after the store vanished", err, storagefs.ErrStoreGone, "read")
	_, err = fs.ListSegments("")
	wantErr(t, "ListSegments after the store vanished", err, storagefs.ErrStoreGone, "list")
	if !strings.Contains(err.Error(), "deleted") {
		t.Fatalf("vanished-store error %q does not say the storage was deleted", err)
	}
}

// FillUntilQuota writes 1 MiB segments to a new store until the backend's
// own quota (limit bytes, imposed on the whole origin from outside) refuses
// one, and checks the refusal is a clear ErrQuotaExceeded that leaves the
// store usable.
func FillUntilQuota(t *testing.T, h Harness, limit int64) {
	fs := h.New(t, storagefs.Options{})
	defer fs.Close()
	const size = 1 << 20
	data := Pattern(9, size)
	var err error
	n := 0
	for ; int64(n)*size <= 2*limit+size; n++ {
		if err = fs.WriteSegment(fmt.Sprintf("fill-%04d", n), data); err != nil {
			break
		}
	}
	if err == nil {
		t.Fatalf("wrote %d MiB under an origin quota of %d bytes without a quota error", n, limit)
	}
	wantErr(t, fmt.Sprintf("WriteSegment of MiB %d", n+1), err, storagefs.ErrQuotaExceeded, "write")
	t.Logf("quota error after %d MiB: %v", n, err)
	segs, lerr := fs.ListSegments("fill-")
	if lerr != nil || len(segs) != n {
		t.Fatalf("after the quota error ListSegments = %d segments, %v; want the %d written", len(segs), lerr, n)
	}
	if n > 0 {
		read(t, fs, "fill-0000", data)
		if err := fs.RemoveSegment("fill-0000"); err != nil {
			t.Fatalf("RemoveSegment after the quota error = %v", err)
		}
	}
	if err := storagefs.RemoveAll(fs, "fill-"); err != nil {
		t.Fatalf("RemoveAll after the quota error = %v", err)
	}
	write(t, fs, "after", data[:1000])
}
