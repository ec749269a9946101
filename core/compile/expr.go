package compile

// This file compiles expressions and designators. Constants fold at compile
// time (ruleset parameters are constants inside an instance), and common
// shapes — a state variable at a fixed slot compared with a constant — get
// their own closures, since guards like P[i] = L0 dominate exploration time.

import (
	"fmt"
	"math"

	"github.com/locus-mc/locus/core/murphi"
)

// value is a compiled scalar expression: a constant, or code.
type value struct {
	isConst bool
	v       int64
	fn      intFn
}

func constV(v int64) value { return value{isConst: true, v: v} }

func (x value) f() intFn {
	if x.isConst {
		v := x.v
		return func(*Machine) int64 { return v }
	}
	return x.fn
}

type placeKind uint8

const (
	pAbs   placeKind = iota // absolute slot known at compile time
	pFrame                  // frame slot fp+off
	pDyn                    // absolute slot computed at run time
)

// place is a compiled designator: where its slots are.
type place struct {
	kind placeKind
	off  int
	fn   addrFn
	typ  *murphi.Type
	text string // the designator as written, for messages
}

// addr returns code computing the absolute address.
func (p place) addr() addrFn {
	switch p.kind {
	case pAbs:
		k := p.off
		return func(*Machine) int { return k }
	case pFrame:
		k := p.off
		return func(mc *Machine) int { return mc.fp + k }
	}
	return p.fn
}

// offset returns the place k slots further.
func (p place) offset(k int) place {
	if k == 0 {
		return p
	}
	switch p.kind {
	case pAbs, pFrame:
		p.off += k
		return p
	}
	f := p.fn
	p.fn = func(mc *Machine) int { return f(mc) + k }
	return p
}

// ---------------------------------------------------------------------------
// Run-time error helpers (called only on the failure path).

func (c *compiler) position(pos murphi.Pos) string { return c.m.File.Position(pos).String() }

func undefinedRead(mc *Machine, addr int, text string, pos murphi.Pos) {
	msg := "read of undefined value " + text
	if addr < mc.base {
		if leaf := mc.M.Leaves[addr].Name; leaf != text {
			msg += " (" + leaf + ")"
		}
	}
	panic(&RuntimeError{Kind: ErrUndefinedRead, Msg: msg, Pos: pos})
}

func arithPanic(e murphi.ArithErr, op string, pos murphi.Pos) {
	if e == murphi.ArithDivZero {
		panic(&RuntimeError{Kind: ErrDivZero, Msg: "division by zero in " + op, Pos: pos})
	}
	panic(&RuntimeError{Kind: ErrOverflow, Msg: "integer overflow in " + op, Pos: pos})
}

// ---------------------------------------------------------------------------
// Designators

func (c *compiler) place(x murphi.Expr) place {
	defer c.enter(x.Pos())()
	tv := c.info.Types[x]
	switch x := x.(type) {
	case *murphi.ParenExpr:
		return c.place(x.X)
	case *murphi.Ident:
		b, ok := c.env[x.Obj]
		if !ok {
			c.fail(x.Pos(), "internal: %s has no storage", x.Name)
		}
		switch b.kind {
		case bGlobal:
			return place{kind: pAbs, off: b.off, typ: tv.Type, text: x.Name}
		case bFrame, bConstParam:
			return place{kind: pFrame, off: b.off, typ: tv.Type, text: x.Name}
		case bFrameRef:
			off := b.off
			return place{kind: pDyn, typ: tv.Type, text: x.Name, fn: func(mc *Machine) int { return int(mc.mem[mc.fp+off]) }}
		case bPlace:
			p := b.pl
			p.text = x.Name
			return p
		}
		c.fail(x.Pos(), "%s is not a variable", x.Name)
	case *murphi.FieldExpr:
		base := c.place(x.X)
		i := base.typ.FieldIndex(x.Field.Name)
		p := base.offset(FieldOffset(base.typ, i))
		p.typ = base.typ.Fields[i].Type
		p.text = base.text + "." + x.Field.Name
		return p
	case *murphi.IndexExpr:
		base := c.place(x.X)
		idx := c.expr(x.Index)
		text := base.text + "[" + murphi.ExprString(x.Index) + "]"
		if base.typ.Kind == murphi.TMultiset {
			entry := 1 + SlotSize(base.typ.Elem)
			return c.indexPlace(base, idx, base.typ.Elem, entry, 1, 0, uint64(base.typ.Size), nil, text, x.Index.Pos())
		}
		it := base.typ.Index
		size := SlotSize(base.typ.Elem)
		var parts []UnionPart
		if it.Kind == murphi.TUnion {
			parts = leafFor("", it).Parts
		}
		return c.indexPlace(base, idx, base.typ.Elem, size, 0, it.Lo, it.Count(), parts, text, x.Index.Pos())
	}
	c.fail(x.Pos(), "internal: %s is not a designator", murphi.ExprString(x))
	return place{}
}

