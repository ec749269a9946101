package reference

// This file evaluates expressions and designators.

import (
	"fmt"
	"math/big"

	"github.com/locus-mc/locus/core/murphi"
)

// Run-time error kinds: the words Locus reports (the conformance manifests'
// failure kinds), so that verdicts compare directly.
const (
	ErrUndefinedRead = "undefined-read"
	ErrIndex         = "index-out-of-range"
	ErrRangeAssign   = "range-error(assignment)"
	ErrRangeParam    = "range-error(parameter)"
	ErrForStepZero   = "runtime-for-step-zero"
	ErrDivZero       = "division-by-zero"
	ErrOverflow      = "overflow"
	ErrAssertion     = "assertion"
	ErrErrorStmt     = "error-statement"
	ErrMultisetFull  = "multiset-full"
	ErrLoopLimit     = "loop-limit"
	ErrRecursion     = "recursion-limit"
	ErrNoReturn      = "missing-return"
)

// Limits that no Murphi tool defines alike (CMurphi stops while loops after
// 1000 iterations, Rumur never): the reference uses Locus's documented
// limits, so that a model that hits one fails the same way in both.
const (
	maxLoopIterations = 1 << 20 // one loop
	maxCallDepth      = 10000   // nested calls
	stepLimit         = 1 << 26 // loop iterations and calls in one execution
)

// Error is a run-time model error.
type Error struct {
	Kind string
	Msg  string
	Pos  murphi.Pos
}

func (e *Error) Error() string { return e.Kind + ": " + e.Msg }

// assumeFailed is the panic value of a failed assume statement, at pos.
type assumeFailed struct{ pos murphi.Pos }

// tooMuchWork is the panic value that ends a search over its work budget.
type tooMuchWork struct{}

// env binds the names of one activation (a rule instance, a procedure
// call) to values: locations for variables, parameters and aliases of
// designators; fresh values for everything else. Globals live in the state.
type env map[*murphi.Object]*Value

// machine runs one execution (a guard, a body, a start state or a property)
// over a state.
type machine struct {
	m     *Model
	num   num
	state []*Value // the global variables, in declaration order
	env   env
	steps int64
	depth int
	// covers counts cover statements that held, by statement; nil when
	// not counting.
	covers map[murphi.Pos]int64
	// fnResult is the running function's result, nil outside functions.
	fnResult *frameResult
}

