// Package symmetry implements scalarset symmetry reduction: states that
// differ only by a permutation of a scalarset's values (array indices and
// stored values together) are one state.
//
// Exact mode maps every state to the least member of its orbit, but without
// trying every permutation (CMurphi's -sym1 does, and times out on
// n_peterson). It first colours each scalarset element with a
// permutation-invariant signature, refined until stable (what the element's
// own array rows hold, and where the element is referred to), so that only
// labelings that list elements in colour order are candidates; within a
// colour, elements whose transposition leaves the state unchanged are
// interchangeable and tried in one order only. The least image over the
// remaining candidates is the canonical form: the candidate set depends only
// on the orbit, so two states of one orbit get the same form.
//
// Heuristic mode uses one round of colouring and breaks ties by the old
// element order: one permutation per state, sound (every state maps into its
// orbit) but possibly keeping several representatives of one orbit.
package symmetry

import (
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
)

// Mode selects exact or heuristic reduction.
type Mode uint8

// Modes.
const (
	Exact Mode = iota
	Heuristic
)

type permType struct {
	lo  int64
	n   int
	off int // first index of this type's elements in the flat arrays
}

// dim is one array dimension along a leaf's path indexed by a permuted type.
type dim struct {
	t      int // permuted type
	k      int // the element this leaf sits under
	e      int // the same element's index in the flat arrays (off + k)
	stride int
}

type leafInfo struct {
	val     int // permuted type of the value, -1 none, -2 union (check each)
	valLo   int64
	valN    int64
	valOff  int
	dims    []dim
	shape   uint64   // position class with permuted coordinates removed
	posHash uint64   // mix(shape): the static part of the position hash
	same    []uint32 // per dim: which dims index the same element (a bit set)
}

// rowMove is an active leaf p in row k of one permuted type's element
// (flat index e), holding no element: apply moves it by stride slots per
// label, and keeps its value.
type rowMove struct{ p, e, k, stride int32 }

// Reducer canonicalises states of one model. Not safe for concurrent use.
type Reducer struct {
	m      *compile.Model
	mode   Mode
	types  []permType
	leaves []leafInfo
	undef  int64

	// scratch; the per-type slices are views of the flat ones
	orig, tmp, best []int64
	color           [][]int32
	colorF          []int32
	newColor        [][]int32
	sig             [][]uint64
	sigF            []uint64
	zeroColour      []int32  // every element's colour 0
	last            []int64  // the leaves of the last state coloured
	lastSig         []uint64 // and its first-round signatures
	perm            [][]int  // element -> new label
	permF           []int
	elemType        []int32 // the type of each flat element
	classes         [][]class
	elems           int       // total elements over all permuted types
	active          []int     // leaves that involve a permuted type
	rows            [][]int32 // per flat element: the active leaves it indexes
	rowMoves        []rowMove // the active leaves in one row of one element, holding no element
	otherActive     []int32   // the other active leaves
	valLeaves       [][]int32 // per type: the active leaves that may hold its values
	refine          bool      // colours may need more than one round
	classElems      [][]int
	classGroups     [][]int
	classUsed       [][]bool
	Candidates      int64 // candidate permutations tried (statistics)
}

type class struct {
	elems  []int  // elements of this colour, in old order
	groups []int  // interchangeable group of each element (index into elems' group ids)
	used   []bool // scratch for enumeration: element already labelled
}