// indexPlace computes base + skip + k*size where k is the index value's
// position (v-lo, or its rank in a union).
func (c *compiler) indexPlace(base place, idx value, elem *murphi.Type, size, skip int, lo int64, count uint64, parts []UnionPart, text string, pos murphi.Pos) place {
	position := func(v int64) (int64, bool) {
		if parts != nil {
			for _, p := range parts {
				if p.Lo <= v && v <= p.Hi {
					return int64(p.Base) + (v - p.Lo), true
				}
			}
			return 0, false
		}
		k := v - lo
		return k, uint64(k) < count
	}
	ar := c.ar
	outOfRange := func(v int64) {
		panic(&RuntimeError{Kind: ErrIndex, Pos: pos,
			Msg: fmt.Sprintf("index %s out of range in %s", ar.Format(v), text)})
	}
	if idx.isConst {
		k, ok := position(idx.v)
		if !ok {
			v := idx.v
			return place{kind: pDyn, typ: elem, text: text, fn: func(*Machine) int { outOfRange(v); return 0 }}
		}
		p := base.offset(skip + int(k)*size)
		p.typ, p.text = elem, text
		return p
	}
	f := idx.fn
	var pos2 func(mc *Machine) int
	if parts == nil {
		pos2 = func(mc *Machine) int {
			v := f(mc)
			k := v - lo
			if uint64(k) >= count {
				outOfRange(v)
			}
			return skip + int(k)*size
		}
	} else {
		pos2 = func(mc *Machine) int {
			v := f(mc)
			k, ok := position(v)
			if !ok {
				outOfRange(v)
			}
			return skip + int(k)*size
		}
	}
	switch base.kind {
	case pAbs:
		b := base.off
		return place{kind: pDyn, typ: elem, text: text, fn: func(mc *Machine) int { return b + pos2(mc) }}
	case pFrame:
		b := base.off
		return place{kind: pDyn, typ: elem, text: text, fn: func(mc *Machine) int { return mc.fp + b + pos2(mc) }}
	}
	bf := base.fn
	return place{kind: pDyn, typ: elem, text: text, fn: func(mc *Machine) int { return bf(mc) + pos2(mc) }}
}

// read compiles a checked read of a scalar place.
func (c *compiler) read(p place, pos murphi.Pos) intFn {
	undef := c.undef
	text := p.text
	switch p.kind {
	case pAbs:
		k := p.off
		return func(mc *Machine) int64 {
			v := mc.mem[k]
			if v == undef {
				undefinedRead(mc, k, text, pos)
			}
			return v
		}
	case pFrame:
		k := p.off
		return func(mc *Machine) int64 {
			v := mc.mem[mc.fp+k]
			if v == undef {
				undefinedRead(mc, mc.fp+k, text, pos)
			}
			return v
		}
	}
	a := p.fn
	return func(mc *Machine) int64 {
		k := a(mc)
		v := mc.mem[k]
		if v == undef {
			undefinedRead(mc, k, text, pos)
		}
		return v
	}
}

// ---------------------------------------------------------------------------
// Scalar expressions

