package wasmgen

// This file generates scalarset symmetry reduction: canon() replaces the
// state in the symmetry area's slots by its orbit's representative, the
// one core/symmetry's Reducer.Canonicalize gives it (the same colours from
// the same signatures, the same candidate labelings, the same least
// image). The host rebuilds counterexamples with the Reducer and finds
// the module's states again by their canonical forms, so the two must
// agree on every state: the steps below follow Canonicalize's one by one,
// unrolled over the Reducer's tables (symmetry.Plan), and its constants
// are the Reducer's.

import (
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/symmetry"
)

// maxSymElems bounds a permuted type's elements: the enumeration keeps a
// class's used elements and tried groups in an i64's bits.
const maxSymElems = 64

// symArea is where canon keeps its state and scratch: the slots it
// canonicalises (s), an image (tmp) and the least image so far (best),
// 8 bytes a slot; per flat element its signature (8 bytes), colour, new
// colour, new label (perm, 4 bytes each); per type, its elements in
// colour order (idx) and each one's group within its colour (groups),
// indexed by position (4 bytes each).
type symArea struct {
	s, tmp, best, sig, col, newCol, perm, idx, groups uint32
	// curSig holds the current state's first signatures (see
	// firstSigsFunc)
	curSig uint32
	end    uint32
}

func newSymArea(at uint32, slots, elems int) symArea {
	var a symArea
	next := func(n int) uint32 {
		p := at
		at += uint32((n + 7) &^ 7)
		return p
	}
	a.s, a.tmp, a.best = next(8*slots), next(8*slots), next(8*slots)
	a.sig = next(8 * elems)
	a.col, a.newCol, a.perm = next(4*elems), next(4*elems), next(4*elems)
	a.idx, a.groups = next(4*elems), next(4*elems)
	a.curSig = next(8 * elems)
	a.end = at
	return a
}

// symGen generates canon and the functions it calls.
type symGen struct {
	g                                                                     *gen
	p                                                                     *symmetry.Plan
	a                                                                     symArea
	slots                                                                 int
	gFirst                                                                uint32 // the enumeration has no best image yet
	gMoved                                                                uint32 // canon changed s
	firstSigs, sigs, apply, relabel, less, buildClasses, candidate, canon *fn
	mix                                                                   *fn
	rank, check, swapFixes, enum, assign                                  []*fn
}

// symmetryFuncs generates canon for the plan (the layout has its area).
func (b *builder) symmetryFuncs(p *symmetry.Plan) {
	g := b.g
	for _, t := range p.Types {
		if t.N > maxSymElems {
			g.fail(murphi.NoPos, "a scalarset of more than %d elements under symmetry reduction", maxSymElems)
		}
	}
	sg := &symGen{g: g, p: p, a: g.lay.symA, slots: g.m.NumSlots}
	m := g.mod
	sg.gFirst = m.addGlobal(i32, 0)
	sg.gMoved = m.addGlobal(i32, 0)
	// mix(x): a function, called from every leaf's terms, four copies
	// of which are generated (adash has 487 active leaves).
	sg.mix = m.newFunc([]byte{i64}, []byte{i64})
	sg.mix.name = "symMix"
	sg.mix.get(0)
	mixTop(sg.mix, 0)
	sg.firstSigs = sg.firstSigsFunc()
	sg.sigs = sg.sigsFunc()
	b.symBase = sg.baseFunc()
	m.export("symBase", 0, b.symBase.idx)
	for t := range p.Types {
		sg.rank = append(sg.rank, sg.rankFunc(t))
	}
	sg.applyFunc()
	sg.relabelFunc()
	sg.lessFunc()
	for t := range p.Types {
		sg.check = append(sg.check, sg.checkFunc(t))
		sg.swapFixes = append(sg.swapFixes, sg.swapFixesFunc(t))
	}
	sg.buildClassesFunc()
	sg.candidateFunc()
	for range p.Types {
		sg.enum = append(sg.enum, m.newFunc([]byte{i32}, nil))
		sg.assign = append(sg.assign, m.newFunc([]byte{i32, i32, i32, i64}, nil))
	}
	for t := range p.Types {
		sg.enumFunc(t)
		sg.assignFunc(t)
	}
	sg.canonFunc()
	b.canon, b.gMoved = sg.canon, sg.gMoved
	// canonAny(): canon for a state at Sym that may differ from the
	// current one anywhere (symBase computed after it was written), for
	// tests.
	f := m.newFunc(nil, nil)
	f.i64Const(-1)
	f.globalSet(g.gDirty)
	sg.sortMultisets(f, sg.a.s) // (the search's states are sorted)
	f.call(sg.canon.idx)
	m.export("canonAny", 0, f.idx)
}

