package queue_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/queue"
	"github.com/locus-mc/locus/storagefs"
	"github.com/locus-mc/locus/storagefs/storagetest"
)

// stores returns the storagefs backends the disk queues are tested on:
// memory everywhere, and an OS directory natively (under Node the OS
// store works but is slow).
func stores(t testing.TB) map[string]func() storagefs.FS {
	m := map[string]func() storagefs.FS{
		"memfs": func() storagefs.FS { return storagefs.NewMemory(storagefs.Options{}) },
	}
	if runtime.GOOS != "js" {
		m["osfs"] = func() storagefs.FS {
			fs, err := storagefs.NewOS(t.TempDir(), storagefs.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return fs
		}
	}
	return m
}

// record returns a record of size n that differs for every i.
func record(i, n int) []byte {
	r := make([]byte, n)
	x := uint64(i)*0x9E3779B97F4A7C15 + 1
	for j := range r {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		r[j] = byte(x)
	}
	if n >= 8 {
		for j := 0; j < 8; j++ {
			r[j] = byte(i >> (8 * j))
		}
	}
	return r
}

// queueUnderTest is what FIFO and LIFO have in common.
type queueUnderTest interface {
	Push([]byte) error
	Pop() ([]byte, error)
	Len() int64
	RecordSize() int
	Stats() queue.Stats
	Close() error
}

// checkInvariants fails t if q's counters disagree with the model's
// length or its memory exceeds limit (when limit > 0).
func checkInvariants(t *testing.T, q queueUnderTest, b *budget.Budget, want int, limit int64) {
	t.Helper()
	st := q.Stats()
	if q.Len() != int64(want) || st.InMemory+st.OnDisk != int64(want) {
		t.Fatalf("Len() = %d, Stats() = %+v; want %d records", q.Len(), st, want)
	}
	if st.MemoryBytes != b.Part(queue.Part) {
		t.Fatalf("Stats().MemoryBytes = %d, budget part %q = %d", st.MemoryBytes, queue.Part, b.Part(queue.Part))
	}
	if limit > 0 && st.MemoryBytes > limit {
		t.Fatalf("queue holds %d bytes of memory, share is %d", st.MemoryBytes, limit)
	}
}

// phases are push probabilities run in turn: growth, churn, shrinking,
// then a burst up and a full drain, so heads, tails and segments meet in
// every arrangement.
var phases = []struct {
	ops   int
	pPush float64
}{{3000, 0.7}, {3000, 0.5}, {2000, 0.35}, {2500, 1}, {0, 0}}

// runModel drives q with random pushes and pops, comparing with a slice
// model; lifo selects stack order. It also checks that a popped record
// stays intact until the next Pop, whatever is pushed meanwhile.
func runModel(t *testing.T, q queueUnderTest, b *budget.Budget, limit int64, lifo bool, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	n := q.RecordSize()
	var model [][]byte
	var last, lastWant []byte
	next := 0
	pop := func() {
		if last != nil && !bytes.Equal(last, lastWant) {
			t.Fatalf("record returned by the previous Pop changed before this Pop: %x, want %x", last, lastWant)
		}
		got, err := q.Pop()
		if err != nil {
			t.Fatalf("Pop() = %v", err)
		}
		if len(model) == 0 {
			if got != nil {
				t.Fatalf("Pop() on an empty queue = %x, want nil", got)
			}
			last = nil
			return
		}
		var want []byte
		if lifo {
			want, model = model[len(model)-1], model[:len(model)-1]
		} else {
			want, model = model[0], model[1:]
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("Pop() = %x, want %x (%d left)", got, want, len(model))
		}
		last, lastWant = got, want
	}
	for _, ph := range phases {
		ops := ph.ops
		if ph.pPush == 0 {
			ops = len(model) + 2 // drain, then pop an empty queue twice
		}
		for i := 0; i < ops; i++ {
			if rng.Float64() < ph.pPush {
				r := record(next, n)
				next++
				if err := q.Push(r); err != nil {
					t.Fatalf("Push(record %d) = %v", next-1, err)
				}
				model = append(model, r)
			} else {
				pop()
			}
			checkInvariants(t, q, b, len(model), limit)
		}
	}
}

func TestFIFOModel(t *testing.T) {
	tests := []struct {
		name     string
		recSize  int
		memShare int64 // 0: memory-only queue
		minSeg   int64 // if set, the smallest segment (default 1 MiB)
	}{
		{"memory-rec1", 1, 0, 0},
		{"memory-rec24", 24, 0, 0},
		{"memory-rec100", 100, 0, 0},
		{"disk-rec8-two-chunks", 8, 256, 0},
		{"disk-rec24-odd-share", 24, 1000, 0},
		{"disk-rec3-two-chunks", 3, 3000, 0},
		{"disk-rec100-two-records", 100, 200, 0},
		{"disk-rec8-eight-chunks", 8, 2048, 1},
		{"disk-rec3-eight-odd-chunks", 3, 1000, 1},
		{"disk-rec1-many-chunks", 1, 777, 1},
	}
	for _, tt := range tests {
		if tt.memShare == 0 {
			t.Run(tt.name, func(t *testing.T) {
				b := budget.New(0)
				q := queue.NewMemory(tt.recSize, b)
				runModel(t, q, b, 0, false, 1)
				if err := q.Close(); err != nil {
					t.Fatal(err)
				}
				if b.Used() != 0 {
					t.Fatalf("budget holds %d bytes after Close", b.Used())
				}
			})
			continue
		}
		for fsName, newFS := range stores(t) {
			t.Run(tt.name+"-"+fsName, func(t *testing.T) {
				if tt.minSeg > 0 {
					defer queue.SetMinSegment(tt.minSeg)()
				}
				b := budget.New(0)
				fs := newFS()
				q, err := queue.NewDisk(tt.recSize, b, tt.memShare, fs, "q-")
				if err != nil {
					t.Fatalf("NewDisk = %v", err)
				}
				runModel(t, q, b, tt.memShare, false, uint64(tt.recSize))
				st := q.Stats()
				if st.SegmentsWritten == 0 || st.SegmentsRead != st.SegmentsWritten {
					t.Fatalf("Stats() = %+v: want segments written, and all read back after the drain", st)
				}
				if err := q.Close(); err != nil {
					t.Fatal(err)
				}
				wantNoSegments(t, fs)
				if b.Used() != 0 {
					t.Fatalf("budget holds %d bytes after Close", b.Used())
				}
			})
		}
	}
}

func TestLIFOModel(t *testing.T) {
	tests := []struct {
		name     string
		recSize  int
		memShare int64
	}{
		{"memory-rec16", 16, 0},
		{"disk-rec8-two-chunks", 8, 256},
		{"disk-rec5-two-chunks", 5, 2000},
		{"disk-rec5-eight-chunks", 5, 4000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := budget.New(0)
			fs := storagefs.NewMemory(storagefs.Options{})
			if tt.name == "disk-rec5-eight-chunks" {
				defer queue.SetMinSegment(1)()
			}
			var q queue.LIFO
			if tt.memShare == 0 {
				q = queue.NewMemoryLIFO(tt.recSize, b)
			} else {
				var err error
				if q, err = queue.NewDiskLIFO(tt.recSize, b, tt.memShare, fs, "s-"); err != nil {
					t.Fatalf("NewDiskLIFO = %v", err)
				}
			}
			runModel(t, q, b, tt.memShare, true, 7)
			if tt.memShare > 0 && q.Stats().SegmentsWritten == 0 {
				t.Fatalf("Stats() = %+v: the stack never swapped", q.Stats())
			}
			if err := q.Close(); err != nil {
				t.Fatal(err)
			}
			wantNoSegments(t, fs)
			if b.Used() != 0 {
				t.Fatalf("budget holds %d bytes after Close", b.Used())
			}
		})
	}
}