// constant returns the value of x if it is a constant that skips nothing
// that runs. The checker also folds x*0, 0*x, 0/x and 0%x when x is not
// constant (Rumur accepts them in type bounds), but in a rule body x is
// still evaluated, as Rumur does, and reading it may fail.
func (c *compiler) constant(x murphi.Expr) (int64, bool) {
	tv := c.info.Types[x]
	if !tv.Const || tv.Type == nil || !tv.Type.IsSimple() || c.foldsAway(x) {
		return 0, false
	}
	return tv.Value, true
}

// foldsAway reports whether the checker's constant for x leaves out an
// operand that is not constant (conservatively: anywhere in x).
func (c *compiler) foldsAway(x murphi.Expr) bool {
	found := false
	murphi.Inspect(x, func(n murphi.Node) bool {
		if b, ok := n.(*murphi.BinaryExpr); ok && (b.Op == murphi.MUL || b.Op == murphi.QUO || b.Op == murphi.REM) {
			if !c.info.Types[b.X].Const || !c.info.Types[b.Y].Const {
				found = true
			}
		}
		return !found
	})
	return found
}

func (c *compiler) expr(x murphi.Expr) value {
	defer c.enter(x.Pos())()
	tv := c.info.Types[x]
	if v, ok := c.constant(x); ok {
		return constV(v)
	}
	if tv.Type != nil && tv.Type.Kind == murphi.TBool && CondNative(x) {
		b := c.cond(x)
		return value{fn: func(mc *Machine) int64 {
			if b(mc) {
				return 1
			}
			return 0
		}}
	}
	switch x := x.(type) {
	case *murphi.ParenExpr:
		return c.expr(x.X)
	case *murphi.Ident:
		obj := x.Obj
		if obj.Kind == murphi.ObjConst {
			return constV(obj.Value)
		}
		if b, ok := c.env[obj]; ok && (b.kind == bConst || b.kind == bConstParam) {
			return constV(b.v)
		}
		return value{fn: c.read(c.place(x), x.Pos())}
	case *murphi.IntLit:
		return constV(int64(x.Value))
	case *murphi.IndexExpr, *murphi.FieldExpr:
		return value{fn: c.read(c.place(x), x.Pos())}
	case *murphi.UnaryExpr:
		return c.unary(x)
	case *murphi.BinaryExpr:
		return c.binary(x)
	case *murphi.CondExpr:
		cond := c.cond(x.Cond)
		a, b := c.expr(x.Then).f(), c.expr(x.Else).f()
		return value{fn: func(mc *Machine) int64 {
			if cond(mc) {
				return a(mc)
			}
			return b(mc)
		}}
	case *murphi.CallExpr:
		return c.callValue(x)
	case *murphi.MultisetCountExpr:
		return c.multisetCount(x)
	}
	c.fail(x.Pos(), "internal: cannot compile expression %s", murphi.ExprString(x))
	return value{}
}

func (c *compiler) unary(x *murphi.UnaryExpr) value {
	a := c.expr(x.X)
	ar := c.ar
	pos := x.Pos()
	switch x.Op {
	case murphi.ADD:
		return a
	case murphi.SUB:
		if a.isConst {
			v, e := ar.Neg(a.v)
			if e == murphi.ArithOK {
				return constV(v)
			}
		}
		f := a.f()
		return value{fn: func(mc *Machine) int64 {
			v, e := ar.Neg(f(mc))
			if e != murphi.ArithOK {
				arithPanic(e, "negation", pos)
			}
			return v
		}}
	case murphi.TILDE:
		if a.isConst {
			return constV(^a.v)
		}
		f := a.f()
		return value{fn: func(mc *Machine) int64 { return ^f(mc) }}
	}
	c.fail(x.Pos(), "internal: unary %s", x.Op)
	return value{}
}

