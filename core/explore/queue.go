package explore

import (
	"github.com/locus-mc/locus/core/budget"
)

// DefaultQueueFraction is the share of the memory budget given to the BFS
// queue's in-memory part (Murphi's gPercentActive).
const DefaultQueueFraction = 0.1

// newBFSQueue returns the BFS frontier.
func newBFSQueue(rec int, b *budget.Budget, opts Options) (frontier, error) {
	return newMemQueue(rec, b), nil
}
