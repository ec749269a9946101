package murphi

// This file type-checks expressions and folds constants.

import "math"

var invalid = TypeAndValue{Type: InvalidType}

func (c *Checker) record(x Expr, tv TypeAndValue) TypeAndValue {
	c.info.Types[x] = tv
	return tv
}

// expr checks x and returns its type (and value, if constant).
func (c *Checker) expr(x Expr) TypeAndValue {
	return c.record(x, c.expr0(x))
}

// boolExpr checks that x is a boolean.
func (c *Checker) boolExpr(x Expr, what string) TypeAndValue {
	tv := c.expr(x)
	if tv.Type != InvalidType && tv.Type.Kind != TBool {
		c.r.errorf(x.Pos(), "%s must be a boolean, not %s", what, tv.Type)
	}
	return tv
}

// rootObj returns the variable, parameter or alias a designator starts at.
func rootObj(x Expr) *Object {
	for {
		switch d := x.(type) {
		case *Ident:
			return d.Obj
		case *IndexExpr:
			x = d.X
		case *FieldExpr:
			x = d.X
		case *ParenExpr:
			x = d.X
		default:
			return nil
		}
	}
}

func (c *Checker) foldErr(pos Pos, e ArithErr, what string) {
	switch e {
	case ArithOverflow:
		c.r.errorf(pos, "constant %s overflows 64-bit integers", what)
	case ArithDivZero:
		c.r.errorf(pos, "division by zero in constant expression")
	}
}