// Addresses of a flat element's entries, and of a type's positions.
func (sg *symGen) sigAt(e int) uint32  { return sg.a.sig + uint32(8*e) }
func (sg *symGen) colAt(e int) uint32  { return sg.a.col + uint32(4*e) }
func (sg *symGen) permAt(e int) uint32 { return sg.a.perm + uint32(4*e) }

// scaled pushes local x (an i32) times 1<<k.
func scaled(f *fn, x uint32, k int32) {
	f.get(x)
	f.i32Const(k)
	f.i32Shl()
}

// mixTop replaces the i64 on the stack by symmetry's mix of it (x is a
// scratch local).
func mixTop(f *fn, x uint32) {
	f.i64Const(bitsOf(symmetry.MixAdd))
	f.i64Add()
	for _, st := range []struct {
		shift int64
		mul   uint64
	}{{30, symmetry.MixMul1}, {27, symmetry.MixMul2}} {
		f.tee(x)
		f.get(x)
		f.i64Const(st.shift)
		f.i64ShrU()
		f.i64Xor()
		f.i64Const(bitsOf(st.mul))
		f.i64Mul()
	}
	f.tee(x)
	f.get(x)
	f.i64Const(31)
	f.i64ShrU()
	f.i64Xor()
}

// firstSigsFunc generates the first round's signatures (every colour 0)
// of the state in s, a successor of the current state: signatures are
// sums of one term per leaf, and a successor differs from the current
// state only in the slots its rule wrote (the dirty groups, see
// gen.gDirty), so they start from the current state's (curSig, see
// baseFunc) and change the terms of the leaves that differ. (The
// Reducer's firstSignatures starts from the last state it reduced: the
// sums are the same.)
func (sg *symGen) firstSigsFunc() *fn {
	p, a, cur := sg.p, sg.a, sg.g.lay.cur
	f := sg.g.mod.newFunc(nil, nil)
	f.name = "symFirstSignatures"
	lt := sg.termLocals(f)
	nv, old := f.local(i64), f.local(i64)
	f.copyWords(func() { f.i32Const(int32(a.sig)) }, func() { f.i32Const(int32(a.curSig)) }, 8*p.Elems, unrollCopy)
	group := -1 // the dirty group whose test is open
	for ai := range p.Active {
		li := &p.Active[ai]
		if k := (8 * li.Slot) >> sg.g.dirtyShift; k != group {
			if group >= 0 {
				f.end()
			}
			group = k
			f.globalGet(sg.g.gDirty)
			f.i64Const(bitsOf(1 << uint(k)))
			f.i64And()
			f.i64Const(0)
			f.i64Ne()
			f.if_()
		}
		f.i32Const(int32(a.s + uint32(8*li.Slot)))
		f.i64Load(0)
		f.tee(nv)
		f.i32Const(int32(cur + uint32(8*li.Slot)))
		f.i64Load(0)
		f.tee(old)
		f.i64Ne()
		f.if_()
		f.get(old)
		f.set(lt.v)
		sg.leafTerms(f, li, true, a.sig, lt, true)
		f.get(nv)
		f.set(lt.v)
		sg.leafTerms(f, li, true, a.sig, lt, false)
		f.end()
	}
	if group >= 0 {
		f.end()
	}
	return f
}

// baseFunc generates symBase(): the first round's signatures of the
// current state into curSig, every term summed.
func (sg *symGen) baseFunc() *fn {
	p, a, cur := sg.p, sg.a, sg.g.lay.cur
	f := sg.g.mod.newFunc(nil, nil)
	f.name = "symBase"
	lt := sg.termLocals(f)
	for e := 0; e < p.Elems; e++ {
		f.i32Const(int32(a.curSig + uint32(8*e)))
		f.i64Const(1)
		f.i64Store(0)
	}
	for ai := range p.Active {
		li := &p.Active[ai]
		f.i32Const(int32(cur + uint32(8*li.Slot)))
		f.i64Load(0)
		f.set(lt.v)
		sg.leafTerms(f, li, true, a.curSig, lt, false)
	}
	return f
}

// sigsFunc generates the signatures of the state in s under the current
// colours (signatures' rounds after the first).
func (sg *symGen) sigsFunc() *fn {
	p, a := sg.p, sg.a
	f := sg.g.mod.newFunc(nil, nil)
	f.name = "symSignatures"
	lt := sg.termLocals(f)
	for e := 0; e < p.Elems; e++ {
		f.i32Const(int32(sg.sigAt(e)))
		f.i32Const(int32(sg.colAt(e)))
		f.i32Load(0)
		f.i64ExtendI32S()
		f.i64Const(bitsOf(symmetry.ColourMul))
		f.i64Mul()
		f.i64Const(1)
		f.i64Add()
		f.i64Store(0)
	}
	for ai := range p.Active {
		li := &p.Active[ai]
		f.i32Const(int32(a.s + uint32(8*li.Slot)))
		f.i64Load(0)
		f.set(lt.v)
		sg.leafTerms(f, li, false, a.sig, lt, false)
	}
	return f
}

