package storagefs

// This file implements FS once over the backends' primitive drivers:
// name checks, the write-once rule, the MaxBytes cap, error context and
// the I/O counters live here so that every backend behaves the same.

import (
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/locus-mc/locus/core/budget"
)

// driver is one backend's primitive operations on a flat directory of
// segments. Names reaching a driver are valid. Drivers map their errors onto
// the sentinels where they can (ErrNotExist, ErrQuotaExceeded,
// ErrStoreGone); store adds the operation and name.
type driver interface {
	write(name string, data []byte) error // create name, which does not exist
	open(name string) (segmentReader, error)
	remove(name string) error
	list() ([]SegmentInfo, error) // every segment, any order
	space() (Space, error)
	persist() (bool, error)
	close() error
}

// syncer is a driver whose writes need flushing to be durable.
type syncer interface {
	sync(names []string) error
}

// segmentReader is a driver's open segment.
type segmentReader interface {
	io.Reader
	Size() int64
	Close() error
}

// store is the FS every constructor returns.
type store struct {
	kind string
	d    driver
	opts Options

	mu     sync.Mutex
	sizes  map[string]int64 // segments this store knows of; -1 while being written
	live   int64            // bytes in them, counting writes in flight
	closed bool
	// unsynced lists the segments written since the last Sync, for
	// drivers that flush.
	unsynced []string

	bytesWritten, bytesRead     atomic.Int64
	segsWritten, segsRead       atomic.Int64
	segsRemoved, liveForReports atomic.Int64
}

// newStore wraps d, learning which segments already exist so that the
// write-once rule and MaxBytes hold across reopenings.
func newStore(kind string, d driver, opts Options) (*store, error) {
	s := &store{kind: kind, d: d, opts: opts, sizes: make(map[string]int64)}
	segs, err := d.list()
	if err != nil {
		d.close()
		return nil, s.fail("open", "", err)
	}
	for _, seg := range segs {
		s.sizes[seg.Name] = seg.Size
		s.live += seg.Size
	}
	s.liveForReports.Store(s.live)
	return s, nil
}

func (s *store) fail(op, name string, err error) error {
	return &Error{Op: op, Kind: s.kind, Name: name, Err: err}
}

func (s *store) Kind() string { return s.kind }

func (s *store) WriteSegment(name string, data []byte) error {
	const op = "write"
	if !ValidName(name) {
		return s.fail(op, name, ErrInvalidName)
	}
	if len(data) > MaxSegmentSize {
		return s.fail(op, name, ErrTooLarge)
	}
	n := int64(len(data))
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return s.fail(op, name, ErrClosed)
	case hasKey(s.sizes, name):
		s.mu.Unlock()
		return s.fail(op, name, ErrExist)
	case s.opts.MaxBytes > 0 && s.live+n > s.opts.MaxBytes:
		s.mu.Unlock()
		return s.fail(op, name, because(ErrQuotaExceeded,
			capError{limit: s.opts.MaxBytes, used: s.live, need: n}))
	}
	s.sizes[name] = -1
	s.live += n
	s.mu.Unlock()

	err := s.d.write(name, data)

	s.mu.Lock()
	if err != nil {
		delete(s.sizes, name)
		s.live -= n
	} else {
		s.sizes[name] = n
		if _, ok := s.d.(syncer); ok {
			s.unsynced = append(s.unsynced, name)
		}
	}
	s.liveForReports.Store(s.live)
	s.mu.Unlock()
	if err != nil {
		return s.fail(op, name, err)
	}
	s.bytesWritten.Add(n)
	s.segsWritten.Add(1)
	return nil
}

func hasKey(m map[string]int64, k string) bool {
	_, ok := m[k]
	return ok
}

// capError explains a refusal by Options.MaxBytes.
type capError struct{ limit, used, need int64 }

func (e capError) Error() string {
	return "store cap of " + budget.FormatBytes(e.limit) + " reached: " + budget.FormatBytes(e.used) +
		" in use, " + budget.FormatBytes(e.need) + " more needed"
}

func (s *store) openChecked(op, name string) (segmentReader, error) {
	if !ValidName(name) {
		return nil, s.fail(op, name, ErrInvalidName)
	}
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil, s.fail(op, name, ErrClosed)
	}
	r, err := s.d.open(name)
	if err != nil {
		return nil, s.fail(op, name, err)
	}
	s.segsRead.Add(1)
	return r, nil
}

