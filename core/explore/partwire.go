package explore

// This file lets the parts of a parallel search run outside the
// coordinator's process: in the browser each part but the first runs in a
// Web Worker of its own (wasm/worker), with its own Go instance, and the
// coordinator talks to it through a PartTransport in binary messages. The
// phases are those of part.go, and a remote part computes exactly what a
// local one does, so the result is the same.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/queue"
	"github.com/locus-mc/locus/core/store"
	"github.com/locus-mc/locus/storagefs"
)

// PartTransport carries the messages between the coordinator of a
// parallel search and parts 1..n-1, which run elsewhere (part 0 runs in
// the coordinator's process). Messages arrive whole and in order.
type PartTransport interface {
	// Send posts msg to part i; msg may be reused once Send returns.
	Send(i int, msg []byte) error
	// Recv waits for part i's next message; the caller owns it.
	Recv(i int) ([]byte, error)
}

// PartReleaser is a PartTransport whose parts hold resources of their own
// (the browser's Web Workers, each with its share of the budget): a search
// that gives up on the parallel search and goes on without the parts
// calls Release, after which the transport is not used again.
type PartReleaser interface {
	PartTransport
	Release()
}

// Operations of the part protocol: the first byte of a request.
const (
	opSeed byte = iota + 1
	opExpand
	opAdmit
	opClose
)

// ServePart runs part index of n of a parallel search of m whose
// coordinator runs elsewhere: it answers the messages recv returns, with
// send, until the coordinator closes the part. opts are the run's; the
// part holds 1/n of opts.MemoryBytes. An error means the coordinator is
// gone or sent something this part cannot read.
func ServePart(ctx context.Context, m *compile.Model, opts Options, index, n int, recv func() ([]byte, error), send func([]byte) error) error {
	share := opts.MemoryBytes / int64(n)
	plan := planPart(m, opts, n, share, 1)
	if opts.HashBits > 0 && share > 0 {
		mine := opts
		mine.MemoryBytes = share
		plan.table = max(share-queueShare(mine)-share/16, 0)
	}
	w, err := newPart(ctx, m, opts, index, n, budget.New(share), plan)
	var enc wire
	if err != nil {
		// The coordinator learns it from the first answer.
		for {
			msg, rerr := recv()
			if rerr != nil {
				return rerr
			}
			enc.reset()
			if len(msg) > 0 && msg[0] == opClose {
				enc.int64s(nil)
				return send(enc.b)
			}
			enc.err(err)
			if serr := send(enc.b); serr != nil {
				return serr
			}
		}
	}
	defer w.close()
	for {
		msg, err := recv()
		if err != nil {
			return err
		}
		d := &unwire{b: msg}
		enc.reset()
		switch d.byte() {
		case opSeed:
			var serr error
			for k := d.uint32(); k > 0 && d.ok(); k-- {
				id, h := d.int64(), d.uint64()
				if s := d.bytes(); serr == nil {
					serr = w.seed(s, h, id)
				}
			}
			enc.err(serr)
			enc.stats(w.stats())
		case opExpand:
			lo, hi := d.int64(), d.int64()
			ids := d.int64s()
			w.expand(ids, lo, hi)
			r := &w.er
			enc.err(r.err)
			enc.int64(r.emitted)
			enc.int64(r.reached)
			enc.uint32(uint32(len(r.counts)))
			for _, c := range r.counts {
				enc.int64(c.parent)
				enc.uint32(c.emitted)
			}
			enc.events(r.events)
			for o, out := range r.out {
				if o == index {
					out = nil // kept here for admit
				}
				enc.bytes(out)
			}
		case opAdmit:
			depth := int(d.uint32())
			end := d.int64()
			in := make([][]byte, n)
			for j := range in {
				in[j] = d.bytes()
			}
			own := w.er.out[index]
			in[index] = own[:below(own, w.sb, end)]
			w.admit(in, depth)
			r := &w.ar
			enc.err(r.err)
			enc.uint32(uint32(len(r.acc)))
			for _, a := range r.acc {
				enc.int64(a.key.parent)
				enc.uint32(a.key.seq)
				enc.uint32(a.rule)
			}
			enc.uint32(uint32(len(r.hits)))
			for _, h := range r.hits {
				enc.uint32(uint32(h.acc))
				enc.uint32(uint32(h.cover))
			}
			enc.events(r.events)
			enc.stats(r.stats)
		case opClose:
			enc.int64s(w.mc.CoverHits)
			return send(enc.b)
		default:
			return fmt.Errorf("part %d: unknown request %d", index, msg[0])
		}
		if !d.ok() {
			return fmt.Errorf("part %d: a truncated request", index)
		}
		if err := send(enc.b); err != nil {
			return err
		}
	}
}

