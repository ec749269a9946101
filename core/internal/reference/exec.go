package reference

// This file executes statements and procedure and function calls.

import (
	"github.com/locus-mc/locus/core/murphi"
)

// store writes src into the location dst (same or compatible type): every
// component is copied, undefined ones included, and each defined scalar
// must be a value of its destination's type, else the run-time error kind.
func (mc *machine) store(dst, src *Value, kind string, pos murphi.Pos, what string) {
	src = src.clone() // dst may be inside src
	mc.copyInto(dst, src, kind, pos, what)
}

func (mc *machine) copyInto(dst, src *Value, kind string, pos murphi.Pos, what string) {
	switch dst.Type.Kind {
	case murphi.TRecord, murphi.TArray:
		for i := range dst.Elems {
			mc.copyInto(dst.Elems[i], src.Elems[i], kind, pos, what)
		}
		return
	case murphi.TMultiset:
		for i := range dst.Elems {
			if src.Elems[i] == nil {
				dst.Elems[i] = nil
				continue
			}
			e := newValue(dst.Type.Elem)
			mc.copyInto(e, src.Elems[i], kind, pos, what)
			dst.Elems[i] = e
		}
		return
	}
	if src.Def && !mc.num.contains(dst.Type, src.Int) {
		mc.fail(kind, pos, "value %s is out of range for %s (%s)", mc.num.scalarText(src.Type, src), what, dst.Type)
	}
	dst.Def, dst.Int = src.Def, src.Int
}

// undefine makes every component of v undefined (multisets empty).
func undefine(v *Value) {
	v.Def = false
	for i, e := range v.Elems {
		if v.Type.Kind == murphi.TMultiset {
			v.Elems[i] = nil
			continue
		}
		undefine(e)
	}
}

// clear sets every component of v to its type's least value: a range's
// lower bound, the first enum member or scalarset element, false, a union's
// first member's first value (UM 707-712); multisets become empty.
func clear(v *Value) {
	t := v.Type
	switch t.Kind {
	case murphi.TRecord, murphi.TArray:
		for _, e := range v.Elems {
			clear(e)
		}
	case murphi.TMultiset:
		for i := range v.Elems {
			v.Elems[i] = nil
		}
	case murphi.TUnion:
		v.Def, v.Int = true, t.Union[0].Lo
	default:
		v.Def, v.Int = true, t.Lo
	}
}

// isSymbolic reports whether t is an enum, scalarset or union type.
func isSymbolic(t *murphi.Type) bool {
	return t.Kind == murphi.TEnum || t.Kind == murphi.TScalarset || t.Kind == murphi.TUnion
}

// assign runs lhs := rhs. The target is located first, then the value is
// computed (the order Locus documents; the tools' C code leaves it open).
func (mc *machine) assign(s *murphi.AssignStmt) {
	dst := mc.locate(s.Lhs)
	what := murphi.ExprString(s.Lhs)
	if _, ok := s.Rhs.(*murphi.UndefinedLit); ok {
		undefine(dst) // CMurphi: x := undefined
		return
	}
	rt := mc.m.info.Types[s.Rhs]
	if isAggregate(dst.Type) {
		mc.store(dst, mc.value(s.Rhs), ErrRangeAssign, s.Assign, what)
		return
	}
	if rt.Addressable && isSymbolic(dst.Type) && isSymbolic(rt.Type) {
		// CMurphi copies enum and scalarset values raw, so an undefined
		// value propagates instead of failing (Locus follows it:
		// CMurphi's newlist6 relies on it).
		mc.store(dst, mc.locate(s.Rhs), ErrRangeAssign, s.Assign, what)
		return
	}
	mc.store(dst, scalar(rt.Type, mc.scalar(s.Rhs)), ErrRangeAssign, s.Assign, what)
}

// exec runs statements; it reports whether a return statement ran.
func (mc *machine) exec(list []murphi.Stmt) bool {
	for _, s := range list {
		if mc.stmt(s) {
			return true
		}
	}
	return false
}

// frameResult is where a function's return statement leaves its value.
type frameResult struct {
	fn   *murphi.ProcDecl
	Type *murphi.Type
	val  *Value
}