func (c *compiler) binary(x *murphi.BinaryExpr) value {
	a, b := c.expr(x.X), c.expr(x.Y)
	ar := c.ar
	pos := x.OpPos
	op := x.Op
	if a.isConst && b.isConst {
		if v, e := foldBinary(ar, op, a.v, b.v); e == murphi.ArithOK {
			return constV(v)
		}
	}
	fa, fb := a.f(), b.f()
	opName := op.String()
	if !ar.Unsigned {
		switch op {
		case murphi.ADD:
			if b.isConst {
				k := b.v
				return value{fn: func(mc *Machine) int64 {
					va := fa(mc)
					r := va + k
					if (va^r)&(k^r) < 0 {
						arithPanic(murphi.ArithOverflow, opName, pos)
					}
					return r
				}}
			}
			return value{fn: func(mc *Machine) int64 {
				va, vb := fa(mc), fb(mc)
				r := va + vb
				if (va^r)&(vb^r) < 0 {
					arithPanic(murphi.ArithOverflow, opName, pos)
				}
				return r
			}}
		case murphi.SUB:
			if b.isConst {
				k := b.v
				return value{fn: func(mc *Machine) int64 {
					va := fa(mc)
					r := va - k
					if (va^k)&(va^r) < 0 {
						arithPanic(murphi.ArithOverflow, opName, pos)
					}
					return r
				}}
			}
			return value{fn: func(mc *Machine) int64 {
				va, vb := fa(mc), fb(mc)
				r := va - vb
				if (va^vb)&(va^r) < 0 {
					arithPanic(murphi.ArithOverflow, opName, pos)
				}
				return r
			}}
		}
	}
	switch op {
	case murphi.ADD, murphi.SUB, murphi.MUL, murphi.QUO, murphi.REM:
		return value{fn: func(mc *Machine) int64 {
			v, e := foldBinary(ar, op, fa(mc), fb(mc))
			if e != murphi.ArithOK {
				arithPanic(e, opName, pos)
			}
			return v
		}}
	case murphi.SHL:
		return value{fn: func(mc *Machine) int64 { return ar.Shl(fa(mc), fb(mc)) }}
	case murphi.SHR:
		return value{fn: func(mc *Machine) int64 { return ar.Shr(fa(mc), fb(mc)) }}
	case murphi.XOR:
		return value{fn: func(mc *Machine) int64 { return fa(mc) ^ fb(mc) }}
	case murphi.AND:
		return value{fn: func(mc *Machine) int64 { return fa(mc) & fb(mc) }}
	case murphi.OR:
		return value{fn: func(mc *Machine) int64 { return fa(mc) | fb(mc) }}
	}
	c.fail(x.Pos(), "internal: binary %s", op)
	return value{}
}

func foldBinary(ar murphi.Arith, op murphi.Token, a, b int64) (int64, murphi.ArithErr) {
	switch op {
	case murphi.ADD:
		return ar.Add(a, b)
	case murphi.SUB:
		return ar.Sub(a, b)
	case murphi.MUL:
		return ar.Mul(a, b)
	case murphi.QUO:
		return ar.Div(a, b)
	case murphi.REM:
		return ar.Mod(a, b)
	case murphi.SHL:
		return ar.Shl(a, b), murphi.ArithOK
	case murphi.SHR:
		return ar.Shr(a, b), murphi.ArithOK
	case murphi.XOR:
		return a ^ b, murphi.ArithOK
	case murphi.AND:
		return a & b, murphi.ArithOK
	case murphi.OR:
		return a | b, murphi.ArithOK
	}
	return 0, murphi.ArithOverflow
}

// ---------------------------------------------------------------------------
// Boolean expressions compile straight to boolFn.

