package compile

// This file compiles statements. Assignments check the target's range
// (a run-time error, never wrap-around); aggregates copy slot by slot,
// undefined components included.

import (
	"fmt"
	"math"
	"strings"

	"github.com/locus-mc/locus/core/murphi"
)

func (c *compiler) stmts(list []murphi.Stmt) []stmtFn {
	out := make([]stmtFn, 0, len(list))
	for _, s := range list {
		if f := c.stmt(s); f != nil {
			out = append(out, f)
		}
	}
	return out
}

// seq runs statements in order, stopping at a return.
func seq(list []stmtFn) stmtFn {
	switch len(list) {
	case 0:
		return func(*Machine) bool { return false }
	case 1:
		return list[0]
	case 2:
		a, b := list[0], list[1]
		return func(mc *Machine) bool { return a(mc) || b(mc) }
	}
	return func(mc *Machine) bool {
		for _, s := range list {
			if s(mc) {
				return true
			}
		}
		return false
	}
}

func (c *compiler) block(list []murphi.Stmt) stmtFn { return seq(c.stmts(list)) }

// storeCheck returns code validating a defined value of type src stored in a
// slot of type dst, or nil when every such value fits.
func (c *compiler) storeCheck(dst, src *murphi.Type, kind, text string, pos murphi.Pos) func(int64) {
	ar := c.ar
	// The checks call rangeFail themselves: a failure closure made here
	// would be allocated for every store, and most need no check.
	switch dst.Kind {
	case murphi.TRange:
		lo, hi := dst.Lo, dst.Hi
		if src.Kind == murphi.TRange && !ar.Less(src.Lo, lo) && !ar.Less(hi, src.Hi) {
			return nil
		}
		if ar.Unsigned {
			return func(v int64) {
				if uint64(v) < uint64(lo) || uint64(v) > uint64(hi) {
					c.rangeFail(dst, src, kind, text, pos, v)
				}
			}
		}
		return func(v int64) {
			if v < lo || v > hi {
				c.rangeFail(dst, src, kind, text, pos, v)
			}
		}
	case murphi.TEnum, murphi.TScalarset:
		if src.Kind != murphi.TUnion {
			return nil
		}
		lo, hi := dst.Lo, dst.Hi
		return func(v int64) {
			if v < lo || v > hi {
				c.rangeFail(dst, src, kind, text, pos, v)
			}
		}
	case murphi.TUnion:
		if src.Kind != murphi.TUnion || src.ID == dst.ID {
			return nil
		}
		parts := leafFor("", dst).Parts
		return func(v int64) {
			for _, p := range parts {
				if p.Lo <= v && v <= p.Hi {
					return
				}
			}
			c.rangeFail(dst, src, kind, text, pos, v)
		}
	}
	return nil
}

// rangeFail reports a value v of type src out of range for a slot of type
// dst (see storeCheck).
func (c *compiler) rangeFail(dst, src *murphi.Type, kind, text string, pos murphi.Pos, v int64) {
	panic(&RuntimeError{Kind: kind, Pos: pos,
		Msg: fmt.Sprintf("value %s is out of range for %s (%s)", c.describeValue(src, v), text, dst)})
}

func (c *compiler) describeValue(t *murphi.Type, v int64) string {
	if t.Kind == murphi.TInt || t.Kind == murphi.TRange {
		return c.ar.Format(v)
	}
	return c.formatValue(t, v)
}

// leafTypes flattens a type into its leaves' types (nil for multiset presence flags).
func leafTypes(t *murphi.Type, out []*murphi.Type) []*murphi.Type {
	switch t.Kind {
	case murphi.TRecord:
		for _, f := range t.Fields {
			out = leafTypes(f.Type, out)
		}
	case murphi.TArray:
		n := int(t.Index.Count())
		for i := 0; i < n; i++ {
			out = leafTypes(t.Elem, out)
		}
	case murphi.TMultiset:
		for i := 0; i < int(t.Size); i++ {
			out = append(out, nil)
			out = leafTypes(t.Elem, out)
		}
	default:
		out = append(out, t)
	}
	return out
}

// copyAggregate compiles dst := src for aggregates, with per-leaf range
// checks where the types' leaves differ.
func (c *compiler) copyAggregate(dst, src place, kind string, pos murphi.Pos) func(mc *Machine) {
	cp := c.copier(dst.typ, src.typ, kind, dst.text, pos)
	da, sa := dst.addr(), src.addr()
	return func(mc *Machine) { cp(mc, da(mc), sa(mc)) }
}

