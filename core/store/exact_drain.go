package store

// Drain hands every stored state to fn, oldest first, and empties the set as
// it goes: the table index is released first, then each chunk of states once
// fn has seen it, so a caller converting the set into a smaller one (hash
// compaction) can build the new set in the memory the old one gives back.
// The set is unusable afterwards except for Release.
func (t *Exact) Drain(fn func(idx int64, s []byte) error) error {
	t.b.Release("visited", int64(len(t.slots))*8)
	t.slots = nil
	size := int64(t.chunkRecs * t.recSize)
	var idx int64
	for c := range t.chunks {
		for r := 0; r < t.chunkRecs && idx < t.n; r++ {
			if err := fn(idx, t.Get(idx)); err != nil {
				return err
			}
			idx++
		}
		t.chunks[c] = nil
		t.b.Release("visited", size)
	}
	t.chunks = nil
	t.n = 0
	return nil
}

// IndexBytes returns the memory of the table index (what Drain gives back
// first).
func (t *Exact) IndexBytes() int64 { return int64(len(t.slots)) * 8 }