func wantNoSegments(t *testing.T, fs storagefs.FS) {
	t.Helper()
	segs, err := fs.ListSegments("")
	if err != nil || len(segs) != 0 {
		t.Fatalf("segments left after Close: %v, %v", segs, err)
	}
}

// TestFIFOSwapCounts follows Fig. 5 exactly: 8-byte records, a 256-byte
// share, so two chunks of 16 records. The first 32 records fill memory;
// every 16 after that swap one chunk out.
func TestFIFOSwapCounts(t *testing.T) {
	b := budget.New(0)
	fs := storagefs.NewMemory(storagefs.Options{})
	q, err := queue.NewDisk(8, b, 256, fs, "fig5-")
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for i := 0; i < 100; i++ {
		if err := q.Push(record(i, 8)); err != nil {
			t.Fatal(err)
		}
	}
	want := queue.Stats{InMemory: 20, OnDisk: 80, MemoryBytes: 256, BytesWritten: 640, SegmentsWritten: 5}
	if got := q.Stats(); got != want {
		t.Fatalf("after 100 pushes Stats() = %+v, want %+v", got, want)
	}
	if got := fs.Stats().BytesWritten; got != 640 {
		t.Fatalf("store BytesWritten = %d, want 640", got)
	}
	for i := 0; i < 100; i++ {
		got, err := q.Pop()
		if err != nil || !bytes.Equal(got, record(i, 8)) {
			t.Fatalf("Pop %d = %x, %v; want %x", i, got, err, record(i, 8))
		}
	}
	want = queue.Stats{MemoryBytes: 256, BytesWritten: 640, BytesRead: 640, SegmentsWritten: 5, SegmentsRead: 5}
	if got := q.Stats(); got != want {
		t.Fatalf("after draining Stats() = %+v, want %+v", got, want)
	}
	wantNoSegments(t, fs)
}

