// Package tracedata encodes sequences of states (counterexamples,
// simulation paths, paths in the state graph) compactly for the page.
//
// A state of a big model has hundreds of thousands of components; sent as
// JSON name/value pairs per step and decoded on the page's main thread it
// froze the page for seconds. Here the component names go once (as UTF-8
// bytes, with a tree of arrays and records for collapsing), values once per
// distinct value (a table), the first state as value ids, and every later
// step as the pairs (component, new value id) that changed. The page keeps
// this in typed arrays and renders only the rows on screen.
package tracedata

import (
	"strings"
)

// Step is one state to encode: the rule (or start state) that led to it,
// where that rule is, and every component's value in name order.
type Step struct {
	Rule   string
	Pos    string
	Values []string
}

// Payload is one encoded batch of steps. The first payload of a sequence
// (Names != nil) starts it: the page drops what it had under the same key.
// Later payloads append steps, after the page has cut its sequence to
// Base steps.
type Payload struct {
	Names  []byte   // component names joined by '\n' (first payload only)
	Tree   *Tree    // the names as a tree (first payload only)
	Values []string // value-table entries new in this payload, in id order
	Start  []int32  // value ids of the first step's components (first payload only)
	Steps  []StepInfo
	// Changes holds, for each step after the sequence's first, the number
	// of changed components followed by that many (component, value id)
	// pairs.
	Changes []int32
	Base    int // steps of the sequence that come before this payload's
}

// StepInfo names a step.
type StepInfo struct {
	Rule string `json:"rule"`
	Pos  string `json:"pos,omitempty"`
}

// Encoder turns steps into payloads; it remembers the value table and the
// last state, so that a simulation can append to what it sent before.
type Encoder struct {
	ids   map[string]int32
	next  int32
	prev  []int32
	steps int
}

// Reset starts a new sequence with the given component names and first
// step.
func (e *Encoder) Reset(names []string, first Step) *Payload {
	e.ids = make(map[string]int32)
	e.next = 0
	e.steps = 0
	p := &Payload{Names: []byte(strings.Join(names, "\n")), Tree: BuildTree(names)}
	p.Start = make([]int32, len(first.Values))
	for i, v := range first.Values {
		p.Start[i] = e.id(p, v)
	}
	e.prev = append(e.prev[:0], p.Start...)
	p.Steps = append(p.Steps, StepInfo{first.Rule, first.Pos})
	e.steps = 1
	return p
}

// Encode starts a new sequence with all of steps (at least one) in one
// payload.
func (e *Encoder) Encode(names []string, steps []Step) *Payload {
	p := e.Reset(names, steps[0])
	if len(steps) > 1 {
		more := e.Append(steps[1:]...)
		p.Values = append(p.Values, more.Values...)
		p.Steps = append(p.Steps, more.Steps...)
		p.Changes = more.Changes
	}
	return p
}

// Cut makes the sequence n steps long again (n >= 1), as when the user
// goes back in a simulation; last must be the values of step n.
func (e *Encoder) Cut(n int, last []string) {
	e.steps = n
	for i, v := range last {
		if id, ok := e.ids[v]; ok {
			e.prev[i] = id
		} else {
			e.prev[i] = -1 // never sent: Append sends it as changed
		}
	}
}

// Steps is the length of the sequence so far.
func (e *Encoder) Steps() int { return e.steps }

// Append encodes more steps after the sequence so far.
func (e *Encoder) Append(steps ...Step) *Payload {
	p := &Payload{Base: e.steps}
	for _, st := range steps {
		p.Steps = append(p.Steps, StepInfo{st.Rule, st.Pos})
		at := len(p.Changes)
		p.Changes = append(p.Changes, 0)
		n := int32(0)
		for i, v := range st.Values {
			id := e.id(p, v)
			if id != e.prev[i] {
				p.Changes = append(p.Changes, int32(i), id)
				e.prev[i] = id
				n++
			}
		}
		p.Changes[at] = n
		e.steps++
	}
	return p
}