// leafTermLocals are leafTerms' scratch locals; v holds the leaf's value.
type leafTermLocals struct{ v, vabs, pos, x, ve, at uint32 }

func (sg *symGen) termLocals(f *fn) leafTermLocals {
	return leafTermLocals{v: f.local(i64), vabs: f.local(i64), pos: f.local(i64), x: f.local(i64), ve: f.local(i32), at: f.local(i32)}
}

// leafTerms adds to the signatures at sig (or subtracts from them: sub)
// the terms of leaf li holding the value in local v, under the current
// colours or colour 0 for every element (zero): addLeaf's terms.
func (sg *symGen) leafTerms(f *fn, li *symmetry.PlanLeaf, zero bool, sig uint32, lt leafTermLocals, sub bool) {
	v, vabs, pos, x, ve, at := lt.v, lt.vabs, lt.pos, lt.x, lt.ve, lt.at
	combine := func() {
		if sub {
			f.i64Sub()
		} else {
			f.i64Add()
		}
	}
	sg.valueHash(f, li, zero, v, ve, vabs, x)
	// The position's hash.
	if zero {
		h := li.PosHash
		for i := range li.Dims {
			h = (h ^ uint64(i)<<48) * symmetry.ColourMul
		}
		f.i64Const(bitsOf(h))
	} else {
		f.i64Const(bitsOf(li.PosHash))
		for i, d := range li.Dims {
			f.i32Const(int32(sg.colAt(d.E)))
			f.i32Load(0)
			f.i64ExtendI32S()
			f.i64Xor()
			f.i64Const(bitsOf(uint64(i) << 48))
			f.i64Xor()
			f.i64Const(bitsOf(symmetry.ColourMul))
			f.i64Mul()
		}
	}
	f.set(pos)
	// One term for each element indexing the leaf.
	for i, d := range li.Dims {
		f.i32Const(int32(sig + uint32(8*d.E)))
		f.i32Const(int32(sig + uint32(8*d.E)))
		f.i64Load(0)
		f.get(pos)
		f.get(vabs)
		f.i64Xor()
		f.i64Const(bitsOf(uint64(i)<<32 ^ uint64(li.Same[i])<<20))
		f.i64Xor()
		if li.Val != -1 { // the value may be this element
			f.get(ve)
			f.i32Const(int32(d.E))
			f.i32Eq()
			f.i64ExtendI32U()
			f.i64Const(31)
			f.i64Shl()
			f.i64Xor()
		}
		f.call(sg.mix.idx)
		combine()
		f.i64Store(0)
	}
	// And one for the element the value names, if any.
	if li.Val != -1 {
		f.get(ve)
		f.i32Const(0)
		f.i32GeS()
		f.if_()
		f.i32Const(int32(sig))
		scaled(f, ve, 3)
		f.i32Add()
		f.tee(at)
		f.get(at)
		f.i64Load(0)
		f.i64Const(0)
		for j, d := range li.Dims {
			f.get(ve)
			f.i32Const(int32(d.E))
			f.i32Eq()
			f.i64ExtendI32U()
			f.i64Const(int64(j & 63))
			f.i64Shl()
			f.i64Or()
		}
		f.i64Const(24)
		f.i64Shl()
		f.get(pos)
		f.i64Xor()
		f.i64Const(symmetry.RefXor)
		f.i64Xor()
		f.call(sg.mix.idx)
		combine()
		f.i64Store(0)
		f.end()
	}
}

// inType pushes whether the value in local v is one of type t's (as an
// i32), leaving its offset among them in local x: uint64(v-Lo) < N, as
// the Reducer tests it (an undefined value, the least int64, is none).
func inType(f *fn, t symmetry.PlanType, v, x uint32) {
	f.get(v)
	f.i64Const(t.Lo)
	f.i64Sub()
	f.tee(x)
	f.i64Const(int64(t.N))
	f.i64LtU()
}

