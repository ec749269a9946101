package wasmgen

// This file generates statements, procedures and functions, and aliases.

import (
	"math"

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
		// A presence flag (nil: copied as it is), then the element.
		for i := int64(0); i < t.Size; i++ {
			out = u.leafTypes(t.Elem, append(out, nil))
		}
	default:
		out = append(out, t)
	}
	return out
}

// copyAggregate copies the slots of src (of type st) raw to dst (of type
// dt), then range-checks each defined leaf whose type differs.
func (u *unit) copyAggregate(dst, src place, dt, st *murphi.Type, pos murphi.Pos) {
	f := u.f
	u.wrote(dst)
	n := compile.SlotSize(dt)
	d, s := f.local(i32), f.local(i32)
	dst.push(u)
	f.set(d)
	u.dirty(dst, int32(d), n)
	src.push(u)
	f.set(s)
	f.copyWords(func() { f.get(d) }, func() { f.get(s) }, 8*n, unrollCopy)
	dl, sl := u.leafTypes(dt, nil), u.leafTypes(st, nil)
	v := f.local(i64)
	for i := range dl {
		if !needsCheck(dl[i], sl[i]) {
			continue
		}
		f.get(d)
		f.i64Load(uint32(8 * i))
		f.set(v)
		u.checkDefined(dl[i], sl[i], v, pos)
	}
}

// checkDefined range-checks local v, a value of type src copied raw into
// a leaf of type dst, unless it is undefined (as the closures).
func (u *unit) checkDefined(dst, src *murphi.Type, v uint32, pos murphi.Pos) {
	if !needsCheck(dst, src) {
		return
	}
	f := u.f
	f.get(v)
	f.i64Const(undef)
	f.i64Ne()
	f.if_()
	u.storeCheck(dst, src, v, pos)
	f.end()
}

// needsCheck reports whether storing a value of type src into dst checks
// its range.
func needsCheck(dst, src *murphi.Type) bool {
	if dst == nil {
		return false // a multiset entry's presence flag
	}
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
	u.wrote(p)
	a := f.local(i32)
	p.push(u)
	f.set(a)
	u.dirty(p, int32(a), len(vals))
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
		out = append(out, undefs(compile.SlotSize(t))...) // empty, as core/compile's
	case murphi.TUnion:
		out = append(out, t.Union[0].Lo) // as core/compile's clearValues
	default:
		out = append(out, t.Lo)
	}
	return out
}

