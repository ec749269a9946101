package store

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/state"
)

func key(i uint32) []byte {
	b := make([]byte, 6)
	binary.LittleEndian.PutUint32(b, i)
	b[4] = byte(i * 7)
	return b
}

func newTestNodes(t *testing.T, o NodeOptions) *Nodes {
	t.Helper()
	b := budget.New(0)
	n, err := NewNodes(6, b, state.Hash, o)
	if err != nil {
		t.Fatal(err)
	}
	if b.Used() != n.Bytes() || n.Bytes() != tableBytes(6, o, o.Capacity) {
		t.Fatalf("reserved %d, table holds %d, want %d", b.Used(), n.Bytes(), tableBytes(6, o, o.Capacity))
	}
	return n
}

// TestNodesAgainstMap inserts, finds and forgets states at random and checks
// the table against a map after every step, under every strategy: the index
// survives backward-shift deletions, only candidates are forgotten, and the
// attributes stay with their states.
func TestNodesAgainstMap(t *testing.T) {
	for s := Random; s <= Stratified; s++ {
		t.Run(s.String(), func(t *testing.T) {
			const capacity = 300
			n := newTestNodes(t, NodeOptions{Capacity: capacity, Strategy: s, Strata: 3, Seed: 7})
			type info struct {
				node  int32
				depth int
				cand  bool
			}
			held := map[uint32]*info{}
			rng := rand.New(rand.NewPCG(1, 2))
			for step := 0; step < 20000; step++ {
				k := uint32(rng.IntN(1000))
				st := key(k)
				h := state.Hash(st)
				node, at := n.Find(st, h)
				in, ok := held[k]
				if ok != (node != NoNode) || (ok && in.node != node) {
					t.Fatalf("step %d: Find(%d) = %d, map says %v", step, k, node, in)
				}
				switch {
				case ok && !in.cand && rng.IntN(2) == 0:
					n.MakeCandidate(node)
					in.cand = true
				case !ok:
					if n.Full() {
						before := n.Candidates()
						if !n.Evict() {
							if before != 0 {
								t.Fatalf("step %d: no eviction with %d candidates", step, before)
							}
							continue
						}
						var gone []uint32
						for k2, in2 := range held {
							if f, _ := n.Find(key(k2), state.Hash(key(k2))); f == NoNode {
								gone = append(gone, k2)
								if !in2.cand {
									t.Fatalf("step %d: forgot %d, not a candidate", step, k2)
								}
							}
						}
						if len(gone) != 1 {
							t.Fatalf("step %d: forgot %v, want one state", step, gone)
						}
						delete(held, gone[0])
						_, at = n.Find(st, h)
					}
					d := rng.IntN(20)
					node, err := n.Insert(at, st, h, int64(k)+1<<33, d, NoNode)
					if err != nil {
						t.Fatal(err)
					}
					held[k] = &info{node: node, depth: d}
				}
				if int64(len(held)) != n.Len() {
					t.Fatalf("step %d: %d held, table says %d", step, len(held), n.Len())
				}
			}
			for k, in := range held {
				if n.ID(in.node) != int64(k)+1<<33 || n.Depth(in.node) != in.depth || string(n.State(in.node)) != string(key(k)) {
					t.Fatalf("attributes of %d lost", k)
				}
			}
		})
	}
}

// TestNodesVictims checks which candidate each strategy forgets first.
func TestNodesVictims(t *testing.T) {
	// Five candidates: depths 4, 1, 6, 3, 2; state 3 is found three times,
	// state 1 once; state 0 was seen last.
	depths := []int{4, 1, 6, 3, 2}
	for _, tc := range []struct {
		s    Strategy
		want uint32 // the state forgotten first
	}{
		{Shallow, 1},
		{Deep, 2},
		{Degree, 2}, // the only one never found again
		{LRU, 2},
		{Stratified, 0}, // any but states 2 and 3 (depths 6 and 3): checked below
	} {
		t.Run(tc.s.String(), func(t *testing.T) {
			n := newTestNodes(t, NodeOptions{Capacity: 5, Strategy: tc.s, Strata: 3})
			var nodes []int32
			for i, d := range depths {
				_, at := n.Find(key(uint32(i)), state.Hash(key(uint32(i))))
				node, _ := n.Insert(at, key(uint32(i)), state.Hash(key(uint32(i))), int64(i), d, NoNode)
				nodes = append(nodes, node)
			}
			for _, k := range []uint32{3, 3, 3, 1, 0, 4} {
				n.Find(key(k), state.Hash(key(k)))
			}
			for _, node := range nodes {
				n.MakeCandidate(node)
			}
			if !n.Evict() {
				t.Fatal("no eviction")
			}
			var gone []uint32
			for i := range depths {
				if f, _ := n.Find(key(uint32(i)), state.Hash(key(uint32(i)))); f == NoNode {
					gone = append(gone, uint32(i))
				}
			}
			if len(gone) != 1 {
				t.Fatalf("forgot %v", gone)
			}
			switch tc.s {
			case Stratified:
				if gone[0] == 3 || gone[0] == 2 {
					t.Fatalf("forgot state %d, whose depth is a multiple of the strata", gone[0])
				}
			default:
				if gone[0] != tc.want {
					t.Fatalf("forgot %d, want %d", gone[0], tc.want)
				}
			}
		})
	}
}