func TestGeometry(t *testing.T) {
	tests := []struct {
		recSize  int
		memShare int64
		segBytes int64 // bytes per segment, seen as BytesWritten of the first swap
	}{
		{8, 256, 128},
		{24, 1000, 480},
		{100, 200, 100},
		{64, 1 << 20, 512 << 10},
		{64, 8 << 20, 1 << 20},
		{100, 64 << 20, (8 << 20) / 100 * 100},
		{64, 1 << 30, 16 << 20},
		{3 << 20, 10 << 20, 3 << 20}, // records over the 1 MiB floor: one per segment
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("rec%d-share%d", tt.recSize, tt.memShare), func(t *testing.T) {
			b := budget.New(0)
			fs := storagefs.NewMemory(storagefs.Options{})
			q, err := queue.NewDisk(tt.recSize, b, tt.memShare, fs, "g-")
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			if got := b.Part(queue.Part); got != 2*tt.segBytes {
				t.Fatalf("reserved %d bytes at creation, want two chunks of %d", got, tt.segBytes)
			}
			rec := make([]byte, tt.recSize)
			for q.Stats().SegmentsWritten == 0 {
				if err := q.Push(rec); err != nil {
					t.Fatal(err)
				}
			}
			st := q.Stats()
			if st.BytesWritten != tt.segBytes {
				t.Fatalf("first segment is %d bytes, want %d", st.BytesWritten, tt.segBytes)
			}
			if st.MemoryBytes > tt.memShare || st.InMemory*int64(tt.recSize) > tt.memShare {
				t.Fatalf("Stats() = %+v exceeds the share of %d bytes", st, tt.memShare)
			}
			if full := tt.memShare / tt.segBytes * tt.segBytes / int64(tt.recSize); st.InMemory+st.OnDisk != full+1 {
				t.Fatalf("swapped out after %d records, want when the share's %d records were full", st.InMemory+st.OnDisk, full)
			}
		})
	}
}

func TestNewDiskErrors(t *testing.T) {
	fs := storagefs.NewMemory(storagefs.Options{})
	tests := []struct {
		name     string
		recSize  int
		memShare int64
		fs       storagefs.FS
		prefix   string
		limit    int64
		want     string
	}{
		{"share below two records", 100, 150, fs, "q-", 0, "cannot hold the two records of 100 bytes"},
		{"share below one record", 100, 10, fs, "q-", 0, "cannot hold the two records"},
		{"no store", 8, 1 << 20, nil, "q-", 0, "needs a storagefs.FS"},
		{"bad prefix", 8, 1 << 20, fs, "q/", 0, "cannot prefix segment names"},
		{"budget below two chunks", 8, 8 << 20, fs, "q-", 1 << 20, "memory budget of 1.0 MiB exhausted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := budget.New(tt.limit)
			q, err := queue.NewDisk(tt.recSize, b, tt.memShare, tt.fs, tt.prefix)
			if err == nil {
				q.Close()
				t.Fatalf("NewDisk = nil error, want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewDisk = %q, want it to say %q", err, tt.want)
			}
			if b.Used() != 0 {
				t.Fatalf("failed NewDisk left %d bytes reserved", b.Used())
			}
		})
	}
}

