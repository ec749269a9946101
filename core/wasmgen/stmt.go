package wasmgen

// This file generates statements, inlined procedure calls and aliases.

import (
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
)

// storeCheck traps unless the defined value in local v, of type src, fits
// a slot of type dst (nothing when every such value fits), as the
// closures' storeCheck.
func (u *unit) storeCheck(dst, src *murphi.Type, v uint32, pos murphi.Pos) {
	f := u.f
	switch dst.Kind {
	case murphi.TRange:
		if src.Kind == murphi.TRange && src.Lo >= dst.Lo && src.Hi <= dst.Hi {
			return
		}
		pushOutOfRange(f, v, dst.Lo, dst.Hi)
		u.trapIf()
	case murphi.TEnum, murphi.TScalarset:
		if src.Kind != murphi.TUnion {
			return
		}
		pushOutOfRange(f, v, dst.Lo, dst.Hi)
		u.trapIf()
	case murphi.TUnion:
		if src.Kind == murphi.TUnion && src.ID == dst.ID {
			return
		}
		// A member of no part of dst: in none of the intervals.
		f.i32Const(1)
		for _, m := range dst.Union {
			pushOutOfRange(f, v, m.Lo, m.Hi)
			f.i32And()
		}
		u.trapIf()
	}
}

// leafTypes flattens a type into its leaves' types.
func (u *unit) leafTypes(t *murphi.Type, out []*murphi.Type) []*murphi.Type {
	switch t.Kind {
	case murphi.TRecord:
		for _, fl := range t.Fields {
			out = u.leafTypes(fl.Type, out)
		}
	case murphi.TArray:
		for i := uint64(0); i < t.Index.Count(); i++ {
			out = u.leafTypes(t.Elem, out)
		}
	case murphi.TMultiset:
		u.g.fail(t.Pos, "multisets")
	default:
		out = append(out, t)
	}
	return out
}

// copyAggregate copies the slots of src (of type st) raw to dst (of type
// dt), then range-checks each defined leaf whose type differs.
func (u *unit) copyAggregate(dst, src place, dt, st *murphi.Type, pos murphi.Pos) {
	f := u.f
	n := compile.SlotSize(dt)
	d, s := f.local(i32), f.local(i32)
	dst.push(u)
	f.set(d)
	src.push(u)
	f.set(s)
	f.get(d)
	f.get(s)
	f.i32Const(int32(8 * n))
	f.memoryCopy()
	dl, sl := u.leafTypes(dt, nil), u.leafTypes(st, nil)
	v := f.local(i64)
	for i := range dl {
		if !needsCheck(dl[i], sl[i]) {
			continue
		}
		f.get(d)
		f.i64Load(uint32(8 * i))
		f.tee(v)
		f.i64Const(undef)
		f.i64Ne()
		f.if_()
		u.storeCheck(dl[i], sl[i], v, pos)
		f.end()
	}
}

// needsCheck reports whether storing a value of type src into dst checks
// its range.
func needsCheck(dst, src *murphi.Type) bool {
	switch dst.Kind {
	case murphi.TRange:
		return !(src.Kind == murphi.TRange && src.Lo >= dst.Lo && src.Hi <= dst.Hi)
	case murphi.TEnum, murphi.TScalarset:
		return src.Kind == murphi.TUnion
	case murphi.TUnion:
		return src.Kind != murphi.TUnion || src.ID != dst.ID
	}
	return false
}

// fill writes vals to the slots of p.
func (u *unit) fill(p place, vals []int64) {
	f := u.f
	a := f.local(i32)
	p.push(u)
	f.set(a)
	if len(vals) > 64 && allSame(vals) {
		// A loop: large arrays would make large code.
		i := f.local(i32)
		f.i32Const(0)
		f.set(i)
		f.block()
		f.loop()
		f.get(a)
		f.get(i)
		f.i32Add()
		f.i64Const(vals[0])
		f.i64Store(0)
		f.get(i)
		f.i32Const(8)
		f.i32Add()
		f.tee(i)
		f.i32Const(int32(8 * len(vals)))
		f.i32Eq()
		f.brIf(1)
		f.br(0)
		f.end()
		f.end()
		return
	}
	for k, v := range vals {
		f.get(a)
		f.i64Const(v)
		f.i64Store(uint32(8 * k))
	}
}

func allSame(v []int64) bool {
	for _, x := range v {
		if x != v[0] {
			return false
		}
	}
	return true
}

func undefs(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = undef
	}
	return out
}