// TestTDTree follows Fig. 2 of the state-caching paper: a node leaves the
// tree (and becomes a candidate) when it is closed and its last child in
// the tree has left, and its predecessor then loses a reference.
func TestTDTree(t *testing.T) {
	n := newTestNodes(t, NodeOptions{Capacity: 10})
	add := func(k uint32, pred int32) int32 {
		_, at := n.Find(key(k), state.Hash(key(k)))
		node, err := n.Insert(at, key(k), state.Hash(key(k)), int64(k), 0, pred)
		if err != nil {
			t.Fatal(err)
		}
		n.AddRef(node) // open
		if pred != NoNode {
			n.AddRef(pred)
		}
		return node
	}
	s0 := add(0, NoNode)
	s1 := add(1, s0)
	s2 := add(2, s0)
	n.Unref(s0) // 0 expanded
	s3 := add(3, s1)
	s4 := add(4, s1)
	n.Unref(s1)
	n.Unref(s2) // 2 generated nothing: it leaves the tree
	if !n.IsCandidate(s2) || n.IsCandidate(s1) || n.Refs(s0) != 1 {
		t.Fatalf("after level 1: candidate(2)=%v candidate(1)=%v refs(0)=%d", n.IsCandidate(s2), n.IsCandidate(s1), n.Refs(s0))
	}
	n.Unref(s3)
	if !n.IsCandidate(s3) || n.Refs(s1) != 1 {
		t.Fatal("3 did not leave the tree")
	}
	n.Unref(s4)
	for _, s := range []int32{s0, s1, s4} {
		if !n.IsCandidate(s) || n.Refs(s) != 0 {
			t.Fatalf("node %d: candidate %v, refs %d; the whole tree should have left", s, n.IsCandidate(s), n.Refs(s))
		}
	}
	if n.Candidates() != 5 {
		t.Fatalf("%d candidates, want 5", n.Candidates())
	}
}

// TestSweep forgets part of a tree: children of a forgotten node lose
// their link, and a forgotten member releases the predecessor that stays.
func TestSweep(t *testing.T) {
	n := newTestNodes(t, NodeOptions{Capacity: 10, Progress: true})
	var nodes []int32
	for k := uint32(0); k < 4; k++ {
		pred := int32(NoNode)
		if k > 0 {
			pred = nodes[k-1]
		}
		_, at := n.Find(key(k), state.Hash(key(k)))
		node, _ := n.Insert(at, key(k), state.Hash(key(k)), int64(k), int(k), pred)
		n.AddRef(node)
		if pred != NoNode {
			n.AddRef(pred)
		}
		n.SetProgress(node, int64(k)*10-5)
		nodes = append(nodes, node)
	}
	if n.Progress(nodes[0]) != -5 || n.Progress(nodes[3]) != 25 {
		t.Fatal("progress values lost")
	}
	n.SetPersistent(nodes[0])
	// Forget node 2 (in the middle of the chain 0-1-2-3).
	if k := n.Sweep(func(node int32) bool { return node == nodes[2] }); k != 1 {
		t.Fatalf("swept %d", k)
	}
	if n.Pred(nodes[3]) != NoNode {
		t.Fatal("3 still points at the forgotten 2")
	}
	if n.Refs(nodes[1]) != 1 { // its own open reference only
		t.Fatalf("refs(1) = %d, want 1", n.Refs(nodes[1]))
	}
	n.Unref(nodes[1])
	if !n.IsCandidate(nodes[1]) || n.IsCandidate(nodes[0]) {
		t.Fatal("1 should be a candidate, persistent 0 never")
	}
	if f, _ := n.Find(key(2), state.Hash(key(2))); f != NoNode {
		t.Fatal("2 still found")
	}
}

func TestNodesBudget(t *testing.T) {
	o := NodeOptions{Capacity: 1000}
	need := tableBytes(6, o, 1000)
	if _, err := NewNodes(6, budget.New(need-1), state.Hash, o); !errors.As(err, new(*budget.ErrExhausted)) {
		t.Fatalf("err = %v, want ErrExhausted", err)
	}
	if c := NodeCapacity(6, o, need); c != 1000 {
		t.Fatalf("NodeCapacity = %d, want 1000", c)
	}
	b := budget.New(need)
	n, err := NewNodes(6, b, state.Hash, o)
	if err != nil {
		t.Fatal(err)
	}
	n.Release()
	if b.Used() != 0 {
		t.Fatalf("%d bytes still reserved", b.Used())
	}
}