func (c *Checker) expr0(x Expr) TypeAndValue {
	switch x := x.(type) {
	case *BadExpr:
		return invalid
	case *Ident:
		obj := c.scope.Lookup(x.Name)
		if obj == nil {
			c.undefined(x, "")
			x.Obj = &Object{Kind: ObjBad, Name: x.Name, Type: InvalidType}
			c.scope.names[x.Name] = x.Obj // report once per scope
			return invalid
		}
		x.Obj = obj
		switch obj.Kind {
		case ObjBad:
			return invalid
		case ObjConst:
			return TypeAndValue{Type: obj.Type, Const: true, Value: obj.Value}
		case ObjType:
			c.r.errorf(x.Pos(), "type %s used as a value", x.Name)
			return invalid
		case ObjProc:
			c.r.errorf(x.Pos(), "%s %s used as a value; call it with ()", procKind(obj.Proc), x.Name)
			return invalid
		case ObjVar:
			return TypeAndValue{Type: obj.Type, Addressable: true, Global: true}
		case ObjLocal:
			return TypeAndValue{Type: obj.Type, Addressable: true}
		case ObjParam:
			return TypeAndValue{Type: obj.Type, Addressable: true, ReadOnly: !obj.VarParam}
		case ObjQuant:
			return TypeAndValue{Type: obj.Type, ReadOnly: true, Addressable: false}
		case ObjAlias:
			tv := c.info.Types[obj.AliasOf]
			return TypeAndValue{Type: tv.Type, Const: tv.Const, Value: tv.Value,
				Addressable: tv.Addressable, ReadOnly: tv.ReadOnly || !tv.Addressable, Global: tv.Global}
		case ObjChoose:
			return TypeAndValue{Type: obj.Type, ReadOnly: true}
		}
		return invalid
	case *IntLit:
		if !c.unsigned && x.Value > math.MaxInt64 {
			c.r.errorf(x.Pos(), "integer literal %s does not fit in 64 bits", x.Text)
			return invalid
		}
		return TypeAndValue{Type: IntType, Const: true, Value: int64(x.Value)}
	case *UndefinedLit:
		c.r.errorf(x.Pos(), "'undefined' can only be assigned (x := undefined) or passed as an argument")
		return invalid
	case *ParenExpr:
		tv := c.expr(x.X)
		tv.Addressable = false
		return tv
	case *UnaryExpr:
		return c.unary(x)
	case *BinaryExpr:
		return c.binary(x)
	case *CondExpr:
		cond := c.boolExpr(x.Cond, "the condition of ?:")
		a := c.expr(x.Then)
		b := c.expr(x.Else)
		if a.Type == InvalidType || b.Type == InvalidType {
			return invalid
		}
		if !compatible(a.Type, b.Type) && !compatible(b.Type, a.Type) {
			c.r.errorf(x.Question, "the branches of ?: have incompatible types %s and %s", a.Type, b.Type)
			return invalid
		}
		typ := a.Type
		if a.Type.IsInteger() {
			typ = IntType
		} else if b.Type.Kind == TUnion {
			typ = b.Type
		}
		if cond.Const {
			pick := b
			if cond.Value != 0 {
				pick = a
			}
			return TypeAndValue{Type: typ, Const: pick.Const, Value: pick.Value}
		}
		return TypeAndValue{Type: typ}
	case *IndexExpr:
		base := c.expr(x.X)
		idx := c.expr(x.Index)
		if base.Type == InvalidType || idx.Type == InvalidType {
			return invalid
		}
		switch base.Type.Kind {
		case TArray:
			if !compatible(base.Type.Index, idx.Type) {
				c.r.errorf(x.Index.Pos(), "index of type %s cannot index an array over %s", idx.Type, base.Type.Index)
				return invalid
			}
			if idx.Const && !c.inRange(base.Type.Index, idx.Value) && base.Type.Index.Kind == TRange {
				// Rumur reports constant out-of-range indices at run time,
				// since the access may be in dead code; so do we.
				_ = idx
			}
			return TypeAndValue{Type: base.Type.Elem, Addressable: base.Addressable, ReadOnly: base.ReadOnly, Global: base.Global}
		case TMultiset:
			if idx.Type.Kind != TMultisetIndex || !identical(idx.Type.Elem, base.Type) {
				c.r.errorf(x.Index.Pos(), "a multiset can only be indexed by a choose variable over it")
				return invalid
			}
			return TypeAndValue{Type: base.Type.Elem, Addressable: base.Addressable, ReadOnly: base.ReadOnly, Global: base.Global}
		}
		c.r.errorf(x.Lbrack, "cannot index %s: it is a %s, not an array", exprString(x.X), base.Type)
		return invalid
	case *FieldExpr:
		base := c.expr(x.X)
		if base.Type == InvalidType {
			return invalid
		}
		if base.Type.Kind != TRecord {
			c.r.errorf(x.Dot, "%s has no field %s: it is a %s, not a record", exprString(x.X), x.Field.Name, base.Type)
			return invalid
		}
		i := base.Type.FieldIndex(x.Field.Name)
		if i < 0 {
			c.r.errorf(x.Field.Pos(), "%s has no field %s", exprString(x.X), x.Field.Name)
			return invalid
		}
		return TypeAndValue{Type: base.Type.Fields[i].Type, Addressable: base.Addressable, ReadOnly: base.ReadOnly, Global: base.Global}
	case *CallExpr:
		return c.call(x, false)
	case *QuantExpr:
		c.openScope()
		for _, q := range x.Quants {
			c.quantifier(q)
		}
		c.boolExpr(x.Body, "the body of "+x.Op.String())
		c.closeScope()
		return TypeAndValue{Type: BoolType}
	case *IsUndefinedExpr:
		tv := c.expr(x.X)
		if tv.Type == InvalidType {
			return TypeAndValue{Type: BoolType}
		}
		if !tv.Addressable {
			c.r.errorf(x.X.Pos(), "isundefined needs a variable, not a value")
		} else if !tv.Type.IsSimple() {
			c.r.errorf(x.X.Pos(), "isundefined needs a variable of simple type, not %s (test its components)", tv.Type)
		}
		return TypeAndValue{Type: BoolType}
	case *IsMemberExpr:
		tv := c.expr(x.X)
		t := c.typeExpr(x.Type)
		if tv.Type != InvalidType && t != InvalidType {
			if !tv.Type.IsSimple() || (t.Kind != TEnum && t.Kind != TScalarset) {
				c.r.errorf(x.FuncPos, "ismember(x, T) needs a simple value and an enum or scalarset type")
			}
		}
		return TypeAndValue{Type: BoolType}
	case *MultisetCountExpr:
		mt := c.expr(x.Multiset)
		c.openScope()
		c.declareChoose(x.Var, x.Multiset, mt)
		c.boolExpr(x.Pred, "the condition of multisetcount")
		c.closeScope()
		return TypeAndValue{Type: IntType}
	}
	return invalid
}

func procKind(d *ProcDecl) string {
	if d != nil && d.IsFunc {
		return "function"
	}
	return "procedure"
}