// clearValues lists what clear writes: each leaf's minimum.
func (u *unit) clearValues(t *murphi.Type, out []int64) []int64 {
	switch t.Kind {
	case murphi.TRecord:
		for _, fl := range t.Fields {
			out = u.clearValues(fl.Type, out)
		}
	case murphi.TArray:
		for i := uint64(0); i < t.Index.Count(); i++ {
			out = u.clearValues(t.Elem, out)
		}
	case murphi.TMultiset:
		u.g.fail(t.Pos, "clear of a multiset")
	case murphi.TUnion:
		out = append(out, t.Union[0].Lo) // as core/compile's clearValues
	default:
		out = append(out, t.Lo)
	}
	return out
}

func (u *unit) stmts(list []murphi.Stmt) {
	for _, s := range list {
		u.stmt(s)
	}
}

func (u *unit) stmt(s murphi.Stmt) {
	g := u.g
	f := u.f
	switch s := s.(type) {
	case *murphi.AssignStmt:
		dst := u.place(s.Lhs)
		if _, isUndef := s.Rhs.(*murphi.UndefinedLit); isUndef {
			u.fill(dst, undefs(compile.SlotSize(dst.typ)))
			return
		}
		rt := g.info.Types[s.Rhs]
		if !dst.typ.IsSimple() {
			u.copyAggregate(dst, u.aggregate(s.Rhs), dst.typ, rt.Type, s.Assign)
			return
		}
		if rt.Addressable && isSymbolic(dst.typ) && isSymbolic(rt.Type) {
			// Copied raw, undefined included (as the closures).
			u.copyAggregate(dst, u.place(s.Rhs), dst.typ, rt.Type, s.Assign)
			return
		}
		a, v := f.local(i32), f.local(i64)
		dst.push(u)
		f.set(a)
		u.expr(s.Rhs)
		f.set(v)
		u.storeCheck(dst.typ, rt.Type, v, s.Assign)
		f.get(a)
		f.get(v)
		f.i64Store(0)
	case *murphi.IfStmt:
		u.ifChain(s.Clauses, s.Else)
	case *murphi.SwitchStmt:
		x := f.local(i64)
		u.expr(s.X)
		f.set(x)
		u.switchChain(x, s.Cases, s.Else)
	case *murphi.ForStmt:
		mark := u.frameTop
		var build func(i int)
		build = func(i int) {
			if i == len(s.Quants) {
				u.stmts(s.Body)
				return
			}
			u.loop(s.Quants[i], func(int) { build(i + 1) })
		}
		build(0)
		u.frameTop = mark
	case *murphi.AliasStmt:
		mark := u.frameTop
		restore := u.bindAliases(s.Aliases)
		u.stmts(s.Body)
		restore()
		u.frameTop = mark
	case *murphi.CallStmt:
		u.call(s.Call)
	case *murphi.ClearStmt:
		p := u.place(s.X)
		u.fill(p, u.clearValues(p.typ, nil))
	case *murphi.UndefineStmt:
		p := u.place(s.X)
		u.fill(p, undefs(compile.SlotSize(p.typ)))
	case *murphi.ErrorStmt:
		f.unreachable()
	case *murphi.PropertyStmt:
		switch s.Kind {
		case murphi.ASSERT:
			u.cond(s.Cond)
			f.i32Eqz()
			u.trapIf()
		case murphi.ASSUME:
			if !u.inRule {
				g.fail(s.Pos(), "an assume statement outside a rule")
			}
			u.cond(s.Cond)
			f.i32Eqz()
			f.if_()
			f.i32Const(statusAssumed)
			f.return_()
			f.end()
		default:
			g.fail(s.Pos(), "cover statements")
		}
	case *murphi.PutStmt:
		if s.X == nil {
			return // output only
		}
		if g.info.Types[s.X].Addressable {
			// The designator is located even though nothing is printed:
			// an index in it may be out of range (as the closures).
			u.place(s.X).push(u)
			f.drop()
			return
		}
		if !g.info.Types[s.X].Type.IsSimple() {
			return
		}
		u.expr(s.X) // may fail as the closures' does
		f.drop()
	case *murphi.ReturnStmt:
		if s.Result != nil {
			// As core/compile: the value is range-checked against the
			// function's result type and stored where the caller reads it.
			if u.result == nil {
				g.fail(s.Pos(), "a return with a value outside a function")
			}
			v := f.local(i64)
			u.expr(s.Result)
			f.set(v)
			u.storeCheck(u.result.typ, g.info.Types[s.Result].Type, v, s.Pos())
			f.i32Const(int32(u.result.addr))
			f.get(v)
			f.i64Store(0)
		} else if u.result != nil {
			g.fail(s.Pos(), "a return without a value in a function")
		}
		f.br(uint32(u.depth - u.retDepth))
	default:
		g.fail(s.Pos(), "this statement")
	}
}