// valueHash sets ve to the flat element the value in local v names at
// leaf li (-1 if none), and vabs to the value's hash: the element's type
// and colour (0 if zero), never its identity, or else the value's own.
func (sg *symGen) valueHash(f *fn, li *symmetry.PlanLeaf, zero bool, v, ve, vabs, x uint32) {
	other := func() {
		f.i32Const(-1)
		f.set(ve)
		f.get(v)
		f.i64Const(symmetry.ValueXor)
		f.i64Xor()
		f.i64Const(bitsOf(symmetry.ValueMul))
		f.i64Mul()
		f.set(vabs)
	}
	elem := func(t int) { // ve is set
		if zero {
			f.i64Const(bitsOf(uint64(t+1) << 40 * symmetry.ElemMul))
		} else {
			f.i64Const(bitsOf(uint64(t+1) << 40))
			f.i32Const(int32(sg.a.col))
			scaled(f, ve, 2)
			f.i32Add()
			f.i32Load(0)
			f.i64ExtendI32S()
			f.i64Xor()
			f.i64Const(bitsOf(symmetry.ElemMul))
			f.i64Mul()
		}
		f.set(vabs)
	}
	switch {
	case li.Val == -1:
		other()
	default:
		// One type, or for a union the first whose values hold v.
		types := []int{li.Val}
		if li.Val == -2 {
			types = types[:0]
			for ti := range sg.p.Types {
				types = append(types, ti)
			}
		}
		for _, ti := range types {
			t := sg.p.Types[ti]
			inType(f, t, v, x)
			f.if_()
			f.get(x)
			f.i32WrapI64()
			f.i32Const(int32(t.Off))
			f.i32Add()
			f.set(ve)
			elem(ti)
			f.else_()
		}
		other()
		for range types {
			f.end()
		}
	}
}

// rankFunc generates rank_t() -> the number of type t's colours: its
// elements sorted by (colour, signature) into idx (insertion sort, ties
// by element), and renumbered so.
func (sg *symGen) rankFunc(t int) *fn {
	a, pt := sg.a, sg.p.Types[t]
	f := sg.g.mod.newFunc(nil, []byte{i32})
	f.name = "symRank"
	i, j, e, q, c := f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32)
	idx, col, sig := a.idx+uint32(4*pt.Off), a.col+uint32(4*pt.Off), a.sig+uint32(8*pt.Off)
	for k := 0; k < pt.N; k++ {
		f.i32Const(int32(idx + uint32(4*k)))
		f.i32Const(int32(k))
		f.i32Store(0)
	}
	colOf := func(x uint32) {
		scaled(f, x, 2)
		f.i32Load(col)
	}
	sigOf := func(x uint32) {
		scaled(f, x, 3)
		f.i64Load(sig)
	}
	idxAt := func(x uint32) {
		scaled(f, x, 2)
		f.i32Load(idx)
	}
	f.forUpTo(i, func() { f.i32Const(1) }, func() { f.i32Const(int32(pt.N)) }, 1, func() {
		idxAt(i)
		f.set(e)
		f.get(i)
		f.set(j)
		f.block()
		f.loop()
		f.get(j)
		f.i32Eqz()
		f.brIf(1)
		f.get(j)
		f.i32Const(1)
		f.i32Sub()
		f.i32Const(2)
		f.i32Shl()
		f.i32Load(idx)
		f.set(q)
		// stop where col[q] < col[e], or equal and sig[q] <= sig[e]
		colOf(q)
		colOf(e)
		f.i32LtS()
		colOf(q)
		colOf(e)
		f.i32Eq()
		sigOf(q)
		sigOf(e)
		f.i64LeU()
		f.i32And()
		f.i32Or()
		f.brIf(1)
		scaled(f, j, 2)
		f.get(q)
		f.i32Store(idx)
		f.get(j)
		f.i32Const(1)
		f.i32Sub()
		f.set(j)
		f.br(0)
		f.end()
		f.end()
		scaled(f, j, 2)
		f.get(e)
		f.i32Store(idx)
	})
	f.i32Const(0)
	f.set(c)
	f.forUpTo(i, func() { f.i32Const(0) }, func() { f.i32Const(int32(pt.N)) }, 1, func() {
		idxAt(i)
		f.set(e)
		f.get(i)
		f.if_()
		scaled(f, i, 2)
		f.i32Load(idx - 4)
		f.set(q)
		colOf(q)
		colOf(e)
		f.i32Ne()
		sigOf(q)
		sigOf(e)
		f.i64Ne()
		f.i32Or()
		f.if_()
		f.get(c)
		f.i32Const(1)
		f.i32Add()
		f.set(c)
		f.end()
		f.end()
		scaled(f, e, 2)
		f.get(c)
		f.i32Store(a.newCol + uint32(4*pt.Off))
	})
	for k := 0; k < pt.N; k++ {
		f.i32Const(int32(col + uint32(4*k)))
		f.i32Const(int32(a.newCol + uint32(4*(pt.Off+k))))
		f.i32Load(0)
		f.i32Store(0)
	}
	f.get(c)
	f.i32Const(1)
	f.i32Add()
	return f
}

