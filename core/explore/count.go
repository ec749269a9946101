package explore

// This file counts the distinct states of a disk-based search at its end.
// An old state the disk cloud missed was appended to D and expanded again;
// D therefore holds every reachable state at least once, and its distinct
// keys are the reachable states. They are counted in passes over D, each
// keeping in memory (where M was) the keys of one share of the hash space:
// a key met a second time is a revisit, whose rules (recorded in R) and
// level are taken off the run's counts. Appended depths never decrease, so
// the first copy of a state is the one at its BFS depth.

import (
	"errors"
	"sort"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/store"
)

// distinctCount is what the pass over D found.
type distinctCount struct {
	states   int64
	dupRules int64
	dupAt    map[int]int64 // revisits by depth
}

// partitionMix picks a key's share of the hash space, independently of
// the slot the set puts it in.
const partitionMix = 0xD6E8FEB86659FD93

func (l *diskBFS) countDistinct() (distinctCount, error) {
	n := l.d.Len()
	if l.all {
		return distinctCount{states: n}, nil // dbfs never appends a state twice
	}
	// The queue of candidates is empty and M no longer needed: their
	// memory is the count's.
	l.unck.Close()
	l.unck = nil
	l.m.Release()
	b := l.s.b
	avail := b.Available() - b.Limit()/64
	o := store.RecentOptions{SigBits: l.m.SigBits(), Bytes: avail}
	capacity := store.RecentCapacity(l.s.m.StateBytes, o, avail) * 9 / 10
	if capacity < 1024 {
		return distinctCount{}, &budget.ErrExhausted{Part: "distinct count", Need: 1 << 20, Limit: b.Limit()}
	}
	passes := int((n + capacity - 1) / capacity)
	for {
		c, err := l.countPasses(passes, o)
		var ex *budget.ErrExhausted
		if errors.As(err, &ex) && ex.Part == "table M" && int64(passes) < n {
			passes++ // an unlucky share overflowed: cut finer
			continue
		}
		return c, err
	}
}

func (l *diskBFS) countPasses(passes int, o store.RecentOptions) (distinctCount, error) {
	c := distinctCount{dupAt: map[int]int64{}}
	set, err := store.NewRecent(l.s.m.StateBytes, l.s.b, o)
	if err != nil {
		return c, err
	}
	defer set.Release()
	kl := set.KeyLen()
	entry := l.d.Entry()
	per := int64(l.d.PerBlock())
	rules := newRuleReader(l)
	for p := 0; p < passes; p++ {
		set.Clear()
		visit := func(data []byte, first int64) error {
			for off, idx := 0, first; off+entry <= len(data); off, idx = off+entry, idx+1 {
				k := data[off : off+kl]
				if passes > 1 && l.partition(k, passes) != p {
					continue
				}
				added, err := set.AddKey(k)
				if err != nil {
					return err
				}
				if added {
					c.states++
					continue
				}
				r, err := rules.get(idx)
				if err != nil {
					return err
				}
				c.dupRules += r
				c.dupAt[l.depthOf(idx)]++
			}
			return nil
		}
		for i := 0; i < l.d.Blocks(); i++ {
			data, err := l.d.Block(i)
			if err != nil {
				return c, err
			}
			if err := visit(data, int64(i)*per); err != nil {
				return c, err
			}
		}
		if err := visit(l.d.Tail(), int64(l.d.Blocks())*per); err != nil {
			return c, err
		}
	}
	return c, nil
}

// partition returns the share of the hash space key k falls in.
func (l *diskBFS) partition(k []byte, passes int) int {
	var h uint64
	if l.m.SigBits() > 0 {
		for i := len(k) - 1; i >= 0; i-- {
			h = h<<8 | uint64(k[i])
		}
		h *= partitionMix
	} else {
		h = state.HashSeed(k, partitionMix)
	}
	return int((h >> 32) % uint64(passes))
}

// depthOf returns the BFS depth at which the state with D index idx was
// appended.
func (l *diskBFS) depthOf(idx int64) int {
	i := sort.Search(len(l.levelStart), func(i int) bool { return l.levelStart[i] > idx }) - 1
	if i < 0 {
		return l.levelDepth
	}
	return l.levelDepth + i
}

// ruleReader reads R, the rules each expanded state fired, by D index.
type ruleReader struct {
	l     *diskBFS
	block int
	data  []byte
}

func newRuleReader(l *diskBFS) *ruleReader { return &ruleReader{l: l, block: -1} }

// get returns the rules fired by the state with D index idx (0 if it was
// never expanded).
func (r *ruleReader) get(idx int64) (int64, error) {
	l := r.l
	if l.r == nil {
		return 0, nil
	}
	j := idx - l.rBase
	if j < 0 || j >= l.r.Len() {
		return 0, nil
	}
	per := int64(l.r.PerBlock())
	q := int(j / per)
	var data []byte
	if q < l.r.Blocks() {
		if q != r.block {
			d, err := l.r.Block(q)
			if err != nil {
				return 0, err
			}
			r.data, r.block = d, q
		}
		data = r.data
	} else {
		data = l.r.Tail()
	}
	w := l.ruleBytes
	off := int(j%per) * w
	var v int64
	for i := w - 1; i >= 0; i-- {
		v = v<<8 | int64(data[off+i])
	}
	return v, nil
}

// apply takes the revisits off r's counts.
func (l *diskBFS) apply(r *Result, c distinctCount) {
	r.States = c.states
	r.StatesExact = true
	r.Disk.Revisited = l.d.Len() - c.states
	r.Disk.RulesRevisited = c.dupRules
	r.RulesFired -= c.dupRules
	for d, n := range c.dupAt {
		if d < len(r.LevelSizes) {
			r.LevelSizes[d] -= n
		}
	}
	for len(r.LevelSizes) > 0 && r.LevelSizes[len(r.LevelSizes)-1] == 0 {
		r.LevelSizes = r.LevelSizes[:len(r.LevelSizes)-1]
	}
	if len(r.LevelSizes) > 0 {
		r.Depth = len(r.LevelSizes) - 1
	}
}