func (u *unit) ifChain(clauses []*murphi.IfClause, els []murphi.Stmt) {
	f := u.f
	if len(clauses) == 0 {
		u.stmts(els)
		return
	}
	u.cond(clauses[0].Cond)
	f.if_()
	u.depth++
	u.stmts(clauses[0].Body)
	if len(clauses) > 1 || len(els) > 0 {
		f.else_()
		u.ifChain(clauses[1:], els)
	}
	f.end()
	u.depth--
}

func (u *unit) switchChain(x uint32, cases []*murphi.CaseClause, els []murphi.Stmt) {
	f := u.f
	if len(cases) == 0 {
		u.stmts(els)
		return
	}
	cl := cases[0]
	f.i32Const(0)
	for _, v := range cl.Values {
		f.get(x)
		u.expr(v)
		f.i64Eq()
		f.i32Or()
	}
	f.if_()
	u.depth++
	u.stmts(cl.Body)
	if len(cases) > 1 || len(els) > 0 {
		f.else_()
		u.switchChain(x, cases[1:], els)
	}
	f.end()
	u.depth--
}

// isSymbolic reports whether t is an enum, scalarset or union type.
func isSymbolic(t *murphi.Type) bool {
	return t.Kind == murphi.TEnum || t.Kind == murphi.TScalarset || t.Kind == murphi.TUnion
}

// bind binds obj until the returned function restores what it was.
func (u *unit) bind(obj *murphi.Object, b binding) func() {
	old, had := u.g.env[obj]
	u.g.env[obj] = b
	return func() {
		if had {
			u.g.env[obj] = old
		} else {
			delete(u.g.env, obj)
		}
	}
}

// addrPlace stores the address of a computed place in a frame slot and
// returns a place that reads it back: an alias or var parameter keeps the
// address it had when bound.
func (u *unit) addrPlace(p place) place {
	f := u.f
	slot := u.alloc(1)
	at := u.frameAddr(slot)
	f.i32Const(int32(at))
	p.push(u)
	f.i32Store(0)
	return place{typ: p.typ, dyn: func(u *unit) {
		u.f.i32Const(int32(at))
		u.f.i32Load(0)
	}}
}