// pushImage pushes the address, in the slots at base, where leaf li (in
// row K of element E for each of its dimensions) goes under perm.
func (sg *symGen) pushImage(f *fn, base uint32, slot int, dims []symmetry.PlanDim) {
	f.i32Const(int32(base + uint32(8*slot)))
	for _, d := range dims {
		f.i32Const(int32(sg.permAt(d.E)))
		f.i32Load(0)
		f.i32Const(int32(d.K))
		f.i32Sub()
		f.i32Const(int32(8 * d.Stride))
		f.i32Mul()
		f.i32Add()
	}
}

// imageValue sets w to the value in local v of leaf li relabelled by perm.
func (sg *symGen) imageValue(f *fn, li *symmetry.PlanLeaf, v, w, x uint32) {
	f.get(v)
	f.set(w)
	relabel := func(t symmetry.PlanType) { // x is v's offset in t
		f.get(x)
		f.i32WrapI64()
		f.i32Const(2)
		f.i32Shl()
		f.i32Load(sg.permAt(t.Off))
		f.i64ExtendI32S()
		f.i64Const(t.Lo)
		f.i64Add()
		f.set(w)
	}
	switch {
	case li.Val >= 0:
		inType(f, sg.p.Types[li.Val], v, x)
		f.if_()
		relabel(sg.p.Types[li.Val])
		f.end()
	case li.Val == -2:
		f.get(v)
		f.i64Const(sg.p.Undef)
		f.i64Ne()
		f.if_()
		for k, t := range sg.p.Types {
			if k > 0 {
				f.else_()
			}
			inType(f, t, v, x)
			f.if_()
			relabel(t)
		}
		for range sg.p.Types {
			f.end()
		}
		f.end()
	}
}

// image sets w to the value of active leaf li in s relabelled by perm,
// and pushes the address where it goes in the slots at base (v and x
// are scratch).
func (sg *symGen) image(f *fn, li *symmetry.PlanLeaf, base, v, w, x uint32) {
	f.i32Const(int32(sg.a.s + uint32(8*li.Slot)))
	f.i64Load(0)
	f.set(v)
	sg.imageValue(f, li, v, w, x)
	sg.pushImage(f, base, li.Slot, li.Dims)
}

// applyFunc generates apply(): tmp is s relabelled by perm.
func (sg *symGen) applyFunc() {
	a, p := sg.a, sg.p
	f := sg.g.mod.newFunc(nil, nil)
	f.name = "symApply"
	v, w, x := f.local(i64), f.local(i64), f.local(i64)
	f.copyWords(func() { f.i32Const(int32(a.tmp)) }, func() { f.i32Const(int32(a.s)) }, 8*sg.slots, unrollCopy)
	for _, mv := range p.RowMoves {
		sg.pushImage(f, a.tmp, mv.Slot, []symmetry.PlanDim{{E: mv.E, K: mv.K, Stride: mv.Stride}})
		f.i32Const(int32(a.s + uint32(8*mv.Slot)))
		f.i64Load(0)
		f.i64Store(0)
	}
	for _, ai := range p.OtherActive {
		sg.image(f, &p.Active[ai], a.tmp, v, w, x)
		f.get(w)
		f.i64Store(0)
	}
	sg.sortMultisets(f, a.tmp) // entries moved: in order again
	sg.apply = f
}

// sortMultisets generates the sorting of every multiset of the slots at
// base, inner ones first, as core/compile's SortMultisets.
func (sg *symGen) sortMultisets(f *fn, base uint32) {
	ms := sg.g.m.Multisets
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Size < 2 {
			continue
		}
		f.i32Const(int32(base + uint32(8*ms[i].Slot)))
		f.i32Const(int32(ms[i].Size))
		f.i32Const(int32(8 * ms[i].EntrySlots))
		f.call(sg.g.sortEntriesFunc().idx)
	}
}

// relabelFunc generates relabel(): s relabelled in colour order (ties by
// element), unless that is the identity.
func (sg *symGen) relabelFunc() {
	a := sg.a
	f := sg.g.mod.newFunc(nil, nil)
	f.name = "symRelabel"
	e, same := f.local(i32), f.local(i32)
	f.i32Const(1)
	f.set(same)
	for _, t := range sg.p.Types {
		for label := 0; label < t.N; label++ {
			f.i32Const(int32(a.idx + uint32(4*(t.Off+label))))
			f.i32Load(0)
			f.tee(e)
			f.i32Const(2)
			f.i32Shl()
			f.i32Const(int32(label))
			f.i32Store(sg.permAt(t.Off))
			f.get(e)
			f.i32Const(int32(label))
			f.i32Eq()
			f.get(same)
			f.i32And()
			f.set(same)
		}
	}
	f.get(same)
	f.if_()
	f.return_()
	f.end()
	f.i32Const(1)
	f.globalSet(sg.gMoved)
	f.call(sg.apply.idx)
	f.copyWords(func() { f.i32Const(int32(a.s)) }, func() { f.i32Const(int32(a.tmp)) }, 8*sg.slots, unrollCopy)
	sg.relabel = f
}