// New returns a Reducer for m, or nil if m has no scalarset to permute
// (only multiset reduction then applies).
func New(m *compile.Model, mode Mode) *Reducer {
	r := &Reducer{m: m, mode: mode, undef: m.Undef}
	ids := map[int]int{}
	for _, t := range m.Checked.Scalarsets {
		if t.Size < 2 {
			continue
		}
		ids[t.ID] = len(r.types)
		r.types = append(r.types, permType{lo: t.Lo, n: int(t.Size)})
	}
	if len(r.types) == 0 {
		return nil
	}
	off := 0
	for i := range r.types {
		r.types[i].off = off
		off += r.types[i].n
	}
	r.leaves = make([]leafInfo, m.NumSlots)
	for _, v := range m.Vars {
		r.walk(v.Type, v.Slot, nil, ids, 0)
	}
	for p := range r.leaves {
		li := &r.leaves[p]
		if len(li.dims) == 0 && li.val == -1 {
			continue
		}
		r.active = append(r.active, p)
		li.posHash = mix(li.shape + 0x1234567)
		for i := range li.dims {
			li.dims[i].e = r.types[li.dims[i].t].off + li.dims[i].k
		}
		if li.val >= 0 {
			t := r.types[li.val]
			li.valLo, li.valN, li.valOff = t.lo, int64(t.n), t.off
		}
		li.same = make([]uint32, len(li.dims))
		for i, d := range li.dims {
			for j, d2 := range li.dims {
				if d2.t == d.t && d2.k == d.k {
					li.same[i] |= 1 << uint(j&31)
				}
			}
		}
		// Signatures depend on other elements' colours only where a leaf
		// involves two permuted coordinates (two indices, or an index and
		// a value); otherwise one round of colouring is already stable.
		n := len(li.dims)
		if li.val != -1 {
			n++
		}
		if n >= 2 {
			r.refine = true
		}
	}
	// The tables of active leaves apply and swapFixes walk.
	r.rows = make([][]int32, off)
	r.valLeaves = make([][]int32, len(r.types))
	for _, p := range r.active {
		li := &r.leaves[p]
		if len(li.dims) == 1 && li.val == -1 {
			d := li.dims[0]
			r.rowMoves = append(r.rowMoves, rowMove{int32(p), int32(d.e), int32(d.k), int32(d.stride)})
		} else {
			r.otherActive = append(r.otherActive, int32(p))
		}
		for i, d := range li.dims {
			if li.same[i]&(1<<uint(i&31)-1) == 0 { // the first dim naming this element
				r.rows[d.e] = append(r.rows[d.e], int32(p))
			}
		}
		for t := range r.types {
			if li.val == t || li.val == -2 {
				r.valLeaves[t] = append(r.valLeaves[t], int32(p))
			}
		}
	}
	n := m.NumSlots
	r.orig, r.tmp, r.best = make([]int64, n), make([]int64, n), make([]int64, n)
	r.colorF = make([]int32, off)
	r.sigF = make([]uint64, off)
	r.zeroColour = make([]int32, off)
	r.last = make([]int64, n)
	r.lastSig = make([]uint64, off)
	for e := range r.lastSig {
		r.lastSig[e] = 1
	}
	for _, p := range r.active {
		r.addLeaf(&r.leaves[p], 0, r.zeroColour, r.lastSig, 1)
	}
	r.permF = make([]int, off)
	for ti, t := range r.types {
		for k := 0; k < t.n; k++ {
			r.elemType = append(r.elemType, int32(ti))
		}
		r.color = append(r.color, r.colorF[t.off:t.off+t.n])
		r.newColor = append(r.newColor, make([]int32, t.n))
		r.sig = append(r.sig, r.sigF[t.off:t.off+t.n])
		r.perm = append(r.perm, r.permF[t.off:t.off+t.n])
		r.classElems = append(r.classElems, make([]int, t.n))
		r.classGroups = append(r.classGroups, make([]int, t.n))
		r.classUsed = append(r.classUsed, make([]bool, t.n))
	}
	r.classes = make([][]class, len(r.types))
	for _, t := range r.types {
		r.elems += t.n
	}
	return r
}

