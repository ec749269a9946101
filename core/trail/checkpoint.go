package trail

// This file saves a trail in a checkpoint and rebuilds it from one.

import (
	"fmt"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/storagefs"
)

// State is a trail as a checkpoint records it: its full chunks are in the
// segments listed, the records of its last, partial chunk in a copy.
type State struct {
	N         int64 `json:"n"`
	RuleBytes int   `json:"rule_bytes"`
	// PerChunk is the records a chunk holds: New scales chunks down
	// under small budgets, and segments are numbered by chunk.
	PerChunk int64          `json:"per_chunk,omitempty"`
	Segments []SegmentState `json:"segments,omitempty"`
	Tail     string         `json:"tail,omitempty"`
}

// SegmentState is one segment of spilled chunks.
type SegmentState struct {
	Name  string `json:"name"`
	First int64  `json:"first"` // its first chunk
}

// Names lists the segments a state refers to.
func (st State) Names() []string {
	var out []string
	for _, s := range st.Segments {
		out = append(out, s.Name)
	}
	if st.Tail != "" {
		out = append(out, st.Tail)
	}
	return out
}

// Checkpoint writes every full chunk to disk and a copy of the partial one
// as the segment tailName, and returns the trail's state. The trail keeps
// working; its spilled chunks are read back from disk when needed.
func (t *Trail) Checkpoint(tailName string) (State, error) {
	if t.fs == nil {
		return State{}, fmt.Errorf("counterexample trail: no storage for a checkpoint")
	}
	if err := t.Spill(); err != nil {
		return State{}, err
	}
	st := State{N: t.n, RuleBytes: t.ruleBytes, PerChunk: t.per}
	for _, s := range t.segs {
		st.Segments = append(st.Segments, SegmentState{Name: s.name, First: s.first})
	}
	if rest := t.n % t.per; rest > 0 {
		c := t.n / t.per
		data := t.chunks[c][:rest*int64(t.rec)]
		if err := t.fs.WriteSegment(tailName, data); err != nil {
			return st, fmt.Errorf("counterexample trail: %w", err)
		}
		t.written += int64(len(data))
		st.Tail = tailName
	}
	return st, nil
}

// KeepSegments makes Close leave the trail's segments on disk.
func (t *Trail) KeepSegments() { t.keep = true }

// Restore rebuilds a trail from a checkpoint's state. Its segments stay
// where they are; new ones are named prefix followed by the first chunk's
// number, as New's.
func Restore(b *budget.Budget, fs storagefs.FS, prefix string, st State) (*Trail, error) {
	if st.RuleBytes < 1 || st.RuleBytes > 4 || st.N < 0 {
		return nil, fmt.Errorf("counterexample trail: bad checkpoint (%d records, %d-byte rules)", st.N, st.RuleBytes)
	}
	t := &Trail{b: b, fs: fs, prefix: prefix, ruleBytes: st.RuleBytes, rec: parentBytes + st.RuleBytes, readSeg: -1}
	t.per = int64(chunkBytes / t.rec)
	if st.PerChunk > 0 {
		t.per = st.PerChunk
	}
	full := st.N / t.per
	t.chunks = make([][]byte, full)
	t.onDisk = make([]bool, full)
	t.segOf = make([]int32, full)
	for i := range t.segOf {
		t.segOf[i] = -1
	}
	for i, s := range st.Segments {
		if s.First < 0 || s.First >= full {
			return nil, fmt.Errorf("counterexample trail: checkpoint segment %s starts at chunk %d of %d", s.Name, s.First, full)
		}
		t.segs = append(t.segs, segment{name: s.Name, first: s.First})
		end := full
		if i+1 < len(st.Segments) {
			end = st.Segments[i+1].First
		}
		for c := s.First; c < end; c++ {
			t.onDisk[c] = true
			t.segOf[c] = int32(i)
		}
		t.diskLive += (end - s.First) * t.per * int64(t.rec)
	}
	for c := int64(0); c < full; c++ {
		if !t.onDisk[c] {
			return nil, fmt.Errorf("counterexample trail: checkpoint lacks chunk %d", c)
		}
	}
	t.n = full * t.per
	if rest := st.N - full*t.per; rest > 0 {
		if err := t.newChunk(); err != nil {
			return nil, err
		}
		data, err := fs.ReadSegment(st.Tail, nil)
		if err != nil {
			t.Close()
			return nil, fmt.Errorf("counterexample trail: %w", err)
		}
		if int64(len(data)) != rest*int64(t.rec) {
			t.KeepSegments()
			t.Close()
			return nil, fmt.Errorf("counterexample trail: tail copy holds %d bytes, want %d", len(data), rest*int64(t.rec))
		}
		copy(t.chunks[full], data)
		t.read += int64(len(data))
		t.n = st.N
	}
	return t, nil
}