// copier compiles copying a value of type src from slot s to slot d (of type
// dst): the slots are copied raw, undefined ones included, and each defined
// leaf whose type differs is range-checked.
func (c *compiler) copier(dst, src *murphi.Type, kind, text string, pos murphi.Pos) func(mc *Machine, d, s int) {
	n := SlotSize(dst)
	dl, sl := leafTypes(dst, nil), leafTypes(src, nil)
	type chk struct {
		i int
		f func(int64)
	}
	var checks []chk
	for i := range dl {
		if dl[i] == nil || sl[i] == nil {
			continue
		}
		if f := c.storeCheck(dl[i], sl[i], kind, text, pos); f != nil {
			checks = append(checks, chk{i, f})
		}
	}
	undef := c.undef
	return func(mc *Machine, d, s int) {
		if s != d {
			copy(mc.mem[d:d+n], mc.mem[s:s+n])
			mc.markRange(d, n)
		}
		for _, k := range checks {
			if v := mc.mem[d+k.i]; v != undef {
				k.f(v)
			}
		}
	}
}

// storeScalar compiles storing value v (of type src) into place p.
func (c *compiler) storeScalar(p place, v value, src *murphi.Type, kind string, pos murphi.Pos) stmtFn {
	check := c.storeCheck(p.typ, src, kind, p.text, pos)
	if v.isConst && check != nil {
		check2 := check
		k := v.v
		ok := true
		func() {
			defer func() {
				if recover() != nil {
					ok = false
				}
			}()
			check2(k)
		}()
		if ok {
			check = nil
		}
	}
	f := v.f()
	switch {
	case p.kind == pAbs && check == nil:
		k, w, bit := p.off, p.off>>6, uint64(1)<<uint(p.off&63)
		if v.isConst {
			val := v.v
			return func(mc *Machine) bool {
				mc.mem[k] = val
				mc.written[w] |= bit
				return false
			}
		}
		return func(mc *Machine) bool {
			x := f(mc)
			mc.mem[k] = x
			mc.written[w] |= bit
			return false
		}
	case p.kind == pAbs:
		k, w, bit := p.off, p.off>>6, uint64(1)<<uint(p.off&63)
		return func(mc *Machine) bool {
			x := f(mc)
			check(x)
			mc.mem[k] = x
			mc.written[w] |= bit
			return false
		}
	case p.kind == pFrame:
		k := p.off
		return func(mc *Machine) bool {
			x := f(mc)
			if check != nil {
				check(x)
			}
			mc.mem[mc.fp+k] = x
			return false
		}
	}
	a := p.fn
	return func(mc *Machine) bool {
		addr := a(mc)
		x := f(mc)
		if check != nil {
			check(x)
		}
		mc.mem[addr] = x
		mc.mark(addr)
		return false
	}
}

// clearValues lists the slot values `clear` writes for type t: each leaf's
// minimum; multisets become empty.
func (c *compiler) clearValues(t *murphi.Type, out []int64) []int64 {
	switch t.Kind {
	case murphi.TRecord:
		for _, f := range t.Fields {
			out = c.clearValues(f.Type, out)
		}
	case murphi.TArray:
		n := int(t.Index.Count())
		for i := 0; i < n; i++ {
			out = c.clearValues(t.Elem, out)
		}
	case murphi.TMultiset:
		for i := 0; i < SlotSize(t); i++ {
			out = append(out, c.undef)
		}
	case murphi.TUnion:
		out = append(out, t.Union[0].Lo)
	default:
		out = append(out, t.Lo)
	}
	return out
}

func (c *compiler) fill(p place, vals []int64) stmtFn {
	n := len(vals)
	a := p.addr()
	return func(mc *Machine) bool {
		d := a(mc)
		copy(mc.mem[d:d+n], vals)
		mc.markRange(d, n)
		return false
	}
}

