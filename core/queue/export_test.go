package queue

// SetMinSegment lowers the smallest segment size so that small shares get
// many chunks; it returns a function restoring the old value.
func SetMinSegment(n int64) (restore func()) {
	old := minSegment
	minSegment = n
	return func() { minSegment = old }
}