// lessFunc generates less() -> 1 if tmp is below best (as signed slots,
// in order).
func (sg *symGen) lessFunc() {
	a := sg.a
	f := sg.g.mod.newFunc(nil, []byte{i32})
	f.name = "symLess"
	k, x, y := f.local(i32), f.local(i64), f.local(i64)
	f.forUpTo(k, func() { f.i32Const(0) }, func() { f.i32Const(int32(8 * sg.slots)) }, 8, func() {
		f.get(k)
		f.i64Load(a.tmp)
		f.tee(x)
		f.get(k)
		f.i64Load(a.best)
		f.tee(y)
		f.i64Ne()
		f.if_()
		f.get(x)
		f.get(y)
		f.i64LtS()
		f.return_()
		f.end()
	})
	f.i32Const(0)
	sg.less = f
}

// checkFunc generates check_t(a) -> 1 if exchanging element a of type t
// with the one perm gives it leaves s unchanged: every leaf a's rows
// hold, and every leaf that may hold a value of t, relabelled and moved,
// lands on an equal value (swapFixesSet).
func (sg *symGen) checkFunc(t int) *fn {
	a, p, pt := sg.a, sg.p, sg.p.Types[t]
	f := sg.g.mod.newFunc([]byte{i32}, []byte{i32})
	f.name = "symCheck"
	if len(sg.g.m.Multisets) > 0 {
		// Entries move under the exchange and are sorted again: the
		// whole image is compared (as swapFixesSet).
		k := f.local(i32)
		f.call(sg.apply.idx)
		f.forUpTo(k, func() { f.i32Const(0) }, func() { f.i32Const(int32(8 * sg.slots)) }, 8, func() {
			f.get(k)
			f.i64Load(a.tmp)
			f.get(k)
			f.i64Load(a.s)
			f.i64Ne()
			f.if_()
			f.i32Const(0)
			f.return_()
			f.end()
		})
		f.i32Const(1)
		return f
	}
	v, w, x := f.local(i64), f.local(i64), f.local(i64)
	leaf := func(ai int) {
		sg.image(f, &p.Active[ai], a.s, v, w, x)
		f.i64Load(0)
		f.get(w)
		f.i64Ne()
		f.if_()
		f.i32Const(0)
		f.return_()
		f.end()
	}
	for k := 0; k < pt.N; k++ {
		if len(p.Rows[pt.Off+k]) == 0 {
			continue
		}
		f.get(0)
		f.i32Const(int32(k))
		f.i32Eq()
		f.if_()
		for _, ai := range p.Rows[pt.Off+k] {
			leaf(ai)
		}
		f.end()
	}
	for _, ai := range p.ValLeaves[t] {
		leaf(ai)
	}
	f.i32Const(1)
	return f
}

// swapFixesFunc generates swapFixes_t(a, b) -> 1 if exchanging elements
// a and b of type t leaves s unchanged; perm is the identity before and
// after.
func (sg *symGen) swapFixesFunc(t int) *fn {
	f := sg.g.mod.newFunc([]byte{i32, i32}, []byte{i32})
	f.name = "symSwapFixes"
	perm := sg.permAt(sg.p.Types[t].Off)
	set := func(at, to uint32) {
		scaled(f, at, 2)
		f.get(to)
		f.i32Store(perm)
	}
	set(0, 1)
	set(1, 0)
	f.get(0)
	f.call(sg.check[t].idx)
	set(0, 0)
	set(1, 1)
	return f
}

// classEnd sets hi to the end of the class (the run of one colour in idx)
// beginning at position lo of type t.
func (sg *symGen) classEnd(f *fn, t int, lo, hi uint32) {
	pt := sg.p.Types[t]
	idx, col := sg.a.idx+uint32(4*pt.Off), sg.a.col+uint32(4*pt.Off)
	colAtPos := func(x uint32) {
		scaled(f, x, 2)
		f.i32Load(idx)
		f.i32Const(2)
		f.i32Shl()
		f.i32Load(col)
	}
	f.get(lo)
	f.i32Const(1)
	f.i32Add()
	f.set(hi)
	f.block()
	f.loop()
	f.get(hi)
	f.i32Const(int32(pt.N))
	f.i32Eq()
	f.brIf(1)
	colAtPos(hi)
	colAtPos(lo)
	f.i32Ne()
	f.brIf(1)
	f.get(hi)
	f.i32Const(1)
	f.i32Add()
	f.set(hi)
	f.br(0)
	f.end()
	f.end()
}