func (c *compiler) stmt(s murphi.Stmt) stmtFn {
	defer c.enter(s.Pos())()
	switch s := s.(type) {
	case *murphi.AssignStmt:
		dst := c.place(s.Lhs)
		if _, undef := s.Rhs.(*murphi.UndefinedLit); undef {
			return c.fill(dst, c.undefs(SlotSize(dst.typ)))
		}
		if !dst.typ.IsSimple() {
			src := c.aggregate(s.Rhs)
			cp := c.copyAggregate(dst, src, ErrRangeAssign, s.Assign)
			return func(mc *Machine) bool { cp(mc); return false }
		}
		rt := c.info.Types[s.Rhs]
		if rt.Addressable && isSymbolic(dst.typ) && isSymbolic(rt.Type) {
			// CMurphi copies enum and scalarset values raw, so an undefined
			// value propagates instead of failing (newlist6 relies on it).
			src := c.place(s.Rhs)
			cp := c.copyAggregate(dst, src, ErrRangeAssign, s.Assign)
			return func(mc *Machine) bool { cp(mc); return false }
		}
		return c.storeScalar(dst, c.expr(s.Rhs), rt.Type, ErrRangeAssign, s.Assign)
	case *murphi.IfStmt:
		type arm struct {
			cond boolFn
			body stmtFn
		}
		var arms []arm
		for _, cl := range s.Clauses {
			arms = append(arms, arm{c.cond(cl.Cond), c.block(cl.Body)})
		}
		els := c.block(s.Else)
		if len(arms) == 1 {
			cond, body := arms[0].cond, arms[0].body
			if len(s.Else) == 0 {
				return func(mc *Machine) bool {
					if cond(mc) {
						return body(mc)
					}
					return false
				}
			}
			return func(mc *Machine) bool {
				if cond(mc) {
					return body(mc)
				}
				return els(mc)
			}
		}
		return func(mc *Machine) bool {
			for _, a := range arms {
				if a.cond(mc) {
					return a.body(mc)
				}
			}
			return els(mc)
		}
	case *murphi.SwitchStmt:
		return c.switchStmt(s)
	case *murphi.ForStmt:
		mark := c.frameTop
		defer func() { c.frameTop = mark }()
		var build func(i int) func(*Machine) bool
		build = func(i int) func(*Machine) bool {
			if i == len(s.Quants) {
				return c.block(s.Body)
			}
			q := s.Quants[i]
			if vals, ok := c.unrollValues(q); ok {
				return c.unroll(q, vals, func() func(*Machine) bool { return build(i + 1) })
			}
			slot := c.alloc(1)
			c.env[q.Name.Obj] = binding{kind: bFrame, off: slot}
			inner := build(i + 1)
			loop := c.iterate(q, slot)
			return func(mc *Machine) bool { return loop(mc, inner) }
		}
		return build(0)
	case *murphi.WhileStmt:
		cond := c.cond(s.Cond)
		body := c.block(s.Body)
		pos := s.Pos()
		return func(mc *Machine) bool {
			for n := 0; cond(mc); n++ {
				mc.step(pos)
				if n >= MaxLoopIterations {
					panic(&RuntimeError{Kind: ErrLoopLimit, Pos: pos,
						Msg: fmt.Sprintf("while loop ran more than %d iterations", MaxLoopIterations)})
				}
				if body(mc) {
					return true
				}
			}
			return false
		}
	case *murphi.AliasStmt:
		pre := c.bindAliases(s.Aliases)
		body := c.stmts(s.Body)
		return seq(append(pre, seq(body)))
	case *murphi.CallStmt:
		call := c.callStmt(s.Call)
		return func(mc *Machine) bool { call(mc); return false }
	case *murphi.ClearStmt:
		p := c.place(s.X)
		return c.fill(p, c.clearValues(p.typ, nil))
	case *murphi.UndefineStmt:
		p := c.place(s.X)
		return c.fill(p, c.undefs(SlotSize(p.typ)))
	case *murphi.ErrorStmt:
		err := &RuntimeError{Kind: ErrErrorStmt, Msg: "error: " + s.Msg, Pos: s.Pos(), Name: s.Msg}
		return func(*Machine) bool { panic(err) }
	case *murphi.PropertyStmt:
		cond := c.cond(s.Cond)
		switch s.Kind {
		case murphi.ASSERT:
			msg := s.Msg
			if msg == "" {
				msg = murphi.ExprString(s.Cond)
			}
			err := &RuntimeError{Kind: ErrAssertion, Msg: "assertion failed: " + msg, Pos: s.Pos(), Name: s.Msg}
			return func(mc *Machine) bool {
				if !cond(mc) {
					panic(err)
				}
				return false
			}
		case murphi.ASSUME:
			abort := assumeAbort{s.Pos()}
			return func(mc *Machine) bool {
				if !cond(mc) {
					panic(abort)
				}
				return false
			}
		case murphi.COVER:
			k := c.coverStmt[s.Pos()]
			return func(mc *Machine) bool {
				if cond(mc) {
					mc.CoverHits[k]++
				}
				return false
			}
		}
	case *murphi.PutStmt:
		return c.put(s)
	case *murphi.ReturnStmt:
		if s.Result == nil || c.fn == nil {
			return func(*Machine) bool { return true }
		}
		rt := c.fn.resultType
		dst := place{kind: pFrame, off: c.fn.resultOff, typ: rt, text: "the result of " + c.fn.name}
		if !rt.IsSimple() {
			src := c.aggregate(s.Result)
			cp := c.copyAggregate(dst, src, ErrRangeAssign, s.Pos())
			return func(mc *Machine) bool { cp(mc); return true }
		}
		store := c.storeScalar(dst, c.expr(s.Result), c.info.Types[s.Result].Type, ErrRangeAssign, s.Pos())
		return func(mc *Machine) bool { store(mc); return true }
	case *murphi.MultisetAddStmt:
		return c.multisetAdd(s)
	case *murphi.MultisetRemoveStmt:
		pl := c.place(s.Multiset)
		entry := 1 + SlotSize(pl.typ.Elem)
		idx := c.expr(s.Index).f()
		base := pl.addr()
		clear := c.entryClearer(pl.typ)
		return func(mc *Machine) bool {
			clear(mc, base(mc)+int(idx(mc))*entry)
			return false
		}
	case *murphi.MultisetRemovePredStmt:
		mt := c.info.Types[s.Multiset].Type
		loop := c.matchingEntries(s.Multiset, s.Var, s.Pred, c.entryClearer(mt))
		return func(mc *Machine) bool { loop(mc); return false }
	case *murphi.BadStmt:
		c.fail(s.Pos(), "internal: bad statement")
	}
	return nil
}