func (mc *machine) stmt(s murphi.Stmt) bool {
	mc.work()
	switch s := s.(type) {
	case *murphi.AssignStmt:
		mc.assign(s)
	case *murphi.IfStmt:
		for _, cl := range s.Clauses {
			if mc.cond(cl.Cond) {
				return mc.exec(cl.Body)
			}
		}
		return mc.exec(s.Else)
	case *murphi.SwitchStmt:
		v := mc.scalar(s.X)
		for _, cl := range s.Cases {
			for _, label := range cl.Values {
				if mc.scalar(label) == v {
					return mc.exec(cl.Body)
				}
			}
		}
		return mc.exec(s.Else)
	case *murphi.ForStmt:
		return mc.loop(s.Quants, func() bool { return mc.exec(s.Body) })
	case *murphi.WhileStmt:
		for n := 0; mc.cond(s.Cond); n++ {
			mc.step(s.Pos())
			if n >= maxLoopIterations {
				mc.fail(ErrLoopLimit, s.Pos(), "while loop ran more than %d iterations", maxLoopIterations)
			}
			if mc.exec(s.Body) {
				return true
			}
		}
	case *murphi.AliasStmt:
		for _, a := range s.Aliases {
			mc.bindAlias(a)
		}
		defer func() {
			for _, a := range s.Aliases {
				delete(mc.env, a.Name.Obj)
			}
		}()
		return mc.exec(s.Body)
	case *murphi.CallStmt:
		mc.call(s.Call)
	case *murphi.ClearStmt:
		clear(mc.locate(s.X))
	case *murphi.UndefineStmt:
		undefine(mc.locate(s.X))
	case *murphi.ErrorStmt:
		mc.fail(ErrErrorStmt, s.Pos(), "error: %s", s.Msg)
	case *murphi.PropertyStmt:
		ok := mc.cond(s.Cond)
		switch s.Kind {
		case murphi.ASSERT:
			if !ok {
				mc.fail(ErrAssertion, s.Pos(), "assertion failed: %s", s.Msg)
			}
		case murphi.ASSUME:
			if !ok {
				panic(assumeFailed{s.Pos()})
			}
		case murphi.COVER:
			if ok && mc.covers != nil {
				mc.covers[s.Pos()]++
			}
		}
	case *murphi.PutStmt:
		// Output only. A designator prints raw (undefined parts print as
		// such); any other expression is evaluated.
		if s.X != nil {
			if mc.m.info.Types[s.X].Addressable {
				mc.locate(s.X)
			} else {
				mc.value(s.X)
			}
		}
	case *murphi.ReturnStmt:
		if s.Result != nil && mc.fnResult != nil {
			rt := mc.fnResult.Type
			v := newValue(rt)
			what := "the result of " + mc.fnResult.fn.Name.Name
			if isAggregate(rt) {
				mc.store(v, mc.value(s.Result), ErrRangeAssign, s.Pos(), what)
			} else {
				mc.store(v, scalar(mc.typeOf(s.Result), mc.scalar(s.Result)), ErrRangeAssign, s.Pos(), what)
			}
			mc.fnResult.val = v
		}
		return true
	case *murphi.MultisetAddStmt:
		ms := mc.m.info.Types[s.Multiset].Type
		e := newValue(ms.Elem)
		mc.store(e, mc.value(s.Elem), ErrRangeAssign, s.Pos(), murphi.ExprString(s.Multiset))
		loc := mc.locate(s.Multiset)
		for k := range loc.Elems {
			if loc.Elems[k] == nil {
				loc.Elems[k] = e
				return false
			}
		}
		mc.fail(ErrMultisetFull, s.Pos(), "multisetadd: multiset %s is full", murphi.ExprString(s.Multiset))
	case *murphi.MultisetRemoveStmt:
		loc := mc.locate(s.Multiset)
		loc.Elems[mc.scalar(s.Index)] = nil
	case *murphi.MultisetRemovePredStmt:
		mc.eachEntry(s.Multiset, s.Var, s.Pred, func(ms *Value, k int) { ms.Elems[k] = nil })
	default:
		panic("reference: cannot execute statement at " + mc.m.position(s.Pos()))
	}
	return false
}

// bindAlias binds an alias: a designator binds to its location as it is
// when the alias is entered (UM 670-694); any other expression to a copy of
// its value.
func (mc *machine) bindAlias(a *murphi.AliasDecl) {
	if mc.m.info.Types[a.X].Addressable {
		mc.env[a.Name.Obj] = mc.locate(a.X)
		return
	}
	mc.env[a.Name.Obj] = mc.value(a.X).clone()
}

// declareLocals binds a body's local variables, undefined on every
// execution.
func (mc *machine) declareLocals(decls []murphi.Decl) {
	for _, d := range decls {
		if vd, ok := d.(*murphi.VarDecl); ok {
			for _, n := range vd.Names {
				mc.env[n.Obj] = newValue(n.Obj.Type)
			}
		}
	}
}

// call runs a procedure or function; it returns the function's result.
func (mc *machine) call(x *murphi.CallExpr) *Value {
	d := mc.m.info.Calls[x]
	mc.step(x.Pos())
	if mc.depth >= maxCallDepth {
		mc.fail(ErrRecursion, x.Pos(), "calls nested more than %d deep", maxCallDepth)
	}
	// Arguments are evaluated in the caller's environment, left to right.
	callee := env{}
	i := 0
	for _, prm := range d.Params {
		for _, n := range prm.Names {
			callee[n.Obj] = mc.argument(d, n.Obj, x.Args[i])
			i++
		}
	}
	saveEnv, saveRes := mc.env, mc.fnResult
	mc.env = callee
	mc.fnResult = nil
	if d.IsFunc {
		mc.fnResult = &frameResult{fn: d, Type: d.Obj.Type}
	}
	mc.depth++
	mc.declareLocals(d.Decls)
	mc.exec(d.Body)
	res := mc.fnResult
	mc.depth--
	mc.env, mc.fnResult = saveEnv, saveRes
	if d.IsFunc {
		if res.val == nil {
			mc.fail(ErrNoReturn, x.Pos(), "function %s ended without returning a value", d.Name.Name)
		}
		return res.val
	}
	return nil
}

// argument computes the value bound to parameter p for the actual a.
func (mc *machine) argument(d *murphi.ProcDecl, p *murphi.Object, a murphi.Expr) *Value {
	if _, ok := a.(*murphi.UndefinedLit); ok {
		return newValue(p.Type) // CMurphi: an undefined actual
	}
	if p.VarParam {
		return mc.locate(a) // by reference
	}
	what := "parameter " + p.Name + " of " + d.Name.Name
	v := newValue(p.Type)
	tv := mc.m.info.Types[a]
	switch {
	case isAggregate(p.Type):
		mc.store(v, mc.value(a), ErrRangeParam, a.Pos(), what)
	case tv.Addressable:
		// A designator passes raw: an undefined argument gives an
		// undefined parameter, not an error (Rumur passes the handle).
		mc.store(v, mc.locate(a), ErrRangeParam, a.Pos(), what)
	default:
		mc.store(v, scalar(tv.Type, mc.scalar(a)), ErrRangeParam, a.Pos(), what)
	}
	return v
}