// buildClassesFunc generates buildClasses() -> 1 if within every class
// (the elements of one colour) every element is interchangeable with
// every other: perm the identity, and groups numbering each class's
// groups of interchangeable elements.
func (sg *symGen) buildClassesFunc() {
	a := sg.a
	f := sg.g.mod.newFunc(nil, []byte{i32})
	f.name = "symBuildClasses"
	lo, hi, i, j, gr, single := f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32)
	for _, t := range sg.p.Types {
		for k := 0; k < t.N; k++ {
			f.i32Const(int32(sg.permAt(t.Off + k)))
			f.i32Const(int32(k))
			f.i32Store(0)
		}
	}
	f.i32Const(1)
	f.set(single)
	for t, pt := range sg.p.Types {
		idx, groups := a.idx+uint32(4*pt.Off), a.groups+uint32(4*pt.Off)
		groupAt := func(x uint32) {
			scaled(f, x, 2)
			f.i32Load(groups)
		}
		f.i32Const(0)
		f.set(lo)
		f.block()
		f.loop()
		f.get(lo)
		f.i32Const(int32(pt.N))
		f.i32Eq()
		f.brIf(1)
		sg.classEnd(f, t, lo, hi)
		f.forUpTo(i, func() { f.get(lo) }, func() { f.get(hi) }, 1, func() {
			scaled(f, i, 2)
			f.i32Const(-1)
			f.i32Store(groups)
		})
		f.i32Const(0)
		f.set(gr)
		f.forUpTo(i, func() { f.get(lo) }, func() { f.get(hi) }, 1, func() {
			groupAt(i)
			f.i32Const(0)
			f.i32LtS()
			f.if_()
			scaled(f, i, 2)
			f.get(gr)
			f.i32Store(groups)
			f.forUpTo(j, func() { f.get(i); f.i32Const(1); f.i32Add() }, func() { f.get(hi) }, 1, func() {
				groupAt(j)
				f.i32Const(0)
				f.i32LtS()
				f.if_()
				scaled(f, i, 2)
				f.i32Load(idx)
				scaled(f, j, 2)
				f.i32Load(idx)
				f.call(sg.swapFixes[t].idx)
				f.if_()
				scaled(f, j, 2)
				f.get(gr)
				f.i32Store(groups)
				f.end()
				f.end()
			})
			f.get(gr)
			f.i32Const(1)
			f.i32Add()
			f.set(gr)
			f.end()
		})
		f.get(gr)
		f.i32Const(1)
		f.i32Ne()
		f.if_()
		f.i32Const(0)
		f.set(single)
		f.end()
		f.get(hi)
		f.set(lo)
		f.br(0)
		f.end()
		f.end()
	}
	f.get(single)
	sg.buildClasses = f
}

// candidateFunc generates candidate(): the image of s under perm (a full
// labelling) kept in best if it is the least so far.
func (sg *symGen) candidateFunc() {
	a := sg.a
	f := sg.g.mod.newFunc(nil, nil)
	f.name = "symCandidate"
	f.call(sg.apply.idx)
	f.globalGet(sg.gFirst)
	f.if_()
	f.i32Const(0)
	f.globalSet(sg.gFirst)
	f.else_()
	f.call(sg.less.idx)
	f.i32Eqz()
	f.if_()
	f.return_()
	f.end()
	f.end()
	f.copyWords(func() { f.i32Const(int32(a.best)) }, func() { f.i32Const(int32(a.tmp)) }, 8*sg.slots, unrollCopy)
	sg.candidate = f
}

// enumFunc generates enum_t(lo): label type t's classes from the one at
// position lo on (its labels start at lo), then the next types'; at the
// end, a candidate.
func (sg *symGen) enumFunc(t int) {
	f := sg.enum[t]
	f.name = "symEnumerate"
	hi := f.local(i32)
	f.get(0)
	f.i32Const(int32(sg.p.Types[t].N))
	f.i32Eq()
	f.if_()
	if t+1 < len(sg.p.Types) {
		f.i32Const(0)
		f.call(sg.enum[t+1].idx)
	} else {
		f.call(sg.candidate.idx)
	}
	f.return_()
	f.end()
	sg.classEnd(f, t, 0, hi)
	f.get(0)
	f.get(hi)
	f.i32Const(0)
	f.i64Const(0)
	f.call(sg.assign[t].idx)
}