func TestNewDiskRemovesLeftovers(t *testing.T) {
	fs := storagefs.NewMemory(storagefs.Options{})
	for _, name := range []string{"old-0000000000000000", "old-0000000000000001", "other-1"} {
		if err := fs.WriteSegment(name, make([]byte, 16)); err != nil {
			t.Fatal(err)
		}
	}
	q, err := queue.NewDisk(8, budget.New(0), 64, fs, "old-")
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for i := 0; i < 20; i++ { // swaps out, reusing the old names
		if err := q.Push(record(i, 8)); err != nil {
			t.Fatalf("Push = %v", err)
		}
	}
	segs, _ := fs.ListSegments("other-")
	if len(segs) != 1 {
		t.Fatalf("NewDisk removed segments outside its prefix: %v", segs)
	}
}

func TestMemoryExhaustion(t *testing.T) {
	tests := []struct {
		recSize int
		limit   int64
	}{{16, 10_000}, {1, 5000}, {100, 1 << 20}}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("rec%d-budget%d", tt.recSize, tt.limit), func(t *testing.T) {
			b := budget.New(tt.limit)
			q := queue.NewMemory(tt.recSize, b)
			var err error
			n := 0
			for ; n < 1<<22; n++ {
				if err = q.Push(record(n, tt.recSize)); err != nil {
					break
				}
			}
			var ex *budget.ErrExhausted
			if !errors.As(err, &ex) || ex.Part != queue.Part {
				t.Fatalf("Push past the budget = %v, want *budget.ErrExhausted for %q", err, queue.Part)
			}
			if q.Len() != int64(n) || b.Used() > tt.limit {
				t.Fatalf("after refusal Len() = %d (want %d), budget used %d of %d", q.Len(), n, b.Used(), tt.limit)
			}
			if int64(n*tt.recSize) < tt.limit/2 {
				t.Fatalf("refused after %d bytes of records, budget %d: chunks waste the budget", n*tt.recSize, tt.limit)
			}
			for i := 0; i < n; i++ {
				got, err := q.Pop()
				if err != nil || !bytes.Equal(got, record(i, tt.recSize)) {
					t.Fatalf("Pop %d = %x, %v", i, got, err)
				}
			}
			// Pop on the empty queue frees the last chunk for reuse; until
			// then it holds the record the last Pop returned.
			if r, err := q.Pop(); r != nil || err != nil {
				t.Fatalf("Pop on the drained queue = %x, %v", r, err)
			}
			// Drained: everything but a chunk or two went back.
			if used := b.Used(); used > 2<<20 || used > tt.limit {
				t.Fatalf("drained queue still holds %d bytes", used)
			}
			if err := q.Push(record(0, tt.recSize)); err != nil {
				t.Fatalf("Push after draining = %v", err)
			}
			q.Close()
			if b.Used() != 0 {
				t.Fatalf("budget holds %d bytes after Close", b.Used())
			}
		})
	}
}

// TestDiskQueueUnderTightBudget: when the budget refuses chunks the share
// would allow, the disk queue swaps out instead of failing.
func TestDiskQueueUnderTightBudget(t *testing.T) {
	b := budget.New(3000)
	fs := storagefs.NewMemory(storagefs.Options{})
	q, err := queue.NewDisk(10, b, 1<<20, fs, "t-") // share 1 MiB: chunks of 512 KiB
	if err == nil {
		q.Close()
		t.Fatal("NewDisk reserved two 512 KiB chunks from a 3000-byte budget")
	}
	// Share of 8 MiB: eight 1 MiB chunks allowed, but the budget affords three.
	b = budget.New(3 << 20)
	q, err = queue.NewDisk(64, b, 8<<20, fs, "t-")
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	const n = 200_000 // 12.2 MiB of records
	for i := 0; i < n; i++ {
		if err := q.Push(record(i, 64)); err != nil {
			t.Fatalf("Push %d = %v", i, err)
		}
	}
	st := q.Stats()
	if st.MemoryBytes != 3<<20 || st.OnDisk == 0 {
		t.Fatalf("Stats() = %+v: want all 3 MiB of the budget used and the rest on disk", st)
	}
	for i := 0; i < n; i++ {
		got, err := q.Pop()
		if err != nil || !bytes.Equal(got, record(i, 64)) {
			t.Fatalf("Pop %d = %x, %v", i, got, err)
		}
	}
}