func (c *compiler) cond(x murphi.Expr) boolFn {
	defer c.enter(x.Pos())()
	if v, ok := c.constant(x); ok {
		if v != 0 {
			return func(*Machine) bool { return true }
		}
		return func(*Machine) bool { return false }
	}
	switch x := x.(type) {
	case *murphi.ParenExpr:
		return c.cond(x.X)
	case *murphi.UnaryExpr:
		if x.Op == murphi.NOT {
			f := c.cond(x.X)
			return func(mc *Machine) bool { return !f(mc) }
		}
	case *murphi.BinaryExpr:
		if f := c.condBinary(x); f != nil {
			return f
		}
	case *murphi.QuantExpr:
		return c.quantExpr(x)
	case *murphi.IsUndefinedExpr:
		p := c.place(x.X)
		undef := c.undef
		if p.kind == pAbs {
			k := p.off
			return func(mc *Machine) bool { return mc.mem[k] == undef }
		}
		a := p.addr()
		return func(mc *Machine) bool {
			k := a(mc) // (may move mc.mem)
			return mc.mem[k] == undef
		}
	case *murphi.IsMemberExpr:
		v := c.expr(x.X).f()
		mt := c.typeOf(x.Type)
		lo, hi := mt.Lo, mt.Hi
		return func(mc *Machine) bool { w := v(mc); return lo <= w && w <= hi }
	case *murphi.Ident:
		if b, ok := c.env[x.Obj]; ok && (b.kind == bConst || b.kind == bConstParam) {
			v := b.v != 0
			return func(*Machine) bool { return v }
		}
	}
	v := c.expr(x)
	if v.isConst {
		k := v.v != 0
		return func(*Machine) bool { return k }
	}
	f := v.fn
	return func(mc *Machine) bool { return f(mc) != 0 }
}

// CondNative reports whether x is a condition in its own right (a negation,
// a comparison, a logical connective, a quantifier, isundefined or
// ismember), which cond compiles itself rather than through expr. The wasm
// code generator (core/wasmgen) makes the same split.
func CondNative(x murphi.Expr) bool {
	switch x := x.(type) {
	case *murphi.UnaryExpr:
		return x.Op == murphi.NOT
	case *murphi.BinaryExpr:
		switch x.Op {
		case murphi.LAND, murphi.LOR, murphi.IMPLIES, murphi.EQL, murphi.NEQ,
			murphi.LSS, murphi.LEQ, murphi.GTR, murphi.GEQ:
			return true
		case murphi.AND, murphi.OR:
			return x.Logical
		}
	case *murphi.QuantExpr, *murphi.IsUndefinedExpr, *murphi.IsMemberExpr:
		return true
	}
	return false
}

// typeOf returns the checked type of a type expression.
func (c *compiler) typeOf(t murphi.TypeExpr) *murphi.Type {
	switch t := t.(type) {
	case *murphi.NamedType:
		if t.Name.Obj != nil {
			return t.Name.Obj.Type
		}
	case *murphi.BooleanType:
		return murphi.BoolType
	}
	c.fail(t.Pos(), "ismember needs a named type")
	return nil
}

func (c *compiler) condBinary(x *murphi.BinaryExpr) boolFn {
	switch x.Op {
	case murphi.LAND, murphi.AND:
		if !x.Logical {
			return nil
		}
		a, b := c.cond(x.X), c.cond(x.Y)
		return func(mc *Machine) bool { return a(mc) && b(mc) }
	case murphi.LOR, murphi.OR:
		if !x.Logical {
			return nil
		}
		a, b := c.cond(x.X), c.cond(x.Y)
		return func(mc *Machine) bool { return a(mc) || b(mc) }
	case murphi.IMPLIES:
		a, b := c.cond(x.X), c.cond(x.Y)
		return func(mc *Machine) bool { return !a(mc) || b(mc) }
	case murphi.EQL, murphi.NEQ:
		if !c.info.Types[x.X].Type.IsSimple() {
			return c.aggregateEq(x, x.Op == murphi.NEQ)
		}
		return c.compare(x)
	case murphi.LSS, murphi.LEQ, murphi.GTR, murphi.GEQ:
		return c.compare(x)
	}
	return nil
}