// bindAliases binds alias names as the closures do, and returns the
// function that unbinds them.
func (u *unit) bindAliases(list []*murphi.AliasDecl) func() {
	f := u.f
	var undo []func()
	for _, a := range list {
		obj := a.Name.Obj
		tv := u.g.info.Types[a.X]
		switch {
		case tv.Addressable:
			p := u.place(a.X)
			if !p.static {
				p = u.addrPlace(p)
			}
			undo = append(undo, u.bind(obj, binding{kind: bPlace, pl: p}))
		case tv.Type.IsSimple():
			if v, ok := u.constant(a.X); ok {
				undo = append(undo, u.bind(obj, binding{kind: bConst, v: v}))
				continue
			}
			slot := u.alloc(1)
			f.i32Const(int32(u.frameAddr(slot)))
			u.expr(a.X)
			f.i64Store(0)
			undo = append(undo, u.bind(obj, binding{kind: bPlace, pl: place{static: true, addr: u.frameAddr(slot)}}))
		default:
			u.g.fail(a.X.Pos(), "an alias of an aggregate value that is not a variable")
		}
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
}

// call generates a call statement: a procedure inlined, or a function
// whose value is dropped.
func (u *unit) call(x *murphi.CallExpr) {
	d := u.g.info.Calls[x]
	if d == nil {
		u.g.fail(x.Pos(), "an unresolved call")
	}
	if d.IsFunc {
		// Rumur allows it: the value is dropped.
		u.funcCall(x)
		u.f.drop()
		return
	}
	u.inlineCall(x, d, nil)
}

// funcCall inlines a call of a function with a simple result and pushes
// the result. Its return statements store into a frame slot and leave the
// body; a body that ends without one traps, as the closures fail with
// "function ... ended without returning a value".
func (u *unit) funcCall(x *murphi.CallExpr) {
	g := u.g
	d := g.info.Calls[x]
	if d == nil {
		g.fail(x.Pos(), "an unresolved call")
	}
	if !d.IsFunc || d.Obj == nil || d.Obj.Type == nil || !d.Obj.Type.IsSimple() {
		g.fail(x.Pos(), "functions that return records or arrays")
	}
	mark := u.frameTop
	res := place{static: true, addr: u.frameAddr(u.alloc(1)), typ: d.Obj.Type}
	u.inlineCall(x, d, &res)
	u.f.i32Const(int32(res.addr))
	u.f.i64Load(0)
	u.frameTop = mark
}

// inlineCall inlines a call of procedure or function d: a frame of its own
// in the unit's frame (parameters, then locals, which start undefined), the
// body in a block that a return leaves. A function's return statements
// store into result.
func (u *unit) inlineCall(x *murphi.CallExpr, d *murphi.ProcDecl, result *place) {
	g := u.g
	f := u.f
	for _, p := range u.inline {
		if p == d {
			g.fail(x.Pos(), "recursion")
		}
	}
	u.step(1, x.Pos())
	mark := u.frameTop
	var undo []func()
	var objs []*murphi.Object
	for _, prm := range d.Params {
		for _, n := range prm.Names {
			objs = append(objs, n.Obj)
		}
	}
	if len(objs) != len(x.Args) {
		g.fail(x.Pos(), "a call with %d arguments to %d parameters", len(x.Args), len(objs))
	}
	for i, a := range x.Args {
		obj := objs[i]
		if obj == nil {
			g.fail(x.Pos(), "a parameter without an object")
		}
		size := compile.SlotSize(obj.Type)
		if _, isUndef := a.(*murphi.UndefinedLit); isUndef {
			slot := u.alloc(size)
			fp := place{static: true, addr: u.frameAddr(slot), typ: obj.Type}
			u.fill(fp, undefs(size))
			undo = append(undo, u.bind(obj, binding{kind: bPlace, pl: fp}))
			continue
		}
		if obj.VarParam {
			p := u.place(a)
			if !p.static {
				p = u.addrPlace(p)
			}
			undo = append(undo, u.bind(obj, binding{kind: bPlace, pl: p}))
			continue
		}
		tv := g.info.Types[a]
		slot := u.alloc(size)
		fp := place{static: true, addr: u.frameAddr(slot), typ: obj.Type}
		switch {
		case !obj.Type.IsSimple():
			u.copyAggregate(fp, u.aggregate(a), obj.Type, tv.Type, a.Pos())
		case tv.Addressable:
			// Passed raw: an undefined argument gives an undefined
			// parameter; a defined one is range-checked.
			v := f.local(i64)
			u.place(a).push(u)
			f.i64Load(0)
			f.set(v)
			if needsCheck(obj.Type, tv.Type) {
				f.get(v)
				f.i64Const(undef)
				f.i64Ne()
				f.if_()
				u.storeCheck(obj.Type, tv.Type, v, a.Pos())
				f.end()
			}
			f.i32Const(int32(fp.addr))
			f.get(v)
			f.i64Store(0)
		default:
			v := f.local(i64)
			u.expr(a)
			f.set(v)
			u.storeCheck(obj.Type, tv.Type, v, a.Pos())
			f.i32Const(int32(fp.addr))
			f.get(v)
			f.i64Store(0)
		}
		undo = append(undo, u.bind(obj, binding{kind: bPlace, pl: fp}))
	}
	undo = append(undo, u.bindLocals(d.Decls))
	u.inline = append(u.inline, d)
	f.block()
	u.depth++
	saveRet, saveResult := u.retDepth, u.result
	u.retDepth, u.result = u.depth, result
	u.stmts(d.Body)
	if result != nil {
		f.unreachable() // the end of a function's body: no value returned
	}
	f.end()
	u.depth--
	u.retDepth, u.result = saveRet, saveResult
	u.inline = u.inline[:len(u.inline)-1]
	for i := len(undo) - 1; i >= 0; i-- {
		undo[i]()
	}
	u.frameTop = mark
}

// bindLocals gives local variables frame slots, undefined on entry.
func (u *unit) bindLocals(decls []murphi.Decl) func() {
	var undo []func()
	for _, d := range decls {
		vd, ok := d.(*murphi.VarDecl)
		if !ok {
			continue
		}
		for _, n := range vd.Names {
			if n.Obj == nil {
				continue
			}
			size := compile.SlotSize(n.Obj.Type)
			slot := u.alloc(size)
			p := place{static: true, addr: u.frameAddr(slot), typ: n.Obj.Type}
			u.fill(p, undefs(size))
			undo = append(undo, u.bind(n.Obj, binding{kind: bPlace, pl: p}))
		}
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
}