// walk records leaf information for a value of type t at slot.
func (r *Reducer) walk(t *murphi.Type, slot int, dims []dim, ids map[int]int, msOffset int) {
	switch t.Kind {
	case murphi.TRecord:
		for i, f := range t.Fields {
			r.walk(f.Type, slot+compile.FieldOffset(t, i), dims, ids, msOffset)
		}
	case murphi.TArray:
		size := compile.SlotSize(t.Elem)
		for k, v := range compile.IndexValues(t.Index) {
			d := dims
			if pt, ok := r.permTypeOf(t.Index, v, ids); ok {
				d = append(append([]dim(nil), dims...), dim{t: pt, k: int(v - r.types[pt].lo), stride: size})
			}
			r.walk(t.Elem, slot+k*size, d, ids, msOffset)
		}
	case murphi.TMultiset:
		entry := 1 + compile.SlotSize(t.Elem)
		for e := 0; e < int(t.Size); e++ {
			base := slot + e*entry
			// Entry positions are not meaningful (entries are kept
			// sorted), so the shape forgets them.
			off := msOffset + e*entry
			r.leaves[base] = leafInfo{val: -1, dims: dims, shape: r.shapeOf(base, dims, off)}
			r.walk(t.Elem, base+1, dims, ids, off)
		}
	default:
		li := leafInfo{val: -1, dims: dims}
		switch t.Kind {
		case murphi.TScalarset:
			if pt, ok := ids[t.ID]; ok {
				li.val = pt
			}
		case murphi.TUnion:
			for _, mt := range t.Union {
				if _, ok := ids[mt.ID]; ok {
					li.val = -2
				}
			}
		}
		li.shape = r.shapeOf(slot, dims, msOffset)
		r.leaves[slot] = li
	}
}

func (r *Reducer) permTypeOf(idx *murphi.Type, v int64, ids map[int]int) (int, bool) {
	switch idx.Kind {
	case murphi.TScalarset:
		pt, ok := ids[idx.ID]
		return pt, ok
	case murphi.TUnion:
		for _, mt := range idx.Union {
			if pt, ok := ids[mt.ID]; ok && mt.Lo <= v && v <= mt.Hi {
				return pt, true
			}
		}
	}
	return 0, false
}

func (r *Reducer) shapeOf(slot int, dims []dim, msOffset int) uint64 {
	base := slot - msOffset
	for _, d := range dims {
		base -= d.k * d.stride
	}
	return uint64(base)
}

// flatElem returns the flat index of the element value v names at leaf li,
// or -1.
func (r *Reducer) flatElem(li *leafInfo, v int64) int {
	if li.val >= 0 {
		if k := v - li.valLo; uint64(k) < uint64(li.valN) {
			return li.valOff + int(k)
		}
		return -1
	}
	if li.val == -1 || v == r.undef {
		return -1
	}
	for _, t := range r.types {
		if t.lo <= v && v < t.lo+int64(t.n) {
			return t.off + int(v-t.lo)
		}
	}
	return -1
}

// Canonicalize replaces the state slots by its representative.
func (r *Reducer) Canonicalize(s []int64) {
	r.m.SortMultisets(s)
	r.colour(s)
	if r.mode == Heuristic || r.numColours() == r.elems || r.buildClasses(s) {
		// Heuristic: one candidate by definition. Exact: every element
		// has its own colour, or within each colour every element is
		// interchangeable with every other, so that all candidates give
		// one image.
		r.relabelByColour(s)
		return
	}
	copy(r.orig, s)
	first := true
	r.enumerate(0, 0, 0, &first)
	copy(s, r.best)
}

// relabelByColour relabels s in place, each type's elements in colour
// order, ties by old order.
func (r *Reducer) relabelByColour(s []int64) {
	identity := true
	for t := range r.types {
		for label, e := range r.classElems[t] {
			r.perm[t][e] = label
			identity = identity && e == label
		}
	}
	if identity {
		return
	}
	r.apply(s, r.tmp)
	copy(s, r.tmp)
}

// mix is splitmix64's finaliser: a strong 64-bit mixer for signatures.
// (Generated code computes signatures too, see Plan: the constants here
// are theirs.)
func mix(x uint64) uint64 {
	x += MixAdd
	x = (x ^ (x >> 30)) * MixMul1
	x = (x ^ (x >> 27)) * MixMul2
	return x ^ (x >> 31)
}