func TestStorageErrors(t *testing.T) {
	injected := fmt.Errorf("injected: %w", storagefs.ErrQuotaExceeded)
	tests := []struct {
		op       string // FaultFS operation that fails once
		pushes   int    // pushes before the fault is armed
		failPush bool   // the fault surfaces in Push (else in Pop)
		want     string // what the error says
	}{
		{"write", 40, true, "queue: swap-out: storage (fault): write f-"},
		{"read", 100, false, "queue: swap-in: storage (fault): read f-"},
		{"remove", 100, false, "queue: deleting swapped-in segment: storage (fault): remove f-"},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			b := budget.New(0)
			fs := storagetest.NewFaultFS(storagefs.NewMemory(storagefs.Options{}))
			q, err := queue.NewDisk(8, b, 256, fs, "f-")
			if err != nil {
				t.Fatal(err)
			}
			var model [][]byte
			push := func(i int) error {
				err := q.Push(record(i, 8))
				if err == nil {
					model = append(model, record(i, 8))
				}
				return err
			}
			pop := func() error {
				got, err := q.Pop()
				if err != nil {
					return err
				}
				if !bytes.Equal(got, model[0]) {
					t.Fatalf("Pop = %x, want %x", got, model[0])
				}
				model = model[1:]
				return nil
			}
			i := 0
			for ; i < tt.pushes; i++ {
				if err := push(i); err != nil {
					t.Fatal(err)
				}
			}
			fs.Fail(tt.op, 1, injected)
			var got error
			if tt.failPush {
				for ; got == nil && i < 1000; i++ {
					got = push(i)
				}
			} else {
				for got == nil && len(model) > 0 {
					got = pop()
				}
			}
			if !errors.Is(got, storagefs.ErrQuotaExceeded) || !strings.Contains(got.Error(), tt.want) {
				t.Fatalf("%s fault surfaced as %v, want %q... wrapping ErrQuotaExceeded", tt.op, got, tt.want)
			}
			checkInvariants(t, q, b, len(model), 256)
			// The queue stays consistent: after the fault, order holds.
			for j := 0; j < 50; j++ {
				if err := push(i + j); err != nil {
					t.Fatalf("Push after the fault = %v", err)
				}
			}
			for len(model) > 0 {
				if err := pop(); err != nil {
					t.Fatalf("Pop after the fault = %v", err)
				}
			}
			if r, err := q.Pop(); r != nil || err != nil {
				t.Fatalf("Pop on the drained queue = %x, %v", r, err)
			}
			if err := q.Close(); err != nil {
				t.Fatalf("Close = %v", err)
			}
			wantNoSegments(t, fs)
		})
	}
}

func TestCloseErrors(t *testing.T) {
	b := budget.New(0)
	fs := storagetest.NewFaultFS(storagefs.NewMemory(storagefs.Options{}))
	q, err := queue.NewDisk(8, b, 256, fs, "c-")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		q.Push(record(i, 8))
	}
	fs.FailAlways("remove", storagefs.ErrStoreGone)
	if err := q.Close(); !errors.Is(err, storagefs.ErrStoreGone) {
		t.Fatalf("Close with failing removes = %v, want ErrStoreGone", err)
	}
	if b.Used() != 0 {
		t.Fatalf("budget holds %d bytes after Close", b.Used())
	}
	if err := q.Push(record(0, 8)); !errors.Is(err, queue.ErrClosed) {
		t.Fatalf("Push after Close = %v, want ErrClosed", err)
	}
	if _, err := q.Pop(); !errors.Is(err, queue.ErrClosed) {
		t.Fatalf("Pop after Close = %v, want ErrClosed", err)
	}
	if err := q.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}
}

func TestWrongRecordSize(t *testing.T) {
	b := budget.New(0)
	for _, q := range []queueUnderTest{queue.NewMemory(8, b), queue.NewMemoryLIFO(8, b)} {
		for _, n := range []int{0, 7, 9} {
			if err := q.Push(make([]byte, n)); err == nil || !strings.Contains(err.Error(), "record size is 8") {
				t.Fatalf("Push of %d bytes = %v, want a record size error", n, err)
			}
		}
		if q.Len() != 0 {
			t.Fatalf("Len() = %d after refused pushes", q.Len())
		}
		q.Close()
	}
}
