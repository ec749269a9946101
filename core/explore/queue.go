package explore

import (
	"fmt"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/queue"
)

// minSegmentRecords is the fewest states a queue segment may hold.
const minSegmentRecords = 64

// DefaultQueueFraction is the share of the memory budget given to the
// search queue's in-memory part (Murphi's gPercentActive).
const DefaultQueueFraction = 0.1

// newFrontier returns the queue of states still to expand: a FIFO for
// breadth-first search, a LIFO for depth-first. With a memory budget and a
// storage FS, the queue keeps its share of the budget in memory and spills
// the rest to disk, in segments named prefix... ("" picks the engine's
// usual prefix); otherwise it lives in memory, reserving from the budget.
func newFrontier(rec int, b *budget.Budget, opts Options, lifo bool, prefix string) (queue.FIFO, error) {
	return queueWithShare(rec, b, opts, queueShare(opts), lifo, prefix)
}

// queueWithShare is newFrontier with the queue's memory share given: the
// parts of a parallel search divide the one a sequential search's queue
// has.
func queueWithShare(rec int, b *budget.Budget, opts Options, share int64, lifo bool, prefix string) (queue.FIFO, error) {
	if opts.MemoryBytes > 0 && opts.FS != nil {
		per, err := queue.SegmentRecords(rec, share)
		if err != nil {
			return nil, err
		}
		if per < minSegmentRecords {
			// Segments this small would make the queue crawl through
			// storage a few records at a time.
			frac := float64(share) / float64(opts.MemoryBytes)
			return nil, &smallShare{fmt.Sprintf("the queue's memory share (%s, %.3g of the budget) makes disk segments of only %d states of %d bytes; "+
				"give it at least %s with a larger budget or --queue-fraction", budget.FormatBytes(share), frac, per, rec, budget.FormatBytes(int64(16*minSegmentRecords*rec))),
				&budget.ErrExhausted{Part: "queue", Need: int64(16 * minSegmentRecords * rec), Limit: opts.MemoryBytes}}
		}
		if lifo {
			return queue.NewDiskLIFO(rec, b, share, opts.FS, orDefault(prefix, "dfs-"))
		}
		return queue.NewDisk(rec, b, share, opts.FS, orDefault(prefix, frontierPrefix))
	}
	if lifo {
		return queue.NewMemoryLIFO(rec, b), nil
	}
	return queue.NewMemory(rec, b), nil
}

// frontierPrefix names the breadth-first frontier's segments.
const frontierPrefix = "bfs-"

// restoreFrontier rebuilds a breadth-first frontier on disk from a
// checkpoint, with the memory share newFrontier gives it.
func restoreFrontier(rec int, b *budget.Budget, opts Options, snap queue.Snapshot) (queue.FIFO, error) {
	return queue.RestoreDisk(rec, b, queueShare(opts), opts.FS, frontierPrefix, snap)
}

// smallShare is a queue share too small to work with: the run ends
// incomplete (a resource limit), with advice.
type smallShare struct {
	msg   string
	cause *budget.ErrExhausted
}

func (e *smallShare) Error() string { return e.msg }
func (e *smallShare) Unwrap() error { return e.cause }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