// The constants of the signatures (mix, addLeaf, signatures).
const (
	MixAdd  = 0x9e3779b97f4a7c15
	MixMul1 = 0xbf58476d1ce4e5b9
	MixMul2 = 0x94d049bb133111eb
	// ColourMul spreads a colour (signatures' start, addLeaf's position).
	ColourMul = 0x9e3779b97f4a7c15
	// ElemMul hashes a value naming an element (its type and colour),
	// ValueXor and ValueMul any other value.
	ElemMul  = 0xff51afd7ed558ccd
	ValueXor = 0x5bd1e995
	ValueMul = 0xc4ceb9fe1a85ec53
	// RefXor marks the term an element gets for being referred to.
	RefXor = 0xabcdef
)

// colour computes stable element colours for state s.
func (r *Reducer) colour(s []int64) {
	for t := range r.types {
		for e := range r.color[t] {
			r.color[t][e] = 0
		}
	}
	rounds := 1
	if r.mode == Exact && r.refine {
		rounds = 0
		for _, t := range r.types {
			rounds += t.n
		}
	}
	prev := r.numColours()
	for round := 0; round < rounds; round++ {
		if round == 0 {
			r.firstSignatures(s)
		} else {
			r.signatures(s)
		}
		for t := range r.types {
			r.rank(t)
		}
		n := r.numColours()
		if (n == prev && round > 0) || n == r.elems {
			break
		}
		prev = n
	}
}

func (r *Reducer) numColours() int {
	total := 0
	for t := range r.types {
		max := int32(-1)
		for _, c := range r.color[t] {
			if c > max {
				max = c
			}
		}
		total += int(max) + 1
	}
	return total
}

// signatures accumulates, per element, an order-independent hash of the
// tuples describing its rows and the places that refer to it. Only the
// final combination per tuple goes through the strong mixer; collisions
// would merely merge colours (more candidates), never break canonicity.
func (r *Reducer) signatures(s []int64) {
	col, sig := r.colorF, r.sigF
	for e := range sig {
		sig[e] = uint64(col[e])*ColourMul + 1
	}
	for _, p := range r.active {
		r.addLeaf(&r.leaves[p], s[p], col, sig, 1)
	}
}

// firstSignatures computes the first round's signatures (every colour
// 0) of s into r.sigF. Signatures are sums of one term per leaf, and the
// states a search canonicalises one after another (a state's successors)
// differ in a few leaves: so it keeps the last state's leaves (r.last) and
// signatures (r.lastSig), and changes only the terms of the leaves that
// differ.
func (r *Reducer) firstSignatures(s []int64) {
	for _, p := range r.active {
		if v, old := s[p], r.last[p]; v != old {
			li := &r.leaves[p]
			r.addLeaf(li, old, r.zeroColour, r.lastSig, ^uint64(0))
			r.addLeaf(li, v, r.zeroColour, r.lastSig, 1)
			r.last[p] = v
		}
	}
	copy(r.sigF, r.lastSig)
}

// addLeaf adds sign (1 or -1) times the terms of leaf li holding v to sig,
// under colours col.
func (r *Reducer) addLeaf(li *leafInfo, v int64, col []int32, sig []uint64, sign uint64) {
	ve := r.flatElem(li, v)
	var vabs uint64
	if ve >= 0 {
		// The element's type and colour, never its identity.
		vabs = (uint64(r.elemType[ve]+1)<<40 ^ uint64(col[ve])) * ElemMul
	} else {
		vabs = (uint64(v) ^ ValueXor) * ValueMul
	}
	pos := li.posHash
	for i := range li.dims {
		pos = (pos ^ uint64(col[li.dims[i].e]) ^ uint64(i)<<48) * ColourMul
	}
	for i := range li.dims {
		e := li.dims[i].e
		self := uint64(0)
		if ve == e {
			self = 1
		}
		sig[e] += sign * mix(pos^vabs^uint64(i)<<32^self<<31^uint64(li.same[i])<<20)
	}
	if ve >= 0 {
		same := uint64(0)
		for j := range li.dims {
			if li.dims[j].e == ve {
				same |= 1 << uint(j&63)
			}
		}
		sig[ve] += sign * mix(pos^same<<24^RefXor)
	}
}