// compare compiles a scalar comparison, with fast paths for a fixed slot
// or any value against a constant. Each closure switches on the operator
// (a branch on a constant) rather than calling a comparison function.
func (c *compiler) compare(x *murphi.BinaryExpr) boolFn {
	op := x.Op
	a, b := c.expr(x.X), c.expr(x.Y)
	// Unsigned models order values as uint64: flipping the sign bit of both
	// sides makes signed comparison agree (and leaves equality alone).
	flip := int64(0)
	if c.ar.Unsigned {
		flip = math.MinInt64
	}
	if b.isConst {
		want := b.v ^ flip
		if p, ok := c.directSlot(x.X); ok && p.kind == pAbs {
			k, text, pos, undef := p.off, p.text, x.X.Pos(), c.undef
			return func(mc *Machine) bool {
				v := mc.mem[k]
				if v == undef {
					undefinedRead(mc, k, text, pos)
				}
				return relate(op, v^flip, want)
			}
		}
		fa := a.f()
		return func(mc *Machine) bool { return relate(op, fa(mc)^flip, want) }
	}
	fa, fb := a.f(), b.f()
	return func(mc *Machine) bool { return relate(op, fa(mc)^flip, fb(mc)^flip) }
}

// relate applies the comparison operator op.
func relate(op murphi.Token, a, b int64) bool {
	switch op {
	case murphi.EQL:
		return a == b
	case murphi.NEQ:
		return a != b
	case murphi.LSS:
		return a < b
	case murphi.LEQ:
		return a <= b
	case murphi.GTR:
		return a > b
	}
	return a >= b
}

// directSlot reports whether x is a designator with a fixed slot.
func (c *compiler) directSlot(x murphi.Expr) (place, bool) {
	switch x := x.(type) {
	case *murphi.ParenExpr:
		return c.directSlot(x.X)
	case *murphi.Ident:
		if x.Obj.Kind == murphi.ObjConst {
			return place{}, false
		}
		if b, ok := c.env[x.Obj]; !ok || b.kind == bConst {
			return place{}, false
		}
	case *murphi.IndexExpr, *murphi.FieldExpr:
	default:
		return place{}, false
	}
	if !c.info.Types[x].Addressable {
		return place{}, false
	}
	p := c.place(x)
	return p, p.kind != pDyn
}

// aggregateEq compares records or arrays slot by slot (Rumur: raw
// comparison, so undefined components compare equal to each other).
func (c *compiler) aggregateEq(x *murphi.BinaryExpr, neg bool) boolFn {
	pa, pb := c.aggregate(x.X), c.aggregate(x.Y)
	n := SlotSize(c.info.Types[x.X].Type)
	fa, fb := pa.addr(), pb.addr()
	return func(mc *Machine) bool {
		a, b := fa(mc), fb(mc)
		eq := true
		for i := 0; i < n; i++ {
			if mc.mem[a+i] != mc.mem[b+i] {
				eq = false
				break
			}
		}
		return eq != neg
	}
}

// aggregate compiles an aggregate-valued expression to a place holding it.
func (c *compiler) aggregate(x murphi.Expr) place {
	defer c.enter(x.Pos())()
	switch x := x.(type) {
	case *murphi.ParenExpr:
		return c.aggregate(x.X)
	case *murphi.CallExpr:
		return c.callAggregate(x)
	case *murphi.CondExpr:
		t := c.info.Types[x].Type
		n := SlotSize(t)
		tmp := c.alloc(n)
		cond := c.cond(x.Cond)
		a, b := c.aggregate(x.Then).addr(), c.aggregate(x.Else).addr()
		return place{kind: pDyn, typ: t, text: murphi.ExprString(x), fn: func(mc *Machine) int {
			src := b
			if cond(mc) {
				src = a
			}
			s := src(mc)
			copy(mc.mem[mc.fp+tmp:mc.fp+tmp+n], mc.mem[s:s+n])
			return mc.fp + tmp
		}}
	}
	return c.place(x)
}