func (c *Checker) unary(x *UnaryExpr) TypeAndValue {
	tv := c.expr(x.X)
	if tv.Type == InvalidType {
		return invalid
	}
	switch x.Op {
	case NOT:
		if tv.Type.Kind != TBool {
			c.r.errorf(x.OpPos, "operator ! needs a boolean, not %s", tv.Type)
			return invalid
		}
		return TypeAndValue{Type: BoolType, Const: tv.Const, Value: 1 - tv.Value}
	case SUB, ADD, TILDE:
		if !tv.Type.IsInteger() {
			c.r.errorf(x.OpPos, "unary %s needs an integer, not %s", x.Op, tv.Type)
			return invalid
		}
		out := TypeAndValue{Type: IntType, Const: tv.Const}
		if tv.Const {
			switch x.Op {
			case SUB:
				v, e := c.arith().Neg(tv.Value)
				if e != ArithOK {
					if c.unsigned {
						c.r.errorf(x.OpPos, "negative values are not allowed: this model uses unsigned 64-bit integers because of a literal above 2^63-1")
					} else {
						c.foldErr(x.OpPos, e, "negation")
					}
					return invalid
				}
				out.Value = v
			case ADD:
				out.Value = tv.Value
			case TILDE:
				out.Value = ^tv.Value
			}
		}
		return out
	}
	return invalid
}

func (c *Checker) binary(x *BinaryExpr) TypeAndValue {
	a := c.expr(x.X)
	b := c.expr(x.Y)
	if a.Type == InvalidType || b.Type == InvalidType {
		return invalid
	}
	ar := c.arith()
	bothConst := a.Const && b.Const
	switch x.Op {
	case ADD, SUB, MUL, QUO, REM, SHL, SHR, XOR:
		if !a.Type.IsInteger() || !b.Type.IsInteger() {
			bad := a.Type
			if a.Type.IsInteger() {
				bad = b.Type
			}
			if x.Op == XOR || x.Op == SHL || x.Op == SHR {
				c.r.errorf(x.OpPos, "operator %s needs integers, not %s", x.Op, bad)
			} else {
				c.r.errorf(x.OpPos, "arithmetic (%s) needs integers, not %s", x.Op, bad)
			}
			return invalid
		}
		out := TypeAndValue{Type: IntType}
		// Rumur folds these even when one side is not constant.
		zeroA, zeroB := a.Const && a.Value == 0, b.Const && b.Value == 0
		switch {
		case x.Op == MUL && (zeroA || zeroB):
			return TypeAndValue{Type: IntType, Const: true, Value: 0}
		case (x.Op == QUO || x.Op == REM) && zeroA && !b.Const:
			return TypeAndValue{Type: IntType, Const: true, Value: 0}
		}
		if !bothConst {
			if b.Const && b.Value == 0 && (x.Op == QUO || x.Op == REM) {
				c.r.errorf(x.OpPos, "division by zero")
				return invalid
			}
			return out
		}
		var v int64
		var e ArithErr
		switch x.Op {
		case ADD:
			v, e = ar.Add(a.Value, b.Value)
		case SUB:
			v, e = ar.Sub(a.Value, b.Value)
		case MUL:
			v, e = ar.Mul(a.Value, b.Value)
		case QUO:
			v, e = ar.Div(a.Value, b.Value)
		case REM:
			v, e = ar.Mod(a.Value, b.Value)
		case SHL:
			v = ar.Shl(a.Value, b.Value)
		case SHR:
			v = ar.Shr(a.Value, b.Value)
		case XOR:
			v = a.Value ^ b.Value
		}
		if e != ArithOK {
			c.foldErr(x.OpPos, e, x.Op.String())
			return invalid
		}
		out.Const, out.Value = true, v
		return out
	case AND, OR:
		switch {
		case a.Type.Kind == TBool && b.Type.Kind == TBool:
			x.Logical = true
			return c.logical(x.Op, a, b)
		case a.Type.IsInteger() && b.Type.IsInteger():
			out := TypeAndValue{Type: IntType, Const: bothConst}
			if bothConst {
				if x.Op == AND {
					out.Value = a.Value & b.Value
				} else {
					out.Value = a.Value | b.Value
				}
			}
			return out
		}
		c.r.errorf(x.OpPos, "operator %s needs two booleans (logical) or two integers (bitwise), not %s and %s", x.Op, a.Type, b.Type)
		return invalid
	case LAND, LOR, IMPLIES:
		if a.Type.Kind != TBool || b.Type.Kind != TBool {
			bad := a.Type
			if a.Type.Kind == TBool {
				bad = b.Type
			}
			c.r.errorf(x.OpPos, "operator %s needs booleans, not %s", x.Op, bad)
			return invalid
		}
		x.Logical = true
		return c.logical(x.Op, a, b)
	case LSS, LEQ, GTR, GEQ:
		ok := a.Type.IsInteger() && b.Type.IsInteger() ||
			a.Type.Kind == TEnum && b.Type.Kind == TEnum && a.Type.ID == b.Type.ID
		if !ok {
			c.r.errorf(x.OpPos, "operator %s compares integers, not %s and %s", x.Op, a.Type, b.Type)
			return invalid
		}
		out := TypeAndValue{Type: BoolType, Const: bothConst}
		if bothConst {
			var r bool
			switch x.Op {
			case LSS:
				r = ar.Less(a.Value, b.Value)
			case LEQ:
				r = !ar.Less(b.Value, a.Value)
			case GTR:
				r = ar.Less(b.Value, a.Value)
			case GEQ:
				r = !ar.Less(a.Value, b.Value)
			}
			out.Value = b2i(r)
		}
		return out
	case EQL, NEQ:
		if !compatible(a.Type, b.Type) && !compatible(b.Type, a.Type) {
			c.r.errorf(x.OpPos, "cannot compare %s with %s", a.Type, b.Type)
			return invalid
		}
		if a.Type.Kind == TMultiset || a.Type.Kind == TMultisetIndex {
			c.r.errorf(x.OpPos, "multisets and multiset indices cannot be compared")
			return invalid
		}
		out := TypeAndValue{Type: BoolType, Const: bothConst && a.Type.IsSimple()}
		if out.Const {
			eq := a.Value == b.Value
			if x.Op == NEQ {
				eq = !eq
			}
			out.Value = b2i(eq)
		}
		return out
	}
	return invalid
}

