package symmetry

// Plan is the Reducer's static part, for code that canonicalises as
// Canonicalize does without calling it: core/wasmgen emits Canonicalize's
// steps as WebAssembly, unrolled over these tables, and must give every
// state the same representative (the host rebuilds counterexamples with
// the Reducer, and finds the module's states again by their canonical
// forms).
type Plan struct {
	Mode Mode
	// Refine: colours may need more than one round (see New).
	Refine bool
	Types  []PlanType
	// Elems is the number of elements over all types; an element's flat
	// index is its type's Off plus its own.
	Elems int
	Undef int64
	// Active are the leaves that involve a permuted type, in the order
	// the Reducer walks them.
	Active []PlanLeaf
	// RowMoves are the active leaves in one row of one element holding no
	// element (apply moves them); OtherActive the other active leaves'
	// indexes in Active.
	RowMoves    []RowMove
	OtherActive []int
	// Rows lists, per flat element, the indexes in Active of the leaves
	// it indexes (by their first dimension naming it); ValLeaves, per
	// type, those that may hold a value of it.
	Rows      [][]int
	ValLeaves [][]int
}

// PlanType is one permuted scalarset: its values are Lo..Lo+N-1, its
// elements' flat indexes Off..Off+N-1.
type PlanType struct {
	Lo     int64
	N, Off int
}

// PlanLeaf is an active leaf.
type PlanLeaf struct {
	Slot int
	// Val is the permuted type of the leaf's value, -1 if it holds no
	// element, -2 if it is a union that may hold elements of several.
	Val  int
	Dims []PlanDim
	// PosHash is the static part of the leaf's position hash; Same, per
	// dimension, the set of dimensions naming the same element.
	PosHash uint64
	Same    []uint32
}

// PlanDim is an array dimension along a leaf's path indexed by a permuted
// type: the leaf sits under element K of type Type (flat index E), whose
// rows are Stride slots apart.
type PlanDim struct{ Type, K, E, Stride int }

// RowMove is an active leaf (Slot) in row K of element E, holding no
// element: apply moves it Stride slots per label.
type RowMove struct{ Slot, E, K, Stride int }

// Plan returns r's tables.
func (r *Reducer) Plan() *Plan {
	p := &Plan{Mode: r.mode, Refine: r.refine, Elems: r.elems, Undef: r.undef}
	for _, t := range r.types {
		p.Types = append(p.Types, PlanType{Lo: t.lo, N: t.n, Off: t.off})
	}
	index := map[int]int{} // slot -> index in Active
	for i, slot := range r.active {
		index[slot] = i
		li := &r.leaves[slot]
		pl := PlanLeaf{Slot: slot, Val: li.val, PosHash: li.posHash, Same: append([]uint32(nil), li.same...)}
		for _, d := range li.dims {
			pl.Dims = append(pl.Dims, PlanDim{Type: d.t, K: d.k, E: d.e, Stride: d.stride})
		}
		p.Active = append(p.Active, pl)
	}
	for _, mv := range r.rowMoves {
		p.RowMoves = append(p.RowMoves, RowMove{Slot: int(mv.p), E: int(mv.e), K: int(mv.k), Stride: int(mv.stride)})
	}
	for _, slot := range r.otherActive {
		p.OtherActive = append(p.OtherActive, index[int(slot)])
	}
	for _, row := range r.rows {
		var out []int
		for _, slot := range row {
			out = append(out, index[int(slot)])
		}
		p.Rows = append(p.Rows, out)
	}
	for _, vl := range r.valLeaves {
		var out []int
		for _, slot := range vl {
			out = append(out, index[int(slot)])
		}
		p.ValLeaves = append(p.ValLeaves, out)
	}
	return p
}