func (e *Encoder) id(p *Payload, v string) int32 {
	if id, ok := e.ids[v]; ok {
		return id
	}
	id := e.next
	e.next++
	e.ids[v] = id
	p.Values = append(p.Values, v)
	return id
}

// Tree is the component names as a tree, in preorder: node i's subtree is
// the nodes i .. i+Size[i]-1, so the page lists the rows of expanded nodes
// by one scan that skips collapsed subtrees.
type Tree struct {
	Depth  []int32 // 0 for top-level variables
	Size   []int32 // nodes in the subtree, the node included
	Leaf   []int32 // component index of a leaf, -1 for an array or record
	Labels []byte  // node labels ("pc", "[2]", ".state") back to back
	Ends   []int32 // end offset of each node's label in Labels

	// Derived here rather than on the page, where a loop over a million
	// nodes would hold the main thread.
	Parent     []int32 // enclosing array or record, -1 at the top
	LeafCount  []int32 // components in the subtree
	NodeOfLeaf []int32 // the node of each component
	NameStarts []int32 // byte offset of each component's name in the '\n'-joined names, and one past the end
}

// BuildTree splits designators such as "procs[2].state" into the path
// "procs", "[2]", ".state" and shares common prefixes between consecutive
// names (a checker lays out each array and record contiguously).
func BuildTree(names []string) *Tree {
	t := &Tree{}
	var open []int        // nodes on the current path
	var openPath []string // their labels
	for leaf, name := range names {
		segs := segments(name)
		keep := 0
		for keep < len(open) && keep < len(segs)-1 && openPath[keep] == segs[keep] {
			keep++
		}
		for _, n := range open[keep:] {
			t.Size[n] = int32(len(t.Depth) - n)
		}
		open, openPath = open[:keep], openPath[:keep]
		for d := keep; d < len(segs); d++ {
			n := len(t.Depth)
			t.Depth = append(t.Depth, int32(d))
			t.Size = append(t.Size, 1)
			t.Labels = append(t.Labels, segs[d]...)
			t.Ends = append(t.Ends, int32(len(t.Labels)))
			if d == len(segs)-1 {
				t.Leaf = append(t.Leaf, int32(leaf))
			} else {
				t.Leaf = append(t.Leaf, -1)
				open = append(open, n)
				openPath = append(openPath, segs[d])
			}
		}
	}
	for _, n := range open {
		t.Size[n] = int32(len(t.Depth) - n)
	}
	n := len(t.Depth)
	t.Parent = make([]int32, n)
	t.LeafCount = make([]int32, n)
	t.NodeOfLeaf = make([]int32, len(names))
	var stack []int32
	for i := 0; i < n; i++ {
		for int32(len(stack)) > t.Depth[i] {
			stack = stack[:len(stack)-1]
		}
		t.Parent[i] = -1
		if len(stack) > 0 {
			t.Parent[i] = stack[len(stack)-1]
		}
		if t.Leaf[i] < 0 {
			stack = append(stack, int32(i))
		} else {
			t.NodeOfLeaf[t.Leaf[i]] = int32(i)
		}
	}
	for i := n - 1; i >= 0; i-- {
		if t.Leaf[i] >= 0 {
			t.LeafCount[i] = 1
		}
		if p := t.Parent[i]; p >= 0 {
			t.LeafCount[p] += t.LeafCount[i]
		}
	}
	t.NameStarts = make([]int32, len(names)+1)
	at := int32(0)
	for i, name := range names {
		t.NameStarts[i] = at
		at += int32(len(name)) + 1
	}
	t.NameStarts[len(names)] = at
	return t
}

// segments splits a designator before each '[' and '.' that is not inside
// brackets.
func segments(name string) []string {
	var out []string
	start, depth := 0, 0
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '[':
			if depth == 0 && i > start {
				out = append(out, name[start:i])
				start = i
			}
			depth++
		case ']':
			if depth > 0 {
				depth--
			}
		case '.':
			if depth == 0 && i > start {
				out = append(out, name[start:i])
				start = i
			}
		}
	}
	return append(out, name[start:])
}