// quantExpr compiles forall/exists, stopping at the first deciding value.
func (c *compiler) quantExpr(x *murphi.QuantExpr) boolFn {
	mark := c.frameTop
	defer func() { c.frameTop = mark }()
	forall := x.Op == murphi.FORALL
	// stop(mc) is true when a value decides the result.
	var build func(i int) boolFn
	build = func(i int) boolFn {
		if i == len(x.Quants) {
			body := c.cond(x.Body)
			if forall {
				return func(mc *Machine) bool { return !body(mc) }
			}
			return body
		}
		q := x.Quants[i]
		if vals, ok := c.unrollValues(q); ok {
			return boolFn(c.unroll(q, vals, func() func(*Machine) bool { return build(i + 1) }))
		}
		slot := c.alloc(1)
		c.env[q.Name.Obj] = binding{kind: bFrame, off: slot}
		inner := build(i + 1)
		loop := c.iterate(q, slot)
		return func(mc *Machine) bool { return loop(mc, inner) }
	}
	stop := build(0)
	if forall {
		return func(mc *Machine) bool { return !stop(mc) }
	}
	return stop
}

// maxUnroll bounds how many copies of a loop body unrolling may make,
// nested loops multiplying: unrolled, a quantifier's variable is a constant
// in each copy, so x[i] is a fixed slot instead of an indexed one.
const maxUnroll = 64

// unrollValues returns the values of quantifier q, if they are known at
// compile time and few enough to unroll the loop over them here.
func (c *compiler) unrollValues(q *murphi.Quantifier) ([]int64, bool) {
	room := maxUnroll / c.unrolled
	if q.Type != nil {
		t := q.Name.Obj.Type
		if t.Count() > uint64(room) {
			return nil, false
		}
		return IndexValues(t), true
	}
	mark := c.frameTop
	from, to := c.expr(q.From), c.expr(q.To)
	by := constV(1)
	if q.By != nil {
		by = c.expr(q.By)
	}
	c.frameTop = mark
	if !from.isConst || !to.isConst || !by.isConst || by.v == 0 {
		return nil, false
	}
	// The values iterate would visit at run time.
	var vals []int64
	up := c.ar.Unsigned || by.v > 0
	for v := from.v; ; {
		if up && c.ar.Less(to.v, v) || !up && c.ar.Less(v, to.v) {
			break
		}
		if len(vals) == room {
			return nil, false
		}
		vals = append(vals, v)
		next, e := c.ar.Add(v, by.v)
		if e != murphi.ArithOK {
			break
		}
		v = next
	}
	return vals, true
}

// unroll compiles a loop over vals, the values of quantifier q: body()
// compiles the loop's body, once per value with q's variable bound to it.
// The loop stops when a body reports true, and reports whether one did.
// Each iteration counts against the step limit, as in iterate.
func (c *compiler) unroll(q *murphi.Quantifier, vals []int64, body func() func(*Machine) bool) func(*Machine) bool {
	obj := q.Name.Obj
	saveUnrolled, mark := c.unrolled, c.frameTop
	c.unrolled *= max(len(vals), 1)
	copies := make([]func(*Machine) bool, len(vals))
	for k, v := range vals {
		c.env[obj] = binding{kind: bConst, v: v}
		c.frameTop = mark // copies run one after another: they share temps
		copies[k] = body()
	}
	delete(c.env, obj)
	c.unrolled, c.frameTop = saveUnrolled, mark
	pos := q.Pos()
	switch len(copies) {
	case 1:
		f := copies[0]
		return func(mc *Machine) bool { mc.step(pos); return f(mc) }
	case 2:
		f, g := copies[0], copies[1]
		return func(mc *Machine) bool {
			mc.step(pos)
			if f(mc) {
				return true
			}
			mc.step(pos)
			return g(mc)
		}
	}
	return func(mc *Machine) bool {
		for _, f := range copies {
			mc.step(pos)
			if f(mc) {
				return true
			}
		}
		return false
	}
}

// loopFn runs body for each value of a quantifier (stored in its frame
// slot) until body reports true; it reports whether body did. Bodies are
// built at compile time, so running a loop allocates nothing.
type loopFn func(mc *Machine, body func(*Machine) bool) bool