// switchStmt compiles a switch. Case values are almost always constants:
// then the arm is found by a table lookup (or at compile time, when the
// switched value is a constant too) instead of calling code per value.
func (c *compiler) switchStmt(s *murphi.SwitchStmt) stmtFn {
	xv := c.expr(s.X)
	type arm struct {
		vals []value
		body stmtFn
	}
	var arms []arm
	allConst := true
	for _, cl := range s.Cases {
		a := arm{body: c.block(cl.Body)}
		for _, v := range cl.Values {
			cv := c.expr(v)
			allConst = allConst && cv.isConst
			a.vals = append(a.vals, cv)
		}
		arms = append(arms, a)
	}
	els := c.block(s.Else)
	if !allConst {
		type dynArm struct {
			vals []intFn
			body stmtFn
		}
		var dyn []dynArm
		for _, a := range arms {
			d := dynArm{body: a.body}
			for _, v := range a.vals {
				d.vals = append(d.vals, v.f())
			}
			dyn = append(dyn, d)
		}
		x := xv.f()
		return func(mc *Machine) bool {
			v := x(mc)
			for _, a := range dyn {
				for _, f := range a.vals {
					if f(mc) == v {
						return a.body(mc)
					}
				}
			}
			return els(mc)
		}
	}
	// The first arm listing a value takes it.
	bodies := []stmtFn{els}
	armOf := map[int64]int{}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, a := range arms {
		bodies = append(bodies, a.body)
		for _, v := range a.vals {
			if _, dup := armOf[v.v]; !dup {
				armOf[v.v] = len(bodies) - 1
				lo, hi = min(lo, v.v), max(hi, v.v)
			}
		}
	}
	if xv.isConst {
		return bodies[armOf[xv.v]] // 0, the else arm, if absent
	}
	x := xv.fn
	if len(armOf) > 0 && uint64(hi-lo) < 256 {
		table := make([]uint8, hi-lo+1)
		for v, k := range armOf {
			table[v-lo] = uint8(k)
		}
		if len(bodies) <= 256 {
			return func(mc *Machine) bool {
				k := x(mc) - lo
				if uint64(k) >= uint64(len(table)) {
					return els(mc)
				}
				return bodies[table[k]](mc)
			}
		}
	}
	return func(mc *Machine) bool {
		return bodies[armOf[x(mc)]](mc)
	}
}

// entryClearer returns code removing the multiset entry at a slot: the
// presence flag and the element become undefined (absent entries stay
// all-undefined, which keeps the sorted form canonical).
func (c *compiler) entryClearer(mt *murphi.Type) func(mc *Machine, entry int) {
	n := 1 + SlotSize(mt.Elem)
	undef := c.undef
	return func(mc *Machine, e int) {
		f := mc.mem[e : e+n]
		for i := range f {
			f[i] = undef
		}
		mc.markRange(e, n)
	}
}

func (c *compiler) undefs(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = c.undef
	}
	return out
}

