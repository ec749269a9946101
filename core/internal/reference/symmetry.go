package reference

// This file implements symmetry reduction the obvious way: a state's
// canonical form is the least text among its images under every
// permutation of every symmetric scalarset (array indices and stored values
// together, undefined fixed). Brute force, fine for small scalarsets; the
// number of orbits it yields is representation-independent, so it is
// comparable with any exact reduction.

import (
	"strings"

	"github.com/locus-mc/locus/core/murphi"
)

// perm maps, for each permuted scalarset (by type ID), element k to p[k].
type perm map[int][]int

// permutations lists every combination of permutations of the symmetric
// scalarsets: the named top-level scalarset types with at least two
// elements (Rumur reduces only named types; a one-element type has nothing
// to permute).
func (m *Model) permutations() []perm {
	out := []perm{{}}
	for _, t := range m.ck.Scalarsets {
		if t.Size < 2 {
			continue
		}
		var next []perm
		for _, p := range out {
			for _, q := range allPermutations(int(t.Size)) {
				n := perm{}
				for id, v := range p {
					n[id] = v
				}
				n[t.ID] = q
				next = append(next, n)
			}
		}
		out = next
	}
	return out
}

// allPermutations lists the permutations of 0..n-1.
func allPermutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range allPermutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int(nil), p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

// memberOf returns the permuted scalarset type of value x of type t and
// its mapping, if any.
func (p perm) memberOf(t *murphi.Type, x int64) (*murphi.Type, []int) {
	switch t.Kind {
	case murphi.TScalarset:
		if q, ok := p[t.ID]; ok {
			return t, q
		}
	case murphi.TUnion:
		for _, u := range t.Union {
			if u.Lo <= x && x <= u.Hi {
				return p.memberOf(u, x)
			}
		}
	}
	return nil, nil
}

// apply returns the image of v under p.
func (p perm) apply(v *Value) *Value {
	if v == nil {
		return nil
	}
	out := &Value{Type: v.Type, Def: v.Def, Int: v.Int}
	if v.Elems == nil {
		if v.Def {
			if st, q := p.memberOf(v.Type, v.Int); st != nil {
				out.Int = st.Lo + int64(q[v.Int-st.Lo])
			}
		}
		return out
	}
	out.Elems = make([]*Value, len(v.Elems))
	for i, e := range v.Elems {
		out.Elems[i] = p.apply(e)
	}
	if v.Type.Kind == murphi.TArray && isSymbolic(v.Type.Index) {
		// The element at index value x moves to index p(x).
		idx := v.Type.Index
		moved := make([]*Value, len(out.Elems))
		for i, x := range indexValues(idx) {
			y := x
			if st, q := p.memberOf(idx, x); st != nil {
				y = st.Lo + int64(q[x-st.Lo])
			}
			k, _ := num{}.position(idx, y)
			moved[k] = out.Elems[i]
		}
		out.Elems = moved
	}
	return out
}

// applyState returns the image of a state under p.
func (p perm) applyState(st []*Value) []*Value {
	out := make([]*Value, len(st))
	for i, v := range st {
		out[i] = p.apply(v)
	}
	return out
}

// StateText prints a state: every variable as name=value, multisets in
// sorted order.
func (m *Model) StateText(state []*Value) string {
	var b strings.Builder
	for i, g := range m.globals {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.Name)
		b.WriteByte('=')
		m.num.write(&b, state[i])
	}
	return b.String()
}

// Canonical returns the canonical representative of state and its text:
// with symmetry, the image with the least text under every permutation;
// in any case with multiset entries in the fixed order.
func (m *Model) Canonical(state []*Value, symmetry bool) ([]*Value, string) {
	return m.canonical(state, symmetry, false)
}

// canonical is Canonical, counting each image against the work budget of
// the search running (about as costly as a statement) if count is set.
func (m *Model) canonical(state []*Value, symmetry, count bool) ([]*Value, string) {
	best := cloneState(state)
	bestText := m.StateText(best)
	if symmetry {
		if count {
			m.spend(int64(len(m.perms)))
		}
		for _, p := range m.perms {
			img := p.applyState(state)
			if t := m.StateText(img); t < bestText {
				best, bestText = img, t
			}
		}
	}
	for _, v := range best {
		m.num.sortMultisets(v)
	}
	return best, bestText
}

// Symmetric reports whether the model has scalarsets to permute.
func (m *Model) Symmetric() bool { return len(m.perms) > 1 }