// rank renumbers type t's colours by sorted (old colour, signature), and
// leaves its elements in r.classElems[t] in colour order, ties by old
// order (element index), which is the order relabelByColour and
// buildClasses need.
func (r *Reducer) rank(t int) {
	idx := r.classElems[t]
	for e := range idx {
		idx[e] = e
	}
	col, sig := r.color[t], r.sig[t]
	// Insertion sort: element counts are small, and it allocates nothing.
	for i := 1; i < len(idx); i++ {
		e := idx[i]
		j := i
		for j > 0 {
			p := idx[j-1]
			if col[p] < col[e] || col[p] == col[e] && sig[p] <= sig[e] {
				break
			}
			idx[j] = p
			j--
		}
		idx[j] = e
	}
	nc := r.newColor[t]
	c := int32(0)
	for i, e := range idx {
		if i > 0 {
			p := idx[i-1]
			if col[p] != col[e] || sig[p] != sig[e] {
				c++
			}
		}
		nc[e] = c
	}
	copy(col, nc)
}

// apply writes into dst the state s with every permuted type's elements
// relabelled by r.perm, multisets re-sorted. Leaves that involve no
// permuted type stay where they are, so they are copied wholesale; the
// others are a permutation of themselves.
func (r *Reducer) apply(s, dst []int64) {
	copy(dst, s)
	perm := r.permF
	for _, mv := range r.rowMoves {
		dst[int(mv.p)+(perm[mv.e]-int(mv.k))*int(mv.stride)] = s[mv.p]
	}
	for _, p := range r.otherActive {
		q, v := r.image(int(p), s[p])
		dst[q] = v
	}
	if len(r.m.Multisets) > 0 {
		r.m.SortMultisets(dst)
	}
}

// buildClasses groups each type's elements by colour and, within a colour,
// into interchangeable groups (their transposition fixes the state). It
// reports whether every class is one group.
func (r *Reducer) buildClasses(s []int64) bool {
	for e := range r.permF {
		r.permF[e] = int(e - r.types[r.elemType[e]].off)
	}
	single := true
	for t := range r.types {
		n := r.types[t].n
		col := r.color[t]
		elems, groups := r.classElems[t], r.classGroups[t] // elems in colour order (rank)
		r.classes[t] = r.classes[t][:0]
		for lo := 0; lo < n; {
			hi := lo + 1
			for hi < n && col[elems[hi]] == col[elems[lo]] {
				hi++
			}
			cl := class{elems: elems[lo:hi], groups: groups[lo:hi], used: r.classUsed[t][lo:hi]}
			for i := range cl.groups {
				cl.groups[i] = -1
			}
			g := 0
			for i := range cl.elems {
				if cl.groups[i] >= 0 {
					continue
				}
				cl.groups[i] = g
				for j := i + 1; j < len(cl.elems); j++ {
					if cl.groups[j] < 0 && r.swapFixes(s, t, cl.elems[i], cl.elems[j]) {
						cl.groups[j] = g
					}
				}
				g++
			}
			single = single && g == 1
			r.classes[t] = append(r.classes[t], cl)
			lo = hi
		}
	}
	return single
}

// swapFixes reports whether exchanging elements a and b of type t leaves s
// unchanged. r.perm must be the identity; it is again on return.
func (r *Reducer) swapFixes(s []int64, t, a, b int) bool {
	perm := r.perm[t]
	perm[a], perm[b] = b, a
	fixes := r.swapFixesSet(s, t, a, b)
	perm[a], perm[b] = a, b
	return fixes
}

