package difftest

// This file is Locus's side of the comparison: its state graph, built
// with the compiled model's machine, its packing and its canonical forms,
// printed in the reference's text.

import (
	"fmt"
	"sort"
	"time"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/internal/reference"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/symmetry"
)

// toValues converts a Locus slot vector into the reference's values, by
// walking Locus's layout: every scalar leaf one slot, records field by
// field, arrays element by element in index order, and multisets entry by
// entry, each entry a presence slot followed by its element.
func toValues(m *compile.Model, slots []int64) []*reference.Value {
	out := make([]*reference.Value, len(m.Vars))
	for i, v := range m.Vars {
		pos := v.Slot
		out[i] = build(m, v.Type, slots, &pos)
	}
	return out
}

func build(m *compile.Model, t *murphi.Type, slots []int64, pos *int) *reference.Value {
	v := &reference.Value{Type: t}
	switch t.Kind {
	case murphi.TRecord:
		for _, f := range t.Fields {
			v.Elems = append(v.Elems, build(m, f.Type, slots, pos))
		}
	case murphi.TArray:
		for i := uint64(0); i < t.Index.Count(); i++ {
			v.Elems = append(v.Elems, build(m, t.Elem, slots, pos))
		}
	case murphi.TMultiset:
		v.Elems = make([]*reference.Value, t.Size)
		for k := range v.Elems {
			present := slots[*pos] != m.Undef
			*pos++
			e := build(m, t.Elem, slots, pos)
			if present {
				v.Elems[k] = e
			}
		}
	default:
		x := slots[*pos]
		*pos++
		v.Def, v.Int = x != m.Undef, x
	}
	return v
}

// canonicalizer is the normalisation Locus's engines apply to each state:
// symmetry reduction in the given mode, else multiset sorting.
func canonicalizer(m *compile.Model, sym bool, mode symmetry.Mode) func([]int64) {
	if sym {
		if r := symmetry.New(m, mode); r != nil {
			return r.Canonicalize
		}
	}
	return m.SortMultisets
}

// locusGraph builds Locus's reachable graph in the reference's terms. Each
// state is kept packed (Locus's own encoding) and named by the reference's
// canonical text; problems lists what is wrong on Locus's side alone: a
// canonical form outside the state's orbit, two representatives of one
// orbit (heuristic symmetry reduction may keep several: their outcomes
// must agree), an expansion that reports one rule's error twice.
func locusGraph(m *compile.Model, ref *reference.Model, sym, perRule bool, mode symmetry.Mode, maxStates int, deadline time.Time) (g *reference.Graph, problems []string, tooBig bool) {
	canon := canonicalizer(m, sym, mode)
	mc := m.NewMachine()
	up := m.NewUnpacker()
	g = &reference.Graph{Nodes: map[string]*reference.Node{}}
	textOf := map[string]string{} // packed state -> reference text
	packedOf := map[string]string{}
	var queue []string
	visit := func(slots []int64) string {
		_, want := ref.Canonical(toValues(m, slots), sym)
		c := append([]int64(nil), slots...)
		canon(c)
		if _, got := ref.Canonical(toValues(m, c), sym); got != want {
			problems = append(problems, fmt.Sprintf("Locus's canonical form leaves the orbit:\n  state %s\n  canonical form %s",
				ref.StateText(toValues(m, slots)), ref.StateText(toValues(m, c))))
		}
		buf := make([]byte, m.StateBytes)
		m.Pack(c, buf)
		packed := string(buf)
		if t, ok := textOf[packed]; ok {
			return t
		}
		if other, ok := packedOf[want]; ok && other != packed && mode == symmetry.Exact {
			problems = append(problems, "Locus keeps two representatives of one orbit: "+want)
		}
		textOf[packed], packedOf[want] = want, packed
		if _, ok := g.Nodes[want]; !ok {
			g.Nodes[want] = nil
		}
		queue = append(queue, packed)
		return want
	}
	for i := range m.Starts {
		err, assumed := mc.RunStart(i)
		switch {
		case assumed:
			g.Starts = append(g.Starts, "assumed")
		case err != nil:
			g.Starts = append(g.Starts, "error "+err.Kind)
		default:
			g.Starts = append(g.Starts, "-> "+visit(append([]int64(nil), mc.State()...)))
		}
	}
	cur := make([]int64, m.NumSlots)
	for len(queue) > 0 {
		if len(g.Nodes) > maxStates {
			return nil, problems, true
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			return nil, problems, false
		}
		packed := queue[0]
		queue = queue[1:]
		up.Unpack([]byte(packed), cur)
		node := &reference.Node{}
		text := textOf[packed]
		first := g.Nodes[text]
		if first == nil {
			g.Nodes[text] = node
		}
		props := func(kind string, list []*compile.Property) bool {
			for _, p := range list {
				ok, err := mc.Eval(p, cur)
				if err != nil {
					node.Props = kind + " error " + err.Kind
					return false
				}
				if !ok {
					node.Props = kind + " false"
					return false
				}
			}
			return true
		}
		if !props("assume", m.Assumes) || !props("invariant", m.Invariants) {
			if first != nil && first.Record() != node.Record() {
				problems = append(problems, "two representatives of one orbit differ in "+node.Props)
			}
			continue
		}
		curText := ref.StateText(toValues(m, cur))
		from := 0
		for calls := 0; ; calls++ {
			_, err, errRule := mc.Expand(cur, from, func(r int, succ []int64) bool {
				s := append([]int64(nil), succ...)
				if ref.StateText(toValues(m, s)) != curText {
					node.Changed = true
				}
				node.Steps = append(node.Steps, reference.StepText(perRule, r, "", visit(s)))
				return true
			})
			// As the engines do: an expansion without an error is done.
			if err == nil {
				break
			}
			node.Steps = append(node.Steps, reference.StepText(perRule, errRule, err.Kind, ""))
			if calls > 2*len(m.Rules) {
				problems = append(problems, fmt.Sprintf("Expand keeps reporting errors (from rule %d: rule %d again)", from, errRule))
				break
			}
			from = errRule + 1
		}
		sort.Strings(node.Steps)
		if first != nil && first.Record() != node.Record() {
			problems = append(problems, fmt.Sprintf("two representatives of one orbit step differently:\n%s---\n%s", first.Record(), node.Record()))
		}
	}
	return g, problems, false
}