// iterate compiles a loop over a quantifier's values.
func (c *compiler) iterate(q *murphi.Quantifier, slot int) loopFn {
	pos := q.Pos()
	if q.Type != nil {
		t := q.Name.Obj.Type
		type span struct{ lo, hi int64 }
		var spans []span
		if t.Kind == murphi.TUnion {
			for _, m := range t.Union {
				spans = append(spans, span{m.Lo, m.Hi})
			}
		} else {
			spans = []span{{t.Lo, t.Hi}}
		}
		total := uint64(0)
		for _, s := range spans {
			total += uint64(s.hi-s.lo) + 1
		}
		if total > MaxLoopIterations {
			err := &RuntimeError{Kind: ErrLoopLimit, Pos: q.Pos(),
				Msg: fmt.Sprintf("quantifier %s ranges over %d values (more than %d)", q.Name.Name, total, MaxLoopIterations)}
			return func(*Machine, func(*Machine) bool) bool { panic(err) }
		}
		if len(spans) == 1 {
			lo, hi := spans[0].lo, spans[0].hi
			return func(mc *Machine, body func(*Machine) bool) bool {
				for v := lo; ; v++ {
					mc.step(pos)
					mc.mem[mc.fp+slot] = v
					if body(mc) {
						return true
					}
					if v == hi {
						return false
					}
				}
			}
		}
		return func(mc *Machine, body func(*Machine) bool) bool {
			for _, s := range spans {
				for v := s.lo; ; v++ {
					mc.step(pos)
					mc.mem[mc.fp+slot] = v
					if body(mc) {
						return true
					}
					if v == s.hi {
						break
					}
				}
			}
			return false
		}
	}
	from, to := c.expr(q.From).f(), c.expr(q.To).f()
	var by intFn
	if q.By != nil {
		by = c.expr(q.By).f()
	}
	ar := c.ar
	return func(mc *Machine, body func(*Machine) bool) bool {
		lo, hi := from(mc), to(mc)
		step := int64(1)
		if by != nil {
			step = by(mc)
			if step == 0 {
				panic(&RuntimeError{Kind: ErrForStepZero, Msg: "for loop step is 0", Pos: pos})
			}
		}
		up := ar.Unsigned || step > 0
		for v, n := lo, 0; ; n++ {
			if up && ar.Less(hi, v) || !up && ar.Less(v, hi) {
				return false
			}
			if n >= MaxLoopIterations {
				panic(&RuntimeError{Kind: ErrLoopLimit, Pos: pos,
					Msg: fmt.Sprintf("for loop ran more than %d iterations", MaxLoopIterations)})
			}
			mc.step(pos)
			mc.mem[mc.fp+slot] = v
			if body(mc) {
				return true
			}
			next, e := ar.Add(v, step)
			if e != murphi.ArithOK {
				return false
			}
			v = next
		}
	}
}

func (c *compiler) multisetCount(x *murphi.MultisetCountExpr) value {
	loop := c.matchingEntries(x.Multiset, x.Var, x.Pred, nil)
	return value{fn: func(mc *Machine) int64 { return int64(loop(mc)) }}
}

// matchingEntries compiles a loop over the present entries of multiset m
// that satisfy pred (with v bound to the entry's index), calling act (if not
// nil) with each such entry's first slot; the loop returns how many matched.
func (c *compiler) matchingEntries(m murphi.Expr, v *murphi.Ident, pred murphi.Expr, act func(mc *Machine, entry int)) func(*Machine) int {
	pl := c.place(m)
	entry := 1 + SlotSize(pl.typ.Elem)
	size := int(pl.typ.Size)
	mark := c.frameTop
	slot := c.alloc(1)
	c.env[v.Obj] = binding{kind: bFrame, off: slot}
	cond := c.cond(pred)
	c.frameTop = mark
	base := pl.addr()
	undef := c.undef
	return func(mc *Machine) int {
		b := base(mc)
		n := 0
		for k := 0; k < size; k++ {
			e := b + k*entry
			if mc.mem[e] == undef {
				continue
			}
			mc.mem[mc.fp+slot] = int64(k)
			if cond(mc) {
				n++
				if act != nil {
					act(mc, e)
				}
			}
		}
		return n
	}
}