func (mc *machine) fail(kind string, pos murphi.Pos, format string, args ...any) {
	panic(&Error{Kind: kind, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// step counts one loop iteration or call against the per-execution limit
// and the search's work budget.
func (mc *machine) step(pos murphi.Pos) {
	mc.work()
	mc.steps++
	if mc.steps > stepLimit {
		mc.fail(ErrLoopLimit, pos, "more than %d loop iterations and calls", stepLimit)
	}
}

// work counts one unit (a statement, an iteration, a call, an execution)
// against the search's budget.
func (mc *machine) work() { mc.m.spend(1) }

func (mc *machine) typeOf(x murphi.Expr) *murphi.Type { return mc.m.info.Types[x].Type }

// ---------------------------------------------------------------------------
// Designators

// locate returns the location a designator names.
func (mc *machine) locate(x murphi.Expr) *Value {
	switch x := x.(type) {
	case *murphi.ParenExpr:
		return mc.locate(x.X)
	case *murphi.Ident:
		if x.Obj.Kind == murphi.ObjVar {
			return mc.state[mc.m.globalIndex[x.Obj]]
		}
		v, ok := mc.env[x.Obj]
		if !ok {
			panic(fmt.Sprintf("reference: %s %s has no value here", x.Obj.Kind, x.Name))
		}
		return v
	case *murphi.FieldExpr:
		base := mc.locate(x.X)
		return base.Elems[base.Type.FieldIndex(x.Field.Name)]
	case *murphi.IndexExpr:
		base := mc.locate(x.X)
		i := mc.scalar(x.Index)
		if base.Type.Kind == murphi.TMultiset {
			e := base.Elems[i]
			if e == nil {
				// An absent entry: reads are undefined, writes are lost.
				return newValue(base.Type.Elem)
			}
			return e
		}
		k, ok := mc.num.position(base.Type.Index, i)
		if !ok {
			mc.fail(ErrIndex, x.Index.Pos(), "index %s out of range in %s", mc.num.format(i), murphi.ExprString(x))
		}
		return base.Elems[k]
	}
	panic("reference: not a designator: " + murphi.ExprString(x))
}

// read returns a defined scalar at a location.
func (mc *machine) read(v *Value, x murphi.Expr) int64 {
	if !v.Def {
		mc.fail(ErrUndefinedRead, x.Pos(), "read of undefined value %s", murphi.ExprString(x))
	}
	return v.Int
}

// ---------------------------------------------------------------------------
// Expressions

// value evaluates an expression of any type. Scalars come back fresh;
// aggregates may be the location itself, so callers copy before writing.
func (mc *machine) value(x murphi.Expr) *Value {
	t := mc.typeOf(x)
	if !isAggregate(t) {
		return scalar(t, mc.scalar(x))
	}
	switch x := x.(type) {
	case *murphi.ParenExpr:
		return mc.value(x.X)
	case *murphi.CallExpr:
		return mc.call(x)
	case *murphi.CondExpr:
		if mc.cond(x.Cond) {
			return mc.value(x.Then)
		}
		return mc.value(x.Else)
	}
	return mc.locate(x)
}

// cond evaluates a boolean.
func (mc *machine) cond(x murphi.Expr) bool { return mc.scalar(x) != 0 }

// scalar evaluates an expression of simple type to a defined value.
func (mc *machine) scalar(x murphi.Expr) int64 {
	switch x := x.(type) {
	case *murphi.ParenExpr:
		return mc.scalar(x.X)
	case *murphi.IntLit:
		return int64(x.Value)
	case *murphi.Ident:
		if x.Obj.Kind == murphi.ObjConst {
			return x.Obj.Value
		}
		return mc.read(mc.locate(x), x)
	case *murphi.IndexExpr, *murphi.FieldExpr:
		return mc.read(mc.locate(x), x)
	case *murphi.UnaryExpr:
		return mc.unary(x)
	case *murphi.BinaryExpr:
		return mc.binary(x)
	case *murphi.CondExpr:
		if mc.cond(x.Cond) {
			return mc.scalar(x.Then)
		}
		return mc.scalar(x.Else)
	case *murphi.CallExpr:
		v := mc.call(x)
		return mc.read(v, x)
	case *murphi.QuantExpr:
		return b2i(mc.quantExpr(x))
	case *murphi.IsUndefinedExpr:
		return b2i(!mc.locate(x.X).Def)
	case *murphi.IsMemberExpr:
		v := mc.scalar(x.X)
		t := mc.namedType(x.Type)
		return b2i(t.Lo <= v && v <= t.Hi)
	case *murphi.MultisetCountExpr:
		n := int64(0)
		mc.eachEntry(x.Multiset, x.Var, x.Pred, func(*Value, int) { n++ })
		return n
	}
	panic("reference: cannot evaluate " + murphi.ExprString(x))
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (mc *machine) namedType(t murphi.TypeExpr) *murphi.Type {
	switch t := t.(type) {
	case *murphi.NamedType:
		return t.Name.Obj.Type
	case *murphi.BooleanType:
		return murphi.BoolType
	}
	panic("reference: ismember over an anonymous type")
}

func (mc *machine) unary(x *murphi.UnaryExpr) int64 {
	v := mc.scalar(x.X)
	switch x.Op {
	case murphi.NOT:
		return 1 - v
	case murphi.ADD:
		return v
	case murphi.SUB:
		return mc.arith(new(big.Int).Neg(mc.num.big(v)), "negation", x.OpPos)
	case murphi.TILDE:
		return ^v
	}
	panic("reference: unary " + x.Op.String())
}

// arith returns an arithmetic result, failing if it overflows the model's
// 64-bit integers (Rumur checks every intermediate result).
func (mc *machine) arith(r *big.Int, op string, pos murphi.Pos) int64 {
	v, ok := mc.num.fit(r)
	if !ok {
		mc.fail(ErrOverflow, pos, "integer overflow in %s", op)
	}
	return v
}

func (mc *machine) binary(x *murphi.BinaryExpr) int64 {
	switch x.Op {
	case murphi.LAND, murphi.AND, murphi.LOR, murphi.OR, murphi.IMPLIES:
		if x.Op == murphi.LAND || x.Op == murphi.LOR || x.Op == murphi.IMPLIES || x.Logical {
			return b2i(mc.logical(x))
		}
	case murphi.EQL, murphi.NEQ:
		if isAggregate(mc.typeOf(x.X)) {
			eq := equalRaw(mc.value(x.X), mc.value(x.Y))
			return b2i(eq == (x.Op == murphi.EQL))
		}
	}
	a := mc.scalar(x.X)
	b := mc.scalar(x.Y)
	ba, bb := mc.num.big(a), mc.num.big(b)
	op := x.Op.String()
	switch x.Op {
	case murphi.ADD:
		return mc.arith(new(big.Int).Add(ba, bb), op, x.OpPos)
	case murphi.SUB:
		return mc.arith(new(big.Int).Sub(ba, bb), op, x.OpPos)
	case murphi.MUL:
		return mc.arith(new(big.Int).Mul(ba, bb), op, x.OpPos)
	case murphi.QUO, murphi.REM:
		if b == 0 {
			mc.fail(ErrDivZero, x.OpPos, "division by zero in %s", op)
		}
		// C semantics: the quotient truncates toward zero and the
		// remainder has the dividend's sign (big.Int's Quo and Rem).
		if x.Op == murphi.QUO {
			return mc.arith(new(big.Int).Quo(ba, bb), op, x.OpPos)
		}
		// Rumur: VALUE_MIN % -1 is 0, not an overflow.
		return mc.arith(new(big.Int).Rem(ba, bb), op, x.OpPos)
	case murphi.AND:
		return a & b
	case murphi.OR:
		return a | b
	case murphi.XOR:
		return a ^ b
	case murphi.SHL:
		return mc.shift(a, b, true)
	case murphi.SHR:
		return mc.shift(a, b, false)
	case murphi.EQL:
		return b2i(a == b)
	case murphi.NEQ:
		return b2i(a != b)
	case murphi.LSS:
		return b2i(mc.order(x, a, b) < 0)
	case murphi.LEQ:
		return b2i(mc.order(x, a, b) <= 0)
	case murphi.GTR:
		return b2i(mc.order(x, a, b) > 0)
	case murphi.GEQ:
		return b2i(mc.order(x, a, b) >= 0)
	}
	panic("reference: binary " + op)
}

// order compares two operands of an ordering comparison: integers by value,
// enum values by their position.
func (mc *machine) order(x *murphi.BinaryExpr, a, b int64) int {
	if mc.typeOf(x.X).Kind == murphi.TEnum {
		return big.NewInt(a).Cmp(big.NewInt(b))
	}
	return mc.num.cmp(a, b)
}

// shift is Rumur's total shift on 64-bit values: a negative amount shifts
// the other way, an amount of 64 or more gives 0, and >> is arithmetic on
// signed values.
func (mc *machine) shift(a, by int64, left bool) int64 {
	if !mc.num.unsigned && by < 0 {
		if by == -1<<63 {
			return 0
		}
		by, left = -by, !left
	}
	if uint64(by) >= 64 {
		return 0
	}
	if left {
		return int64(uint64(a) << uint(by))
	}
	if mc.num.unsigned {
		return int64(uint64(a) >> uint(by))
	}
	return a >> uint(by)
}

// logical evaluates &, |, -> on booleans, left to right, short-circuit.
func (mc *machine) logical(x *murphi.BinaryExpr) bool {
	a := mc.cond(x.X)
	switch x.Op {
	case murphi.LAND, murphi.AND:
		return a && mc.cond(x.Y)
	case murphi.LOR, murphi.OR:
		return a || mc.cond(x.Y)
	}
	return !a || mc.cond(x.Y)
}

// equalRaw compares two aggregates component by component, undefined equal
// to undefined (Rumur compares the raw bits).
func equalRaw(a, b *Value) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if a.Elems != nil || b.Elems != nil {
		if len(a.Elems) != len(b.Elems) {
			return false
		}
		for i := range a.Elems {
			if !equalRaw(a.Elems[i], b.Elems[i]) {
				return false
			}
		}
		return true
	}
	return a.Def == b.Def && (!a.Def || a.Int == b.Int)
}

// quantExpr evaluates forall/exists, stopping at the first deciding value.
func (mc *machine) quantExpr(x *murphi.QuantExpr) bool {
	forall := x.Op == murphi.FORALL
	decided := mc.loop(x.Quants, func() bool {
		v := mc.cond(x.Body)
		return v != forall // exists: stop at true; forall: stop at false
	})
	return decided != forall
}

// loop runs body for every combination of the quantifiers' values, the
// first quantifier outermost, each from least to greatest value, until
// body reports true; it reports whether it did.
func (mc *machine) loop(qs []*murphi.Quantifier, body func() bool) bool {
	if len(qs) == 0 {
		return body()
	}
	q := qs[0]
	obj := q.Name.Obj
	defer delete(mc.env, obj)
	each := func(v int64) bool {
		mc.step(q.Pos())
		mc.env[obj] = scalar(obj.Type, v)
		return mc.loop(qs[1:], body)
	}
	if q.Type != nil {
		t := obj.Type
		if t.Count() > maxLoopIterations {
			mc.fail(ErrLoopLimit, q.Pos(), "quantifier %s ranges over %d values", q.Name.Name, t.Count())
		}
		for _, v := range indexValues(t) {
			if each(v) {
				return true
			}
		}
		return false
	}
	from := mc.scalar(q.From)
	to := mc.scalar(q.To)
	by := int64(1)
	if q.By != nil {
		by = mc.scalar(q.By)
		if by == 0 {
			mc.fail(ErrForStepZero, q.Pos(), "for loop step is 0")
		}
	}
	up := mc.num.unsigned || by > 0
	for v, n := from, 0; ; n++ {
		if up && mc.num.cmp(v, to) > 0 || !up && mc.num.cmp(v, to) < 0 {
			return false
		}
		if n >= maxLoopIterations {
			mc.fail(ErrLoopLimit, q.Pos(), "for loop ran more than %d iterations", maxLoopIterations)
		}
		if each(v) {
			return true
		}
		next, ok := mc.num.fit(new(big.Int).Add(mc.num.big(v), mc.num.big(by)))
		if !ok {
			return false // no further value fits in 64 bits
		}
		v = next
	}
}

// eachEntry calls act for every present entry of multiset m (with v bound
// to its index) that satisfies pred, in entry order.
func (mc *machine) eachEntry(m murphi.Expr, v *murphi.Ident, pred murphi.Expr, act func(ms *Value, k int)) {
	ms := mc.locate(m)
	defer delete(mc.env, v.Obj)
	for k := range ms.Elems {
		if ms.Elems[k] == nil {
			continue
		}
		mc.env[v.Obj] = scalar(v.Obj.Type, int64(k))
		if mc.cond(pred) {
			act(ms, k)
		}
	}
}
