package store

// This file defines Visited, the one interface every engine's visited set
// implements, and adapts Exact to it.

// Visited is a set of visited states, keyed by packed state vector and the
// caller's 64-bit table hash of it.
//
// Engines call Find for every successor and Insert only for those Find did
// not find and the engine decided to keep, with no other change to the set
// in between (the position Find returned is then still valid). Every
// implementation reserves its memory from the run's budget before growing
// and returns an error wrapping *budget.ErrExhausted when it cannot.
type Visited interface {
	// Find looks up state s with table hash h. found reports whether s is
	// (or, for signature sets, appears to be) in the set; id is the id
	// given at Insert when the set keeps ids, else -1; at is where Insert
	// adds s if it is absent.
	Find(s []byte, h uint64) (found bool, id int64, at uint64)
	// Insert adds s, which Find did not find, with the engine's id for it
	// (sets that keep no ids ignore it) and an age stamp (the BFS level;
	// caches evict the oldest stamps first).
	Insert(at uint64, s []byte, h uint64, id int64, stamp int) error
	// Len is the number of states held now.
	Len() int64
	// Bytes is the memory the set holds.
	Bytes() int64
	// Stats describes the set for progress and results.
	Stats() VisitedStats
	// Release gives all memory back to the budget.
	Release()
}

// Kinds of visited sets, as VisitedStats.Kind reports them.
const (
	KindExact   = "exact"   // full states, compared in full
	KindCompact = "compact" // k-bit signatures: a collision can hide a state
	KindCache   = "cache"   // fixed size: a new state may evict an old one
)

// VisitedStats describes a visited set.
type VisitedStats struct {
	Kind     string
	Inserted int64 // insertions so far (revisits of forgotten states included)
	Evicted  int64 // entries a cache overwrote
	Entries  int64 // capacity in states (0 if the set grows)
	// OmissionBound bounds the probability that a signature collision hid
	// at least one state from the search (0 for sets that compare states
	// in full).
	OmissionBound float64
}

// ExactSet adapts an Exact table to Visited: ids are its dense indexes,
// which equal the engine's ids as long as every Insert is the engine's next
// id (engines number kept states 0, 1, 2, ...).
type ExactSet struct{ *Exact }

// Find implements Visited.
func (e ExactSet) Find(s []byte, h uint64) (bool, int64, uint64) {
	idx, at := e.Exact.Find(s, h)
	return idx >= 0, idx, at
}

// Insert implements Visited.
func (e ExactSet) Insert(at uint64, s []byte, h uint64, id int64, stamp int) error {
	idx, err := e.Exact.InsertAt(at, s, h)
	if err != nil {
		return err
	}
	if idx != id {
		panic("store: exact set index out of step with the engine's ids")
	}
	return nil
}

// Stats implements Visited.
func (e ExactSet) Stats() VisitedStats {
	return VisitedStats{Kind: KindExact, Inserted: e.Len()}
}
