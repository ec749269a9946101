package wasmgen

// This file generates multisets as core/compile lays them out and runs
// them: Size entries of 1+SlotSize(elem) slots, the first each entry's
// presence flag (undefined when absent, 1 when present), absent entries
// all undefined. A rule that may write a multiset sorts its entries after
// its body, as the closures' SortMultisets before a successor is compared
// or stored (multiset reduction), so a multiset is a bag.

import (
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
)

// entrySlots is the slots of an entry of multiset type mt.
func entrySlots(mt *murphi.Type) int { return 1 + compile.SlotSize(mt.Elem) }

// entryIndex is the index type of multiset type mt's entries, as an index
// of array type: 0 to Size-1.
func entryIndex(mt *murphi.Type) *murphi.Type {
	return &murphi.Type{Kind: murphi.TRange, Lo: 0, Hi: mt.Size - 1}
}

// entryFlag pushes (an i64) the presence flag of entry k of multiset ms.
func (u *unit) entryFlag(ms murphi.Expr, k int64) {
	p := u.place(ms)
	p.offset(int(k) * entrySlots(p.typ)).push(u)
	u.f.i64Load(0)
}

// multisetAdd generates multisetadd(e, m): e is assigned to a frame
// temporary (range checks first, as the closures'), then copied into the
// first absent entry, which becomes present; a full multiset traps (the
// closures raise multiset-full).
func (u *unit) multisetAdd(s *murphi.MultisetAddStmt) {
	f := u.f
	base := u.place(s.Multiset)
	mt := base.typ
	n := compile.SlotSize(mt.Elem)
	mark := u.frameTop
	tmp := u.frame(u.alloc(n), mt.Elem)
	u.assign(tmp, s.Elem, s.Pos())
	a, e, end := f.local(i32), f.local(i32), f.local(i32)
	base.push(u)
	f.tee(a)
	f.set(e)
	u.wrote(base)
	u.dirty(base, int32(a), compile.SlotSize(mt))
	f.get(a)
	f.i32Const(int32(8 * compile.SlotSize(mt)))
	f.i32Add()
	f.set(end)
	f.block()
	f.loop()
	f.get(e)
	f.get(end)
	f.i32Eq()
	u.trapIf() // full
	f.get(e)
	f.i64Load(0)
	f.i64Const(undef)
	f.i64Eq()
	f.if_()
	f.get(e)
	f.i64Const(1)
	f.i64Store(0)
	f.copyWords(func() {
		f.get(e)
		f.i32Const(8)
		f.i32Add()
	}, func() { tmp.push(u) }, 8*n, unrollCopy)
	f.br(2)
	f.end()
	f.get(e)
	f.i32Const(int32(8 * (1 + n)))
	f.i32Add()
	f.set(e)
	f.br(0)
	f.end()
	f.end()
	u.frameTop = mark
}

// multisetRemove generates multisetremove(i, m), i a choose's variable:
// entry i becomes absent, all its slots undefined.
func (u *unit) multisetRemove(s *murphi.MultisetRemoveStmt) {
	f := u.f
	base := u.place(s.Multiset)
	mt := base.typ
	k, ok := u.constant(s.Index)
	if !ok {
		k, ok = u.constIdent(s.Index)
	}
	if !ok {
		u.g.fail(s.Pos(), "multisetremove of an entry that is not a choose's")
	}
	if k < 0 || k >= mt.Size {
		f.unreachable()
		return
	}
	a := f.local(i32)
	base.push(u)
	f.set(a)
	u.wrote(base)
	u.dirty(base, int32(a), compile.SlotSize(mt))
	w := entrySlots(mt)
	storeUndefs(f, a, uint32(8*int(k)*w), w)
}

// storeUndefs stores undef to the n slots at the address in local a plus
// off.
func storeUndefs(f *fn, a, off uint32, n int) {
	for j := 0; j < n; j++ {
		f.get(a)
		f.i64Const(undef)
		f.i64Store(off + uint32(8*j))
	}
}

// matchingEntries generates core/compile's matchingEntries: a loop over
// the present entries of the multiset whose address is in local a (of
// type mt), in order, that satisfy pred with v bound to the entry's
// index, running act (if not nil) with the entry's address in the local
// it is given; it returns the i64 local counting the matches. (act runs
// before the next entry's test, as the closures'.)
func (u *unit) matchingEntries(a uint32, mt *murphi.Type, v *murphi.Ident, pred murphi.Expr, pos murphi.Pos, act func(e uint32)) (count uint32) {
	f := u.f
	w := entrySlots(mt)
	size := uint64(mt.Size)
	e := f.local(i32)
	count = f.local(i64)
	f.i64Const(0)
	f.set(count)
	if size == 0 {
		return count
	}
	u.step(size, pos)
	saveW := u.weight
	u.weight *= size
	mark := u.frameTop
	at := u.frame(u.alloc(1), nil)
	k := f.local(i64)
	defer u.bind(v.Obj, binding{kind: bPlace, pl: at, lv: &loopVar{lf: f, local: k, lo: 0, hi: mt.Size - 1}})()
	f.i64Const(0)
	f.set(k)
	exit := u.openLoop()
	f.get(a)
	f.get(k)
	f.i32WrapI64()
	f.i32Const(int32(8 * w))
	f.i32Mul()
	f.i32Add()
	f.tee(e)
	f.i64Load(0)
	f.i64Const(undef)
	f.i64Ne()
	f.if_()
	u.depth++
	at.push(u)
	f.get(k)
	f.i64Store(0)
	u.cond(pred)
	f.if_()
	u.depth++
	f.get(count)
	f.i64Const(1)
	f.i64Add()
	f.set(count)
	if act != nil {
		act(e)
	}
	f.end()
	f.end()
	u.depth -= 2
	f.get(k)
	f.i64Const(int64(size - 1))
	f.i64Eq()
	f.brIf(uint32(u.depth - exit))
	f.get(k)
	f.i64Const(1)
	f.i64Add()
	f.set(k)
	u.closeLoop()
	u.weight = saveW
	u.frameTop = mark
	return count
}

