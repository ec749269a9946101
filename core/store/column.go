package store

import "github.com/locus-mc/locus/core/budget"

// Column is a growable array of uint32 in fixed-size chunks: per-state data
// kept beside a visited set (trace parents, rule numbers), growing without
// the copy-and-double spikes of append.
type Column struct {
	chunks [][]uint32
	n      int64
	b      *budget.Budget
	part   string
}

const colChunk = 1 << 16

// NewColumn returns an empty column whose memory is reserved from b as part.
func NewColumn(b *budget.Budget, part string) *Column { return &Column{b: b, part: part} }

// Append adds v; it fails (wrapping *budget.ErrExhausted) if the budget refuses.
func (c *Column) Append(v uint32) error {
	if c.n&(colChunk-1) == 0 && int(c.n/colChunk) == len(c.chunks) {
		if !c.b.Reserve(c.part, colChunk*4) {
			return &budget.ErrExhausted{Part: c.part, Need: colChunk * 4, Limit: c.b.Limit()}
		}
		c.chunks = append(c.chunks, make([]uint32, colChunk))
	}
	c.chunks[c.n/colChunk][c.n%colChunk] = v
	c.n++
	return nil
}

// Get returns element i.
func (c *Column) Get(i int64) uint32 { return c.chunks[i/colChunk][i%colChunk] }

// Set overwrites element i.
func (c *Column) Set(i int64, v uint32) { c.chunks[i/colChunk][i%colChunk] = v }

// Len returns the number of elements.
func (c *Column) Len() int64 { return c.n }

// Release gives the memory back to the budget.
func (c *Column) Release() {
	c.b.Release(c.part, int64(len(c.chunks))*colChunk*4)
	c.chunks = nil
	c.n = 0
}