// assignFunc generates assign_t(lo, hi, done, used): label the class at
// positions lo..hi of type t, done of its elements labelled (those whose
// bits used has): any group's first unlabelled element may take the next
// label, lo+done.
func (sg *symGen) assignFunc(t int) {
	a, pt := sg.a, sg.p.Types[t]
	f := sg.assign[t]
	f.name = "symAssign"
	const lo, hi, done, used = 0, 1, 2, 3
	i, tried, bit, gbit := f.local(i32), f.local(i64), f.local(i64), f.local(i64)
	idx, groups := a.idx+uint32(4*pt.Off), a.groups+uint32(4*pt.Off)
	f.get(done)
	f.get(hi)
	f.get(lo)
	f.i32Sub()
	f.i32Eq()
	f.if_()
	f.get(hi)
	f.call(sg.enum[t].idx)
	f.return_()
	f.end()
	f.i64Const(0)
	f.set(tried)
	f.forUpTo(i, func() { f.get(lo) }, func() { f.get(hi) }, 1, func() {
		f.i64Const(1)
		f.get(i)
		f.get(lo)
		f.i32Sub()
		f.i64ExtendI32U()
		f.i64Shl()
		f.set(bit)
		f.i64Const(1)
		scaled(f, i, 2)
		f.i32Load(groups)
		f.i64ExtendI32U()
		f.i64Shl()
		f.set(gbit)
		f.get(used)
		f.get(bit)
		f.i64And()
		f.get(tried)
		f.get(gbit)
		f.i64And()
		f.i64Or()
		f.i64Eqz()
		f.if_()
		f.get(tried)
		f.get(gbit)
		f.i64Or()
		f.set(tried)
		scaled(f, i, 2)
		f.i32Load(idx)
		f.i32Const(2)
		f.i32Shl()
		f.get(lo)
		f.get(done)
		f.i32Add()
		f.i32Store(sg.permAt(pt.Off))
		f.get(lo)
		f.get(hi)
		f.get(done)
		f.i32Const(1)
		f.i32Add()
		f.get(used)
		f.get(bit)
		f.i64Or()
		f.call(f.idx)
		f.end()
	})
}

// canonFunc generates canon(): s replaced by its representative.
func (sg *symGen) canonFunc() {
	a, p := sg.a, sg.p
	f := sg.g.mod.newFunc(nil, nil)
	f.name = "canon"
	sg.canon = f
	f.i32Const(0)
	f.globalSet(sg.gMoved)
	n, prev, round := f.local(i32), f.local(i32), f.local(i32)
	// Colours, refined until stable (colour).
	for e := 0; e < p.Elems; e++ {
		f.i32Const(int32(sg.colAt(e)))
		f.i32Const(0)
		f.i32Store(0)
	}
	ranks := func() {
		f.i32Const(0)
		for _, r := range sg.rank {
			f.call(r.idx)
			f.i32Add()
		}
		f.set(n)
	}
	f.call(sg.firstSigs.idx)
	ranks()
	if p.Mode == symmetry.Exact && p.Refine {
		rounds := p.Elems
		f.i32Const(1)
		f.set(round)
		f.block()
		f.loop()
		// round rounds done, the last giving n colours and the one
		// before prev: stop when all are distinct, at the last round, or
		// when a round after the first changed nothing
		f.get(n)
		f.i32Const(int32(p.Elems))
		f.i32Eq()
		f.get(round)
		f.i32Const(int32(rounds))
		f.i32Eq()
		f.i32Or()
		f.get(round)
		f.i32Const(1)
		f.i32GtU()
		f.get(n)
		f.get(prev)
		f.i32Eq()
		f.i32And()
		f.i32Or()
		f.brIf(1)
		f.get(n)
		f.set(prev)
		f.call(sg.sigs.idx)
		ranks()
		f.get(round)
		f.i32Const(1)
		f.i32Add()
		f.set(round)
		f.br(0)
		f.end()
		f.end()
	}
	if p.Mode == symmetry.Heuristic {
		f.call(sg.relabel.idx)
		return
	}
	f.get(n)
	f.i32Const(int32(p.Elems))
	f.i32Eq()
	f.if_()
	f.call(sg.relabel.idx)
	f.return_()
	f.end()
	f.call(sg.buildClasses.idx)
	f.if_()
	f.call(sg.relabel.idx)
	f.return_()
	f.end()
	f.i32Const(1)
	f.globalSet(sg.gFirst)
	f.i32Const(1)
	f.globalSet(sg.gMoved)
	f.i32Const(0)
	f.call(sg.enum[0].idx)
	f.copyWords(func() { f.i32Const(int32(a.s)) }, func() { f.i32Const(int32(a.best)) }, 8*sg.slots, unrollCopy)
}