func (c *compiler) multisetAdd(s *murphi.MultisetAddStmt) stmtFn {
	pl := c.place(s.Multiset)
	mt := pl.typ
	elem := mt.Elem
	entry := 1 + SlotSize(elem)
	size := int(mt.Size)
	base := pl.addr()
	undef := c.undef
	pos := s.Pos()
	full := &RuntimeError{Kind: ErrMultisetFull, Pos: pos,
		Msg: fmt.Sprintf("multisetadd: multiset %s is full (%d entries)", pl.text, size)}
	// The new element is written to a frame temp first, then moved into the
	// first free entry.
	tmp := c.alloc(SlotSize(elem))
	tmpPlace := place{kind: pFrame, off: tmp, typ: elem, text: pl.text}
	var write func(mc *Machine)
	if elem.IsSimple() {
		st := c.storeScalar(tmpPlace, c.expr(s.Elem), c.info.Types[s.Elem].Type, ErrRangeAssign, pos)
		write = func(mc *Machine) { st(mc) }
	} else {
		write = c.copyAggregate(tmpPlace, c.aggregate(s.Elem), ErrRangeAssign, pos)
	}
	n := entry - 1
	return func(mc *Machine) bool {
		write(mc)
		b := base(mc)
		for k := 0; k < size; k++ {
			e := b + k*entry
			if mc.mem[e] == undef {
				mc.mem[e] = 1
				copy(mc.mem[e+1:e+1+n], mc.mem[mc.fp+tmp:mc.fp+tmp+n])
				mc.markRange(e, 1+n)
				return false
			}
		}
		panic(full)
	}
}

// put compiles a put statement: output only, no effect on the state.
func (c *compiler) put(s *murphi.PutStmt) stmtFn {
	if s.X == nil {
		str := s.Str
		return func(mc *Machine) bool {
			if mc.Put != nil {
				mc.Put(str)
			}
			return false
		}
	}
	t := c.info.Types[s.X].Type
	if c.info.Types[s.X].Addressable {
		// Designators print raw, so undefined parts print as "undefined".
		p := c.place(s.X)
		n := SlotSize(t)
		lts := leafTypes(t, nil)
		a := p.addr()
		m := c.m
		return func(mc *Machine) bool {
			// The designator is located even when nothing is printed: an
			// index in it may be out of range (Rumur fails then).
			base := a(mc)
			if mc.Put == nil {
				return false
			}
			parts := make([]string, n)
			for i := 0; i < n; i++ {
				if lts[i] == nil {
					parts[i] = "present"
					if mc.mem[base+i] == m.Undef {
						parts[i] = "absent"
					}
					continue
				}
				parts[i] = m.FormatValue(lts[i], mc.mem[base+i])
			}
			mc.Put(strings.Join(parts, " "))
			return false
		}
	}
	if !t.IsSimple() {
		p := c.aggregate(s.X)
		_ = p
		return func(*Machine) bool { return false }
	}
	v := c.expr(s.X).f()
	m := c.m
	return func(mc *Machine) bool {
		x := v(mc)
		if mc.Put != nil {
			mc.Put(m.FormatValue(t, x))
		}
		return false
	}
}

// bindAliases binds alias names: designators with a fixed address bind at
// compile time; others are evaluated when the alias is entered.
func (c *compiler) bindAliases(list []*murphi.AliasDecl) []stmtFn {
	var out []stmtFn
	for _, a := range list {
		obj := a.Name.Obj
		tv := c.info.Types[a.X]
		if tv.Addressable {
			p := c.place(a.X)
			if p.kind != pDyn {
				c.env[obj] = binding{kind: bPlace, pl: p}
				continue
			}
			slot := c.alloc(1)
			f := p.fn
			out = append(out, func(mc *Machine) bool {
				a := f(mc) // (may move mc.mem)
				mc.mem[mc.fp+slot] = int64(a)
				return false
			})
			c.env[obj] = binding{kind: bFrameRef, off: slot}
			continue
		}
		if tv.Type.IsSimple() {
			v := c.expr(a.X)
			if v.isConst {
				c.env[obj] = binding{kind: bConst, v: v.v}
				continue
			}
			slot := c.alloc(1)
			f := v.fn
			out = append(out, func(mc *Machine) bool {
				v := f(mc) // (may move mc.mem)
				mc.mem[mc.fp+slot] = v
				return false
			})
			c.env[obj] = binding{kind: bFrame, off: slot}
			continue
		}
		src := c.aggregate(a.X)
		n := SlotSize(tv.Type)
		slot := c.alloc(n)
		sa := src.addr()
		out = append(out, func(mc *Machine) bool {
			s := sa(mc)
			copy(mc.mem[mc.fp+slot:mc.fp+slot+n], mc.mem[s:s+n])
			return false
		})
		c.env[obj] = binding{kind: bFrame, off: slot}
	}
	return out
}

// isSymbolic reports whether t is an enum, scalarset or union type.
func isSymbolic(t *murphi.Type) bool {
	return t.Kind == murphi.TEnum || t.Kind == murphi.TScalarset || t.Kind == murphi.TUnion
}