// logical folds a short-circuit boolean operator; a constant left operand
// decides the result even when the right one is not constant.
func (c *Checker) logical(op Token, a, b TypeAndValue) TypeAndValue {
	out := TypeAndValue{Type: BoolType}
	switch op {
	case AND, LAND:
		if a.Const && a.Value == 0 {
			out.Const = true
		} else if a.Const && b.Const {
			out.Const, out.Value = true, b.Value
		}
	case OR, LOR:
		if a.Const && a.Value != 0 {
			out.Const, out.Value = true, 1
		} else if a.Const && b.Const {
			out.Const, out.Value = true, b.Value
		}
	case IMPLIES:
		if a.Const && a.Value == 0 {
			out.Const, out.Value = true, 1
		} else if a.Const && b.Const {
			out.Const, out.Value = true, b.Value
		}
	}
	return out
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// call checks a call; asStmt reports whether it stands as a statement.
func (c *Checker) call(x *CallExpr, asStmt bool) TypeAndValue {
	obj := c.scope.Lookup(x.Func.Name)
	if obj == nil {
		c.undefined(x.Func, "")
		for _, a := range x.Args {
			c.argExpr(a)
		}
		return invalid
	}
	x.Func.Obj = obj
	if obj.Kind != ObjProc {
		c.r.errorf(x.Func.Pos(), "%s is a %s, not a procedure or function", x.Func.Name, obj.Kind)
		for _, a := range x.Args {
			c.argExpr(a)
		}
		return invalid
	}
	d := obj.Proc
	c.info.Calls[x] = d
	if !asStmt && !d.IsFunc {
		c.r.errorf(x.Func.Pos(), "procedure %s has no result and cannot be used in an expression", d.Name.Name)
	}
	var params []*Object
	for _, prm := range d.Params {
		for _, n := range prm.Names {
			if n.Obj != nil {
				params = append(params, n.Obj)
			}
		}
	}
	if len(x.Args) != len(params) {
		c.r.errorf(x.Lparen, "%s %s takes %d argument(s), not %d", procKind(d), d.Name.Name, len(params), len(x.Args))
	}
	writesGlobal := c.info.WritesGlobal[d]
	if writesGlobal && c.writes != nil {
		*c.writes = true
	}
	for i, a := range x.Args {
		tv := c.argExpr(a)
		if i >= len(params) || tv.Type == InvalidType {
			continue
		}
		p := params[i]
		if _, undef := a.(*UndefinedLit); undef {
			if p.VarParam {
				c.r.errorf(a.Pos(), "cannot pass 'undefined' to var parameter %s", p.Name)
			}
			continue
		}
		if p.VarParam {
			if !tv.Addressable || tv.ReadOnly {
				c.r.errorf(a.Pos(), "argument %d of %s must be a variable, since parameter %s is a var parameter", i+1, d.Name.Name, p.Name)
				continue
			}
			if !identical(p.Type, tv.Type) {
				c.r.errorf(a.Pos(), "argument %d of %s has type %s, but var parameter %s needs exactly %s", i+1, d.Name.Name, tv.Type, p.Name, p.Type)
				continue
			}
			if c.info.WritesParam[p] {
				// The callee writes through this parameter: a write to the
				// argument's variable.
				c.noteWrite(a, tv)
				writesGlobal = writesGlobal || tv.Global
			}
		} else if !compatible(p.Type, tv.Type) {
			c.r.errorf(a.Pos(), "argument %d of %s has type %s, not compatible with parameter %s of type %s", i+1, d.Name.Name, tv.Type, p.Name, p.Type)
		}
	}
	if c.sideEffect != "" && writesGlobal {
		c.r.errorf(x.Func.Pos(), "%s %s changes the state, so it cannot be called in %s", procKind(d), d.Name.Name, c.sideEffect)
	}
	if !d.IsFunc {
		return TypeAndValue{Type: InvalidType}
	}
	if obj.Type == nil {
		return invalid
	}
	return TypeAndValue{Type: obj.Type}
}

// argExpr checks an actual argument, which may be 'undefined' (CMurphi).
func (c *Checker) argExpr(a Expr) TypeAndValue {
	if u, ok := a.(*UndefinedLit); ok {
		return c.record(u, TypeAndValue{Type: IntType})
	}
	return c.expr(a)
}

// quantifier declares q's name in the current scope.
func (c *Checker) quantifier(q *Quantifier) {
	var typ *Type
	if q.Type != nil {
		typ = c.typeExpr(q.Type)
		if typ != InvalidType && !typ.IsOrdinal() {
			c.r.errorf(q.Type.Pos(), "cannot quantify over %s: it is not a simple ordinal type", typ)
			typ = InvalidType
		}
	} else {
		from := c.expr(q.From)
		to := c.expr(q.To)
		typ = IntType
		if from.Type != InvalidType && !from.Type.IsInteger() {
			c.r.errorf(q.From.Pos(), "loop bounds must be integers, not %s", from.Type)
		}
		if to.Type != InvalidType && !to.Type.IsInteger() {
			c.r.errorf(q.To.Pos(), "loop bounds must be integers, not %s", to.Type)
		}
		if q.By != nil {
			by := c.expr(q.By)
			if by.Type != InvalidType && !by.Type.IsInteger() {
				c.r.errorf(q.By.Pos(), "the step must be an integer, not %s", by.Type)
			} else if by.Const {
				if by.Value == 0 {
					c.r.errorf(q.By.Pos(), "the step of a loop cannot be 0")
				} else if from.Const && to.Const {
					up := !c.less(by.Value, 0)
					if c.unsigned {
						up = true
					}
					if up && c.less(to.Value, from.Value) || !up && c.less(from.Value, to.Value) {
						c.r.errorf(q.By.Pos(), "the step %s goes the wrong way from %s to %s: the loop would never end", c.fmtInt(by.Value), c.fmtInt(from.Value), c.fmtInt(to.Value))
					}
				}
			}
		}
	}
	obj := &Object{Kind: ObjQuant, Name: q.Name.Name, Pos: q.Name.Pos(), Type: typ, ReadOnly: true, Quant: q}
	q.Name.Obj = obj
	c.declare(obj)
}

// declareChoose declares a multiset index variable bound to multiset m.
func (c *Checker) declareChoose(id *Ident, m Expr, mt TypeAndValue) {
	typ := InvalidType
	if mt.Type != InvalidType {
		if mt.Type.Kind != TMultiset {
			c.r.errorf(m.Pos(), "%s is not a multiset", exprString(m))
		} else {
			typ = &Type{Kind: TMultisetIndex, Elem: mt.Type, ID: c.newTypeID()}
		}
	}
	obj := &Object{Kind: ObjChoose, Name: id.Name, Pos: id.Pos(), Type: typ, ReadOnly: true, Multiset: m}
	id.Obj = obj
	c.declare(obj)
}
