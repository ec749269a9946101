package explore

// SetOutboxRecords makes the outboxes of parallel searches hold k
// successors (0: as planned) and returns what restores the plan.
func SetOutboxRecords(k int) (restore func()) {
	return swap(&outboxRecords, k)
}

// SetGeneratedMaxCode bounds generated modules' code (0: no bound) and
// returns what restores the bound.
func SetGeneratedMaxCode(n int) (restore func()) {
	return swap(&generatedMaxCode, n)
}

// SetGeneratedKeyBits makes generated searches under hash compaction keep
// k-bit keys (0: 64) and returns what restores the width.
func SetGeneratedKeyBits(k int) (restore func()) {
	return swap(&generatedKeyBits, k)
}

// SetPartsKept calls f at the end of every generated search on parts with
// the states each part kept, and returns what removes it.
func SetPartsKept(f func(states []int64)) (restore func()) {
	return swap(&partsKept, f)
}

// SetGeneratedThroughLevels sets whether generated searches go on past a
// level's end within a call, and returns what restores it.
func SetGeneratedThroughLevels(on bool) (restore func()) {
	return swap(&generatedThroughLevels, on)
}

// SetGeneratedReadAhead makes generated exact searches read records ahead
// from n states on (0: their default) and returns what restores it.
func SetGeneratedReadAhead(n int) (restore func()) {
	return swap(&generatedReadAhead, n)
}

// swap sets *p to v and returns what sets it back.
func swap[T any](p *T, v T) (restore func()) {
	old := *p
	*p = v
	return func() { *p = old }
}