// assign generates dst := rhs; pos is the assignment's, for its checks.
func (u *unit) assign(dst place, rhs murphi.Expr, pos murphi.Pos) {
	f := u.f
	if _, isUndef := rhs.(*murphi.UndefinedLit); isUndef {
		u.fill(dst, undefs(compile.SlotSize(dst.typ)))
		return
	}
	rt := u.g.info.Types[rhs]
	if !dst.typ.IsSimple() {
		u.copyAggregate(dst, u.aggregate(rhs), dst.typ, rt.Type, pos)
		return
	}
	// A symbolic value is copied raw, undefined included (as the
	// closures), a defined one range-checked.
	raw := rt.Addressable && isSymbolic(dst.typ) && isSymbolic(rt.Type)
	pv, isParam := u.paramLocal(rhs)
	if raw && !isParam {
		u.copyAggregate(dst, u.place(rhs), dst.typ, rt.Type, pos)
		return
	}
	a, v := f.local(i32), f.local(i64)
	u.wrote(dst)
	dst.push(u)
	f.set(a)
	u.dirty(dst, int32(a), 1)
	if raw {
		f.get(pv)
		f.set(v)
		u.checkDefined(dst.typ, rt.Type, v, pos)
	} else {
		u.expr(rhs)
		f.set(v)
		u.storeCheck(dst.typ, rt.Type, v, pos)
	}
	f.get(a)
	f.get(v)
	f.i64Store(0)
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
		u.assign(u.place(s.Lhs), s.Rhs, s.Assign)
	case *murphi.MultisetAddStmt:
		u.multisetAdd(s)
	case *murphi.MultisetRemoveStmt:
		u.multisetRemove(s)
	case *murphi.MultisetRemovePredStmt:
		u.multisetRemovePred(s)
	case *murphi.IfStmt:
		u.ifChain(s.Clauses, s.Else)
	case *murphi.SwitchStmt:
		x := f.local(i64)
		u.expr(s.X)
		f.set(x)
		if !u.switchTable(x, s.Cases, s.Else) {
			u.switchChain(x, s.Cases, s.Else)
		}
	case *murphi.ForStmt:
		mark := u.frameTop
		unroll := u.unrolls(s.Quants, nodes(s.Body...))
		var build func(i int)
		build = func(i int) {
			if i == len(s.Quants) {
				u.stmts(s.Body)
				return
			}
			u.loop(s.Quants[i], unroll, func(int) { build(i + 1) })
		}
		build(0)
		u.frameTop = mark
	case *murphi.WhileStmt:
		// As core/compile: the condition before each iteration, and more
		// than loopLimit iterations fail (a trap: the closures run the
		// search again and report it).
		u.step(loopLimit, s.Pos())
		saveW := u.weight
		u.weight *= loopLimit
		n := f.local(i32)
		exit := u.openLoop()
		u.cond(s.Cond)
		f.i32Eqz()
		f.brIf(uint32(u.depth - exit))
		u.countIteration(n)
		u.stmts(s.Body)
		u.closeLoop()
		u.weight = saveW
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
			switch {
			case u.inRule:
				u.cond(s.Cond)
				f.i32Eqz()
				f.if_()
				f.i32Const(statusAssumed)
				f.return_()
				f.end()
			case u.fp >= 0:
				// A procedure or function: it returns at once, and so do
				// its callers, up to the rule's body (the rule fired, with
				// no successor) or guard (the rule is not enabled).
				u.cond(s.Cond)
				f.i32Eqz()
				f.if_()
				f.i32Const(1)
				f.globalSet(g.assumed())
				u.leaveAssumed()
				f.end()
			default:
				g.fail(s.Pos(), "an assume statement in a guard, a property or a function they call")
			}
		case murphi.COVER:
			// Counted where the search keeps pending hits (see
			// coverStmts): the closures count every execution whose
			// condition holds.
			k, ok := g.coverIndex[s.Pos()]
			if !ok {
				g.fail(s.Pos(), "a cover statement the closures do not count")
			}
			u.cond(s.Cond)
			f.if_()
			at := int32(g.lay.coverStmts + uint32(8*(len(g.m.CoverStmts)+k)))
			f.i32Const(at)
			f.i32Const(at)
			f.i64Load(0)
			f.i64Const(1)
			f.i64Add()
			f.i64Store(0)
			f.end()
		default:
			g.fail(s.Pos(), "%s statements", s.Kind)
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
			// function's result type.
			if u.resultType == nil {
				g.fail(s.Pos(), "a return with a value outside a function")
			}
			if !u.resultType.IsSimple() {
				u.copyAggregate(u.resultPlace, u.aggregate(s.Result), u.resultType, g.info.Types[s.Result].Type, s.Pos())
				f.return_()
				return
			}
			v := f.local(i64)
			u.expr(s.Result)
			f.set(v)
			u.storeCheck(u.resultType, g.info.Types[s.Result].Type, v, s.Pos())
			f.get(v)
			f.return_()
			return
		}
		if u.resultType != nil {
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

// Switches whose case values are constants, at least minTableValues of
// them within a span of at most maxTableSpan, branch through a table
// (br_table): one indexed jump where a chain tests the values one by one.
const (
	minTableValues = 4
	maxTableSpan   = 256
)

// switchTable generates a switch on local x as a br_table, if its case
// values suit one (see minTableValues), and reports whether it did. A
// value listed twice belongs to its first case, as in the chain.
func (u *unit) switchTable(x uint32, cases []*murphi.CaseClause, els []murphi.Stmt) bool {
	target := map[int64]int{} // value → case
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for k, cl := range cases {
		for _, v := range cl.Values {
			c, ok := u.constant(v)
			if !ok {
				return false
			}
			if _, dup := target[c]; !dup {
				target[c] = k
			}
			lo, hi = min(lo, c), max(hi, c)
		}
	}
	if len(target) < minTableValues || uint64(hi-lo) >= maxTableSpan {
		return false
	}
	f := u.f
	n := len(cases)
	span := uint32(hi-lo) + 1
	// Blocks, outermost first: the switch's end, the else, then case
	// n-1 … case 0; the code of case k follows the end of its block.
	for range n + 2 {
		f.block()
	}
	u.depth += n + 2
	// The index: x - lo, or span (the else) where x is not in [lo, hi].
	t := f.local(i64)
	f.get(x)
	f.i64Const(lo)
	f.i64Sub()
	f.tee(t)
	f.i32WrapI64()
	f.i32Const(int32(span))
	f.get(t)
	f.i64Const(int64(span))
	f.i64LtU()
	f.select_()
	// Case k's block is at depth k; the else's at n.
	depths := make([]uint32, span)
	for i := range depths {
		depths[i] = uint32(n)
		if k, ok := target[lo+int64(i)]; ok {
			depths[i] = uint32(k)
		}
	}
	f.brTable(depths, uint32(n))
	for k, cl := range cases {
		f.end()
		u.depth--
		u.stmts(cl.Body)
		// The switch's end: past case k+1 … n-1's blocks and the else's.
		f.br(uint32(n - k))
	}
	f.end()
	u.depth--
	u.stmts(els)
	f.end()
	u.depth--
	return true
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

// addrPlace keeps the address of a computed place in a local and returns
// a place that reads it back: an alias or var parameter keeps the address
// it had when bound. Only the function that binds it reads it (a rule's
// prelude binds its aliases again in each function that uses them).
func (u *unit) addrPlace(p place) place {
	f := u.f
	a := f.local(i32)
	p.push(u)
	f.set(a)
	return place{typ: p.typ, reach: p.reach, lo: p.lo, hi: p.hi, dyn: func(u *unit) {
		if u.f != f {
			u.g.fail(murphi.NoPos, "an alias read outside the function that binds it")
		}
		u.f.get(a)
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
			at := u.frame(u.alloc(1), tv.Type)
			at.push(u)
			u.expr(a.X)
			f.i64Store(0)
			undo = append(undo, u.bind(obj, binding{kind: bPlace, pl: at}))
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

// call generates a call statement: a procedure, or a function whose value
// is dropped (Rumur allows it).
func (u *unit) call(x *murphi.CallExpr) {
	d := u.callee(x)
	switch {
	case aggregateResult(d):
		u.callAggregate(x)
	case d.IsFunc:
		u.callProc(x, d, nil)
		u.f.drop()
	default:
		u.callProc(x, d, nil)
	}
}

// aggregateResult reports whether d is a function whose result is a record
// or an array: its caller gives it the address to write it to.
func aggregateResult(d *murphi.ProcDecl) bool {
	return d.IsFunc && d.Obj != nil && d.Obj.Type != nil && !d.Obj.Type.IsSimple()
}

// funcCall calls a function with a simple result and pushes the result.
func (u *unit) funcCall(x *murphi.CallExpr) {
	d := u.callee(x)
	if !d.IsFunc || d.Obj == nil || d.Obj.Type == nil || !d.Obj.Type.IsSimple() {
		u.g.fail(x.Pos(), "a call of a procedure, or of a function returning a record or an array, as a simple value")
	}
	u.callProc(x, d, nil)
}

// callAggregate calls a function whose result is a record or an array,
// into a frame temporary of the caller's, which it returns.
func (u *unit) callAggregate(x *murphi.CallExpr) place {
	d := u.callee(x)
	t := d.Obj.Type
	res := u.frame(u.alloc(compile.SlotSize(t)), t)
	u.callProc(x, d, &res)
	return res
}

func (u *unit) callee(x *murphi.CallExpr) *murphi.ProcDecl {
	d := u.g.info.Calls[x]
	if d == nil {
		u.g.fail(x.Pos(), "an unresolved call")
	}
	return d
}

// callProc calls d's wasm function (procFunc) with the arguments and the
// caller's frame top as the callee's frame: scalar value arguments are
// passed as values (range-checked, as the closures do), record and array
// ones copied into the caller's frame first, var arguments pass the
// address of their designator. A function
// leaves its result on the stack, or writes a record or array result to
// res.
func (u *unit) callProc(x *murphi.CallExpr, d *murphi.ProcDecl, res *place) {
	g := u.g
	f := u.f
	pf := g.procFunc(d, u.state)
	u.wroteAll(pf.writes, pf.writesAll)
	u.addSteps(1+pf.steps, x.Pos())
	mark := u.frameTop
	var objs []*murphi.Object
	for _, prm := range d.Params {
		for _, n := range prm.Names {
			objs = append(objs, n.Obj)
		}
	}
	if len(objs) != len(x.Args) {
		g.fail(x.Pos(), "a call with %d arguments to %d parameters", len(x.Args), len(objs))
	}
	args := make([]place, len(x.Args))
	for i, a := range x.Args {
		obj := objs[i]
		if obj == nil {
			g.fail(x.Pos(), "a parameter without an object")
		}
		size := compile.SlotSize(obj.Type)
		if _, isUndef := a.(*murphi.UndefinedLit); isUndef {
			if byValue(obj) {
				args[i] = place{dyn: func(u *unit) { u.f.i64Const(undef) }}
				continue
			}
			args[i] = u.frame(u.alloc(size), obj.Type)
			u.fill(args[i], undefs(size))
			continue
		}
		if obj.VarParam {
			p := u.place(a)
			if !p.static {
				p = u.addrPlace(p)
			}
			u.wrote(p) // the procedure may write it
			if p.static {
				u.dirty(p, -1, size)
			} else {
				a := f.local(i32)
				p.push(u)
				f.set(a)
				u.dirty(p, int32(a), size)
			}
			args[i] = p
			continue
		}
		tv := g.info.Types[a]
		if !obj.Type.IsSimple() {
			fp := u.frame(u.alloc(size), obj.Type)
			args[i] = fp
			u.copyAggregate(fp, u.aggregate(a), obj.Type, tv.Type, a.Pos())
			continue
		}
		// A scalar value parameter is passed as its value (byValue).
		v := f.local(i64)
		args[i] = place{dyn: func(u *unit) { u.f.get(v) }}
		if tv.Addressable {
			// Passed raw: an undefined argument gives an undefined
			// parameter; a defined one is range-checked.
			if pv, ok := u.paramLocal(a); ok {
				f.get(pv)
			} else {
				u.place(a).push(u)
				f.i64Load(0)
			}
			f.set(v)
			u.checkDefined(obj.Type, tv.Type, v, a.Pos())
			continue
		}
		u.expr(a)
		f.set(v)
		u.storeCheck(obj.Type, tv.Type, v, a.Pos())
	}
	for _, a := range args {
		a.push(u)
	}
	if res != nil {
		res.push(u)
	}
	u.frame(u.frameTop, nil).push(u)
	u.reserve(u.frameTop + pf.frame)
	if g.rec != nil {
		g.rec.call(f, pf.fn.idx)
	} else {
		f.call(pf.fn.idx)
	}
	u.frameTop = mark
	if pf.assumes {
		if !u.inRule && !u.inGuard && u.fp < 0 {
			// A property: a failed assume is an error there (the
			// closures' "assume statement in a property"), so a trap.
			f.globalGet(g.assumed())
			u.trapIf()
			return
		}
		f.globalGet(g.assumed())
		f.if_()
		u.leaveAssumed()
		f.end()
	}
}

// procFn is the wasm function of a procedure or function, for callers on
// one state (the current state in guards and properties, the working state
// in bodies). Its parameters are the arguments (scalar value ones as i64
// values, others as addresses: see byValue) and then its frame's address;
// a function returns its value.
type procFn struct {
	fn    *fn
	frame int    // frame slots it and its callees use
	steps uint64 // loop iterations and calls, at most, per call
	// writes are the state slots it may write, but for its parameters'
	// (unit.writes)
	writes    []bool
	writesAll bool
	assumes   bool // it may set gAssumed
	// recursive: it is called while its body is generated (see
	// recursion.go).
	recursive bool
}

type procKey struct {
	d     *murphi.ProcDecl
	state uint32
}

// procFunc returns d's function for callers on state, generating it on
// first use. (Inlined at every call, adash's procedures made a 3.4 MB
// module and sci's a 10.2 MB one; as functions, 2.1 MB and 0.2 MB.) A
// frame above the caller's is the callee's alone: a recursive call's
// frame is above the caller's, and checked when entered (recursion.go).
func (g *gen) procFunc(d *murphi.ProcDecl, state uint32) *procFn {
	key := procKey{d, state}
	if pf := g.procs[key]; pf != nil {
		if g.generating[key] {
			if g.rec == nil {
				g.fail(d.Pos(), "recursion") // findRecursion missed it
			}
			pf.recursive = true
		}
		return pf
	}
	var params []byte
	for _, prm := range d.Params {
		for _, nm := range prm.Names {
			if byValue(nm.Obj) {
				params = append(params, i64)
			} else {
				params = append(params, i32)
			}
		}
	}
	n := uint32(len(params))
	if aggregateResult(d) {
		params = append(params, i32) // where the result goes
		n++
	}
	params = append(params, i32) // the frame
	var results []byte
	if d.IsFunc && !aggregateResult(d) {
		results = []byte{i64}
	}
	f := g.mod.newFunc(params, results)
	f.name = d.Name.Name
	// Until its body is done, a call back sees no frame and no steps
	// (the function checks both when entered), and writes to any slot.
	pf := &procFn{fn: f, writesAll: true}
	g.procs[key] = pf
	g.generating[key] = true
	defer delete(g.generating, key)
	u := g.newUnit(f, state)
	u.fp = int32(n)
	if d.IsFunc {
		u.resultType = d.Obj.Type
	}
	if aggregateResult(d) {
		u.resultPlace = place{typ: d.Obj.Type, reach: placeParam, dyn: func(u *unit) { u.f.get(n - 1) }}
	}
	k := uint32(0)
	var undo []func()
	// The value parameters' frame slots, each written on entry if read.
	type paramSlot struct {
		local uint32
		at    place
		read  bool
	}
	var slots []*paramSlot
	for _, prm := range d.Params {
		for _, nm := range prm.Names {
			i := k
			k++
			if nm.Obj == nil {
				continue
			}
			if byValue(nm.Obj) {
				// Its frame slot, for the places that need an address,
				// is written on entry if any does (see below).
				ps := &paramSlot{local: i, at: u.frame(u.alloc(1), nm.Obj.Type)}
				slots = append(slots, ps)
				pl := ps.at
				pl.dyn = func(u *unit) {
					ps.read = true
					ps.at.dyn(u)
				}
				undo = append(undo, u.bind(nm.Obj, binding{kind: bPlace, pl: pl, pv: &paramVal{lf: f, local: i}}))
				continue
			}
			undo = append(undo, u.bind(nm.Obj, binding{kind: bPlace, pl: place{typ: nm.Obj.Type, reach: placeParam, dyn: func(u *unit) { u.f.get(i) }}}))
		}
	}
	undo = append(undo, u.bindLocals(d.Decls))
	f.block()
	u.depth = 1
	u.retDepth = 1
	u.stmts(d.Body)
	f.end()
	if d.IsFunc {
		f.unreachable() // the end of a function's body: no value returned
	}
	for i := len(undo) - 1; i >= 0; i-- {
		undo[i]()
	}
	prepend(f, func() {
		for _, ps := range slots {
			if ps.read {
				ps.at.dyn(u)
				f.get(ps.local)
				f.i64Store(0)
			}
		}
	})
	pf.frame, pf.steps, pf.writes, pf.writesAll, pf.assumes = u.frameMax, u.steps, u.writes, u.writesAll, u.assumes
	if pf.recursive {
		if pf.assumes {
			// Its calls back would not have checked for a failed assume.
			g.fail(d.Pos(), "recursion through an assume statement")
		}
		g.rec.enter(pf, uint32(u.fp))
	}
	return pf
}

// byValue reports whether a parameter is passed as its value (an i64)
// rather than its address: a scalar value parameter, which the callee
// cannot write (the checker's ReadOnly), so reads take the value from a
// local instead of loading it.
func byValue(obj *murphi.Object) bool {
	return obj != nil && !obj.VarParam && obj.Type != nil && obj.Type.IsSimple()
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
			p := u.frame(u.alloc(size), n.Obj.Type)
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