func (s *store) ReadSegment(name string, buf []byte) ([]byte, error) {
	r, err := s.openChecked("read", name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	size := r.Size()
	if size > MaxSegmentSize {
		return nil, s.fail("read", name, ErrTooLarge)
	}
	if int64(cap(buf)) < size {
		buf = make([]byte, size)
	}
	buf = buf[:size]
	n, err := io.ReadFull(r, buf)
	s.bytesRead.Add(int64(n))
	if err != nil {
		return nil, s.fail("read", name, err)
	}
	return buf, nil
}

func (s *store) OpenSegment(name string) (Segment, error) {
	r, err := s.openChecked("open", name)
	if err != nil {
		return nil, err
	}
	return &segment{s: s, name: name, r: r}, nil
}

// segment counts the bytes read through it and makes Close idempotent.
type segment struct {
	s      *store
	name   string
	r      segmentReader
	closed bool
}

func (g *segment) Size() int64 { return g.r.Size() }

func (g *segment) Read(p []byte) (int, error) {
	if g.closed {
		return 0, g.s.fail("read", g.name, ErrClosed)
	}
	n, err := g.r.Read(p)
	g.s.bytesRead.Add(int64(n))
	if err != nil && err != io.EOF {
		err = g.s.fail("read", g.name, err)
	}
	return n, err
}

func (g *segment) Close() error {
	if g.closed {
		return nil
	}
	g.closed = true
	if err := g.r.Close(); err != nil {
		return g.s.fail("close", g.name, err)
	}
	return nil
}

func (s *store) RemoveSegment(name string) error {
	const op = "remove"
	if !ValidName(name) {
		return s.fail(op, name, ErrInvalidName)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return s.fail(op, name, ErrClosed)
	}
	s.mu.Unlock()
	if err := s.d.remove(name); err != nil {
		return s.fail(op, name, err)
	}
	s.mu.Lock()
	if n, ok := s.sizes[name]; ok && n > 0 {
		s.live -= n
	}
	delete(s.sizes, name)
	s.liveForReports.Store(s.live)
	s.mu.Unlock()
	s.segsRemoved.Add(1)
	return nil
}

func (s *store) ListSegments(prefix string) ([]SegmentInfo, error) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil, s.fail("list", prefix, ErrClosed)
	}
	all, err := s.d.list()
	if err != nil {
		return nil, s.fail("list", prefix, err)
	}
	segs := all[:0]
	for _, seg := range all {
		if strings.HasPrefix(seg.Name, prefix) {
			segs = append(segs, seg)
		}
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i].Name < segs[j].Name })
	return segs, nil
}

func (s *store) Space() (Space, error) {
	sp, err := s.d.space()
	if err != nil {
		return Space{Free: -1, Quota: -1, Used: -1}, s.fail("space", "", err)
	}
	if max := s.opts.MaxBytes; max > 0 {
		live := s.liveForReports.Load()
		free := max - live
		if free < 0 {
			free = 0
		}
		if !sp.Known() || free < sp.Free {
			sp.Free = free
		}
		if sp.Quota < 0 || max < sp.Quota {
			sp.Quota, sp.Used = max, live
		}
	}
	return sp, nil
}

func (s *store) Persist() (bool, error) {
	ok, err := s.d.persist()
	if err != nil {
		return false, s.fail("persist", "", err)
	}
	return ok, nil
}

func (s *store) Sync() error {
	sy, ok := s.d.(syncer)
	if !ok {
		return nil
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return s.fail("sync", "", ErrClosed)
	}
	var names []string
	for _, n := range s.unsynced {
		if hasKey(s.sizes, n) { // not removed since
			names = append(names, n)
		}
	}
	s.unsynced = nil
	s.mu.Unlock()
	if err := sy.sync(names); err != nil {
		return s.fail("sync", "", err)
	}
	return nil
}

func (s *store) Stats() Stats {
	return Stats{
		BytesWritten:    s.bytesWritten.Load(),
		BytesRead:       s.bytesRead.Load(),
		SegmentsWritten: s.segsWritten.Load(),
		SegmentsRead:    s.segsRead.Load(),
		SegmentsRemoved: s.segsRemoved.Load(),
		LiveBytes:       s.liveForReports.Load(),
	}
}

func (s *store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	if err := s.d.close(); err != nil {
		return s.fail("close", "", err)
	}
	return nil
}