// remotePart is the coordinator's end of a part served by ServePart.
type remotePart struct {
	t     PartTransport
	i, n  int
	enc   wire
	er    expandResult
	ar    admitResult
	stats partStats
	err   error // a transport error, reported by the next wait
}

func newRemotePart(t PartTransport, i, n int) *remotePart {
	return &remotePart{t: t, i: i, n: n, er: expandResult{out: make([][]byte, n)}}
}

func (r *remotePart) send() {
	if r.err == nil {
		r.err = r.t.Send(r.i, r.enc.b)
	}
}

// recv waits for the part's answer; nil if the transport failed.
func (r *remotePart) recv() *unwire {
	if r.err != nil {
		return nil
	}
	msg, err := r.t.Recv(r.i)
	if err != nil {
		r.err = fmt.Errorf("parallel search: part %d: %w", r.i, err)
		return nil
	}
	return &unwire{b: msg}
}

func (r *remotePart) broken(d *unwire) error {
	if r.err != nil {
		return r.err
	}
	if !d.ok() {
		r.err = fmt.Errorf("parallel search: part %d sent a truncated answer", r.i)
	}
	return r.err
}

// seed sends the part its start states (packed state, hash, id records).
func (r *remotePart) seed(recs []seedRec) (partStats, error) {
	r.enc.reset()
	r.enc.byte(opSeed)
	r.enc.uint32(uint32(len(recs)))
	for _, s := range recs {
		r.enc.int64(s.id)
		r.enc.uint64(s.h)
		r.enc.bytes(s.state)
	}
	r.send()
	d := r.recv()
	if d == nil {
		return partStats{}, r.err
	}
	err := d.err()
	st := d.stats()
	if e := r.broken(d); e != nil {
		return st, e
	}
	return st, err
}

func (r *remotePart) expand(ids []int64, lo, hi int64) {
	r.enc.reset()
	r.enc.byte(opExpand)
	r.enc.int64(lo)
	r.enc.int64(hi)
	r.enc.int64s(ids)
	r.send()
}

func (r *remotePart) expanded() *expandResult {
	e := &r.er
	e.counts, e.events = e.counts[:0], e.events[:0]
	d := r.recv()
	if d == nil {
		e.err = r.err
		return e
	}
	e.err = d.err()
	e.emitted = d.int64()
	e.reached = d.int64()
	for k := d.uint32(); k > 0 && d.ok(); k-- {
		e.counts = append(e.counts, parentCount{parent: d.int64(), emitted: d.uint32()})
	}
	e.events = d.events(e.events)
	for o := range e.out {
		e.out[o] = d.bytes()
	}
	if err := r.broken(d); err != nil {
		e.err = err
	}
	return e
}

func (r *remotePart) admit(in [][]byte, depth int, end int64) {
	r.enc.reset()
	r.enc.byte(opAdmit)
	r.enc.uint32(uint32(depth))
	r.enc.int64(end)
	for j, b := range in {
		if j == r.i {
			b = nil // the part kept its own
		}
		r.enc.bytes(b)
	}
	r.send()
}

func (r *remotePart) admitted() *admitResult {
	a := &r.ar
	a.acc, a.hits, a.events = a.acc[:0], a.hits[:0], a.events[:0]
	d := r.recv()
	if d == nil {
		a.err = r.err
		a.stats = r.stats
		return a
	}
	a.err = d.err()
	for k := d.uint32(); k > 0 && d.ok(); k-- {
		a.acc = append(a.acc, accepted{key: candKey{d.int64(), d.uint32()}, rule: d.uint32()})
	}
	for k := d.uint32(); k > 0 && d.ok(); k-- {
		a.hits = append(a.hits, coverHit{acc: int32(d.uint32()), cover: int32(d.uint32())})
	}
	a.events = d.events(a.events)
	a.stats = d.stats()
	if err := r.broken(d); err != nil {
		a.err = err
	} else {
		r.stats = a.stats
	}
	return a
}

func (r *remotePart) close() []int64 {
	r.enc.reset()
	r.enc.byte(opClose)
	r.send()
	d := r.recv()
	if d == nil {
		return nil
	}
	return d.int64s()
}

// seedRec is a start state for a part.
type seedRec struct {
	state []byte
	h     uint64
	id    int64
}

// wire encodes part messages: little-endian integers, length-prefixed
// byte strings.
type wire struct{ b []byte }

func (e *wire) reset()          { e.b = e.b[:0] }
func (e *wire) byte(v byte)     { e.b = append(e.b, v) }
func (e *wire) uint32(v uint32) { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *wire) uint64(v uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *wire) int64(v int64)   { e.uint64(uint64(v)) }

func (e *wire) bytes(b []byte) {
	e.uint32(uint32(len(b)))
	e.b = append(e.b, b...)
}

func (e *wire) str(s string) {
	e.uint32(uint32(len(s)))
	e.b = append(e.b, s...)
}