// swapFixesSet is swapFixes once r.perm holds the swap.
func (r *Reducer) swapFixesSet(s []int64, t, a, b int) bool {
	if len(r.m.Multisets) > 0 {
		// Entries move under the swap and must be re-sorted: compare
		// whole images.
		r.apply(s, r.tmp)
		for i := range s {
			if s[i] != r.tmp[i] {
				return false
			}
		}
		return true
	}
	// Without multisets the swap fixes s iff every active leaf, moved and
	// relabelled, lands on an equal value. Only the leaves a or b index
	// move, and only those that may hold a value of t are relabelled. Of
	// the moved ones, a's suffice: the swap is its own inverse, so a leaf
	// of b's lands right iff the leaf of a's it swaps with does. Check
	// those, stopping early.
	for _, rows := range [2][]int32{r.rows[r.types[t].off+a], r.valLeaves[t]} {
		for _, p := range rows {
			if q, v := r.image(int(p), s[p]); s[q] != v {
				return false
			}
		}
	}
	return true
}

// image returns where the active leaf p goes under r.perm, and its value v
// relabelled.
func (r *Reducer) image(p int, v int64) (int, int64) {
	li := &r.leaves[p]
	perm := r.permF
	q := p
	for i := range li.dims {
		d := &li.dims[i]
		q += (perm[d.e] - d.k) * d.stride
	}
	switch {
	case li.val >= 0:
		if k := v - li.valLo; uint64(k) < uint64(li.valN) {
			v = li.valLo + int64(perm[li.valOff+int(k)])
		}
	case li.val == -2 && v != r.undef:
		for _, t := range r.types {
			if k := v - t.lo; uint64(k) < uint64(t.n) {
				return q, t.lo + int64(perm[t.off+int(k)])
			}
		}
	}
	return q, v
}

// enumerate assigns labels class by class (type t, class ci, next label)
// and keeps the least image.
func (r *Reducer) enumerate(t, ci, label int, first *bool) {
	if t == len(r.types) {
		r.Candidates++
		r.apply(r.orig, r.tmp)
		if *first || less(r.tmp, r.best) {
			copy(r.best, r.tmp)
			*first = false
		}
		return
	}
	if ci == len(r.classes[t]) {
		r.enumerate(t+1, 0, 0, first)
		return
	}
	// Each class has its own scratch: enumeration of later classes runs
	// inside this one's loop.
	cl := &r.classes[t][ci]
	for i := range cl.used {
		cl.used[i] = false
	}
	r.assign(t, ci, cl, label, 0, cl.used, first)
}

// assign gives labels label.. to the elements of class cl: at each step any
// group's first unlabelled element may come next.
func (r *Reducer) assign(t, ci int, cl *class, label, done int, used []bool, first *bool) {
	if done == len(cl.elems) {
		r.enumerate(t, ci+1, label, first)
		return
	}
	// Within a group of interchangeable elements only the first unused
	// one may take the next label.
	var triedBuf [64]bool
	tried := triedBuf[:0]
	if len(cl.elems) <= len(triedBuf) {
		tried = triedBuf[:len(cl.elems)]
	} else {
		tried = make([]bool, len(cl.elems))
	}
	for i, e := range cl.elems {
		g := cl.groups[i]
		if used[i] || tried[g] {
			continue
		}
		tried[g] = true
		used[i] = true
		r.perm[t][e] = label
		r.assign(t, ci, cl, label+1, done+1, used, first)
		used[i] = false
	}
}

func less(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// Normalizer returns the in-place normalisation a checker applies to every
// state before it stores it: multiset reduction (always on, as in CMurphi)
// and, when reduce is set, scalarset symmetry reduction in the given mode.
// It is nil when there is nothing to do.
func Normalizer(m *compile.Model, mode Mode, reduce bool) func([]int64) {
	var sym *Reducer
	if reduce {
		sym = New(m, mode)
	}
	if sym == nil {
		if len(m.Multisets) == 0 {
			return nil
		}
		return m.SortMultisets
	}
	return sym.Canonicalize
}
