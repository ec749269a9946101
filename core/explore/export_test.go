package explore

// SetOutboxRecords makes the outboxes of parallel searches hold k
// successors (0: as planned) and returns what restores the plan.
func SetOutboxRecords(k int) (restore func()) {
	old := outboxRecords
	outboxRecords = k
	return func() { outboxRecords = old }
}

// SetGeneratedMaxCode bounds generated modules' code (0: no bound) and
// returns what restores the bound.
func SetGeneratedMaxCode(n int) (restore func()) {
	old := generatedMaxCode
	generatedMaxCode = n
	return func() { generatedMaxCode = old }
}

// SetGeneratedKeyBits makes generated searches under hash compaction keep
// k-bit keys (0: 64) and returns what restores the width.
func SetGeneratedKeyBits(k int) (restore func()) {
	old := generatedKeyBits
	generatedKeyBits = k
	return func() { generatedKeyBits = old }
}

// SetPartsKept calls f at the end of every generated search on parts with
// the states each part kept, and returns what removes it.
func SetPartsKept(f func(states []int64)) (restore func()) {
	old := partsKept
	partsKept = f
	return func() { partsKept = old }
}

// SetGeneratedThroughLevels sets whether generated searches go on past a
// level's end within a call, and returns what restores it.
func SetGeneratedThroughLevels(on bool) (restore func()) {
	old := generatedThroughLevels
	generatedThroughLevels = on
	return func() { generatedThroughLevels = old }
}

// SetGeneratedReadAhead makes generated exact searches read records ahead
// from n states on (0: their default) and returns what restores it.
func SetGeneratedReadAhead(n int) (restore func()) {
	old := generatedReadAhead
	generatedReadAhead = n
	return func() { generatedReadAhead = old }
}