func (e *wire) int64s(v []int64) {
	e.uint32(uint32(len(v)))
	for _, x := range v {
		e.int64(x)
	}
}

// Error kinds on the wire: a refused reservation and a full disk must stay
// what they are (they end a run incomplete, not in error).
const (
	errNone byte = iota
	errExhausted
	errQuota
	errOther
)

func (e *wire) err(err error) {
	var ex *budget.ErrExhausted
	switch {
	case err == nil:
		e.byte(errNone)
		return
	case errors.As(err, &ex):
		e.byte(errExhausted)
		e.str(ex.Part)
		e.int64(ex.Need)
		e.int64(ex.Limit)
	case errors.Is(err, storagefs.ErrQuotaExceeded):
		e.byte(errQuota)
	default:
		e.byte(errOther)
	}
	e.str(err.Error())
}

func (e *wire) events(evs []partEvent) {
	e.uint32(uint32(len(evs)))
	for _, ev := range evs {
		e.int64(ev.key.parent)
		e.uint32(ev.key.seq)
		e.uint32(uint32(ev.rule))
		k := byte(0)
		if ev.kept {
			k = 1
		}
		e.byte(k)
		e.str(ev.v.Kind)
		e.str(ev.v.Name)
		e.str(ev.v.Msg)
		e.uint32(uint32(ev.v.Pos))
		if ev.bad == nil {
			e.byte(0)
		} else {
			e.byte(1)
			e.int64s(ev.bad)
		}
	}
}

func (e *wire) stats(s partStats) {
	e.str(s.visited.Kind)
	e.int64(s.visited.Inserted)
	e.int64(s.visited.Evicted)
	e.int64(s.visited.Entries)
	e.uint64(math.Float64bits(s.visited.OmissionBound))
	e.int64(s.states)
	e.int64(s.bytes)
	e.int64(s.used)
	e.int64(s.peak)
	q := s.queue
	for _, v := range []int64{q.InMemory, q.OnDisk, q.MemoryBytes, q.BytesWritten, q.BytesRead, q.SegmentsWritten, q.SegmentsRead} {
		e.int64(v)
	}
}

// unwire decodes what wire encoded; reading past the end sets bad and
// yields zeros.
type unwire struct {
	b   []byte
	bad bool
}

func (d *unwire) ok() bool { return !d.bad }

func (d *unwire) take(n int) []byte {
	if d.bad || n < 0 || n > len(d.b) {
		d.bad = true
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *unwire) byte() byte {
	if b := d.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (d *unwire) uint32() uint32 {
	if b := d.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *unwire) uint64() uint64 {
	if b := d.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (d *unwire) int64() int64     { return int64(d.uint64()) }
func (d *unwire) bytes() []byte    { return d.take(int(d.uint32())) }
func (d *unwire) str() string      { return string(d.bytes()) }
func (d *unwire) float64() float64 { return math.Float64frombits(d.uint64()) }

func (d *unwire) int64s() []int64 {
	n := int(d.uint32())
	if d.bad || n*8 > len(d.b) {
		d.bad = true
		return nil
	}
	v := make([]int64, n)
	for i := range v {
		v[i] = d.int64()
	}
	return v
}

func (d *unwire) err() error {
	switch d.byte() {
	case errNone:
		return nil
	case errExhausted:
		ex := &budget.ErrExhausted{Part: d.str(), Need: d.int64(), Limit: d.int64()}
		d.str()
		return ex
	case errQuota:
		return fmt.Errorf("%s: %w", d.str(), storagefs.ErrQuotaExceeded)
	default:
		return errors.New(d.str())
	}
}

func (d *unwire) events(evs []partEvent) []partEvent {
	for k := d.uint32(); k > 0 && d.ok(); k-- {
		ev := partEvent{key: candKey{d.int64(), d.uint32()}, rule: int32(d.uint32())}
		ev.kept = d.byte() == 1
		ev.v = &Violation{Kind: d.str(), Name: d.str(), Msg: d.str(), Pos: murphi.Pos(int32(d.uint32()))}
		if d.byte() == 1 {
			ev.bad = d.int64s()
		}
		evs = append(evs, ev)
	}
	return evs
}

func (d *unwire) stats() partStats {
	var s partStats
	s.visited = store.VisitedStats{Kind: d.str(), Inserted: d.int64(), Evicted: d.int64(), Entries: d.int64(), OmissionBound: d.float64()}
	s.states = d.int64()
	s.bytes = d.int64()
	s.used = d.int64()
	s.peak = d.int64()
	s.queue = queue.Stats{InMemory: d.int64(), OnDisk: d.int64(), MemoryBytes: d.int64(), BytesWritten: d.int64(),
		BytesRead: d.int64(), SegmentsWritten: d.int64(), SegmentsRead: d.int64()}
	return s
}
