package store

// Drain hands every stored state to fn, oldest first, and empties the set as
// it goes: the index is released first, then each chunk of states once fn
// has seen it, so a caller converting the set into a smaller one (hash
// compaction) can build the new set in the memory the old one gives back.
// The slice fn gets is valid only during the call. The set is unusable
// afterwards except for Release.
func (t *Exact) Drain(fn func(idx int64, s []byte) error) error {
	t.b.Release("visited", t.IndexBytes())
	for i := range t.parts {
		t.parts[i] = part{}
	}
	buf := make([]byte, t.recSize)
	var idx int64
	for c := range t.chunks {
		for r := 0; r < t.chunkRecs && idx < t.n; r++ {
			t.Read(idx, buf)
			if err := fn(idx, buf); err != nil {
				return err
			}
			idx++
		}
		t.chunks[c] = nil
		t.liveChunks--
		t.b.Release("visited", int64(t.chunkBytes))
	}
	t.chunks = nil
	t.n = 0
	return nil
}

// IndexBytes returns the memory of the index (what Drain gives back first).
func (t *Exact) IndexBytes() int64 {
	var n int64
	for i := range t.parts {
		n += int64(len(t.parts[i].slots)) * 8
	}
	return n
}