// multisetRemovePred generates multisetremovepred(v: m, pred).
func (u *unit) multisetRemovePred(s *murphi.MultisetRemovePredStmt) {
	base := u.place(s.Multiset)
	mt := base.typ
	u.wrote(base)
	a := u.f.local(i32)
	base.push(u)
	u.f.set(a)
	u.dirty(base, int32(a), compile.SlotSize(mt))
	w := entrySlots(mt)
	u.matchingEntries(a, mt, s.Var, s.Pred, s.Pos(), func(e uint32) {
		storeUndefs(u.f, e, 0, w)
	})
}

// multisetCount pushes multisetcount(v: m, pred).
func (u *unit) multisetCount(x *murphi.MultisetCountExpr) {
	f := u.f
	base := u.place(x.Multiset)
	a := f.local(i32)
	base.push(u)
	f.set(a)
	f.get(u.matchingEntries(a, base.typ, x.Var, x.Pred, x.Pos(), nil))
}

// sortMultisets generates, after a rule's body, the sorting of each
// multiset the body may have written (an inner one, laid out after the
// multiset holding it, first: see compile.SortMultisets), which then
// counts as written throughout, as its entries may move.
func (u *unit) sortMultisets() {
	g, f := u.g, u.f
	ms := g.m.Multisets
	for i := len(ms) - 1; i >= 0; i-- {
		m := &ms[i]
		lo, hi := m.Slot, m.Slot+m.Size*m.EntrySlots
		written := u.writesAll
		for _, w := range u.writes[lo:hi] {
			written = written || w
		}
		if !written || m.Size < 2 {
			continue
		}
		for j := lo; j < hi; j++ {
			u.writes[j] = true
		}
		f.i32Const(int32(u.state + uint32(8*lo)))
		f.i32Const(int32(m.Size))
		f.i32Const(int32(8 * m.EntrySlots))
		f.call(g.sortEntriesFunc().idx)
		u.dirtyBytes(uint32(8*lo), uint32(8*hi))
	}
}

// sortEntriesFunc returns sortEntries(a, n, wb), made on first use: it
// sorts the n blocks of wb bytes at a in the lexicographic order of their
// slots (signed), as core/compile's sortEntries. The order is total, so
// any sort gives the closures' result: this one moves each block down by
// swaps while it is less than the one before.
func (g *gen) sortEntriesFunc() *fn {
	if g.sortEntries != nil {
		return g.sortEntries
	}
	f := g.mod.newFunc([]byte{i32, i32, i32}, nil)
	f.name = "sortEntries"
	g.sortEntries = f
	const a, n, wb = 0, 1, 2
	i, j, p, q, k, gt := f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32)
	x, y := f.local(i64), f.local(i64)
	f.forUpTo(i, func() { f.i32Const(1) }, func() { f.get(n) }, 1, func() {
		f.get(i)
		f.set(j)
		f.block() // the block is in place
		f.loop()
		f.get(j)
		f.i32Eqz()
		f.brIf(1)
		f.get(a)
		f.get(j)
		f.get(wb)
		f.i32Mul()
		f.i32Add()
		f.tee(q)
		f.get(wb)
		f.i32Sub()
		f.set(p)
		// gt: block p's slots above block q's, at their first difference
		f.i32Const(0)
		f.set(gt)
		f.forUpTo(k, func() { f.i32Const(0) }, func() { f.get(wb) }, 8, func() {
			f.get(p)
			f.get(k)
			f.i32Add()
			f.i64Load(0)
			f.tee(x)
			f.get(q)
			f.get(k)
			f.i32Add()
			f.i64Load(0)
			f.tee(y)
			f.i64Ne()
			f.if_()
			f.get(x)
			f.get(y)
			f.i64GtS()
			f.set(gt)
			f.br(2) // out of the if, the loop and its block
			f.end()
		})
		f.get(gt)
		f.i32Eqz()
		f.brIf(1)
		f.forUpTo(k, func() { f.i32Const(0) }, func() { f.get(wb) }, 8, func() {
			f.get(p)
			f.get(k)
			f.i32Add()
			f.i64Load(0)
			f.set(x)
			f.get(p)
			f.get(k)
			f.i32Add()
			f.get(q)
			f.get(k)
			f.i32Add()
			f.i64Load(0)
			f.i64Store(0)
			f.get(q)
			f.get(k)
			f.i32Add()
			f.get(x)
			f.i64Store(0)
		})
		f.get(j)
		f.i32Const(1)
		f.i32Sub()
		f.set(j)
		f.br(0)
		f.end()
		f.end()
	})
	return f
}
