package murphi

// This file evaluates, at check time, type bounds that call functions: a
// range such as 0 .. f(), where f is a pure function of constants (it reads
// and writes no state variable), is accepted with f's value, as Rumur's
// constant folding accepts bounds with calls that fold away (0 * f(),
// false ? f() : 1). The function's body is run by a small interpreter over
// scalar values, with bounded steps and depth; anything it cannot do makes
// the bound "not a constant", with the reason.

import (
	"fmt"

	"github.com/locus-mc/locus/internal/stackyield"
)

// Limits of one check-time evaluation.
const (
	foldMaxSteps = 1 << 20 // loop iterations and calls
	foldMaxDepth = 1000    // nested calls
	// foldYieldEvery is how many nested calls run between two yields of
	// the stack under js/wasm (see internal/stackyield).
	foldYieldEvery = 32
)

// folder evaluates one constant expression.
type folder struct {
	c     *Checker
	steps int
	depth int
	why   string // the first reason the expression is not constant
}

// scalar is a value in the interpreter: defined or not.
type scalar struct {
	v   int64
	def bool
}

// env holds the parameters, locals and quantified variables of one call.
type env map[*Object]scalar

// errNotConst stops an evaluation; folder.why says why.
type errNotConst struct{}

// fold evaluates the checked expression x, which the checker could not
// fold by itself. It returns false and the reason if x is not a constant.
func (c *Checker) fold(x Expr) (v int64, ok bool, why string) {
	f := &folder{c: c}
	defer func() {
		if r := recover(); r != nil {
			if _, stop := r.(errNotConst); !stop {
				panic(r)
			}
			v, ok, why = 0, false, f.why
		}
	}()
	return f.eval(x, nil), true, ""
}

// fail stops the evaluation: the expression is not constant because of what
// the message says.
func (f *folder) fail(format string, args ...any) {
	if f.why == "" {
		f.why = fmt.Sprintf(format, args...)
	}
	panic(errNotConst{})
}

func (f *folder) step() {
	f.steps++
	if f.steps > foldMaxSteps {
		f.fail("its evaluation takes more than %d steps", foldMaxSteps)
	}
}

func (f *folder) eval(x Expr, e env) int64 {
	tv := f.c.info.Types[x]
	if tv.Const {
		return tv.Value
	}
	ar := f.c.arith()
	switch x := x.(type) {
	case *ParenExpr:
		return f.eval(x.X, e)
	case *Ident:
		obj := x.Obj
		if obj == nil {
			f.fail("%s is unknown", x.Name)
		}
		if s, ok := e[obj]; ok {
			if !s.def {
				f.fail("%s is read while undefined", x.Name)
			}
			return s.v
		}
		switch obj.Kind {
		case ObjVar:
			f.fail("it reads the state variable %s", x.Name)
		case ObjLocal, ObjParam, ObjQuant:
			f.fail("%s (a %s) has no value at check time", x.Name, obj.Kind)
		}
		f.fail("%s is not a constant", x.Name)
	case *UnaryExpr:
		v := f.eval(x.X, e)
		switch x.Op {
		case NOT:
			return 1 - v
		case ADD:
			return v
		case TILDE:
			return ^v
		case SUB:
			r, err := ar.Neg(v)
			f.arithErr(err, "negation")
			return r
		}
	case *BinaryExpr:
		return f.binary(x, e)
	case *CondExpr:
		if f.eval(x.Cond, e) != 0 {
			return f.eval(x.Then, e)
		}
		return f.eval(x.Else, e)
	case *CallExpr:
		return f.call(x, e)
	}
	f.fail("%s cannot be evaluated at check time", exprString(x))
	return 0
}

func (f *folder) arithErr(err ArithErr, op string) {
	switch err {
	case ArithOverflow:
		f.fail("%s overflows", op)
	case ArithDivZero:
		f.fail("it divides by zero")
	}
}

func (f *folder) binary(x *BinaryExpr, e env) int64 {
	ar := f.c.arith()
	a := f.eval(x.X, e)
	// Short-circuit operators decide on their left operand first.
	switch {
	case x.Logical && (x.Op == AND || x.Op == LAND) && a == 0:
		return 0
	case x.Logical && (x.Op == OR || x.Op == LOR) && a != 0:
		return 1
	case x.Op == IMPLIES && a == 0:
		return 1
	}
	b := f.eval(x.Y, e)
	var r int64
	var err ArithErr
	switch x.Op {
	case ADD:
		r, err = ar.Add(a, b)
	case SUB:
		r, err = ar.Sub(a, b)
	case MUL:
		r, err = ar.Mul(a, b)
	case QUO:
		r, err = ar.Div(a, b)
	case REM:
		r, err = ar.Mod(a, b)
	case SHL:
		r = ar.Shl(a, b)
	case SHR:
		r = ar.Shr(a, b)
	case XOR:
		r = a ^ b
	case AND, LAND:
		if x.Logical {
			r = b2i(b != 0)
		} else {
			r = a & b
		}
	case OR, LOR:
		if x.Logical {
			r = b2i(b != 0)
		} else {
			r = a | b
		}
	case IMPLIES:
		r = b2i(b != 0)
	case LSS:
		r = b2i(ar.Less(a, b))
	case LEQ:
		r = b2i(!ar.Less(b, a))
	case GTR:
		r = b2i(ar.Less(b, a))
	case GEQ:
		r = b2i(!ar.Less(a, b))
	case EQL, NEQ:
		if t := f.c.info.Types[x.X].Type; t == nil || !t.IsSimple() {
			f.fail("it compares aggregates")
		}
		r = b2i((a == b) == (x.Op == EQL))
	default:
		f.fail("operator %s cannot be evaluated at check time", x.Op)
	}
	f.arithErr(err, x.Op.String())
	return r
}

// call runs a pure function on constant arguments.
func (f *folder) call(x *CallExpr, caller env) int64 {
	d := f.c.info.Calls[x]
	if d == nil || !d.IsFunc || d.Obj == nil || d.Obj.Type == nil {
		f.fail("%s is not a function", x.Func.Name)
	}
	name := d.Name.Name
	if !f.c.bodyDone[d] {
		f.fail("%s is still being declared", name)
	}
	if f.c.info.WritesGlobal[d] {
		f.fail("%s changes the state", name)
	}
	if !d.Obj.Type.IsSimple() {
		f.fail("%s returns a %s", name, d.Obj.Type)
	}
	f.step()
	f.depth++
	if f.depth > foldMaxDepth {
		f.fail("its calls nest more than %d deep", foldMaxDepth)
	}
	if f.depth%foldYieldEvery == 0 {
		// Any path down the calls yields within foldYieldEvery of them.
		stackyield.Yield()
	}
	e := env{}
	i := 0
	for _, prm := range d.Params {
		for _, n := range prm.Names {
			if prm.Var {
				f.fail("%s has a var parameter", name)
			}
			if i >= len(x.Args) || n.Obj == nil {
				f.fail("the call of %s is malformed", name)
			}
			v := f.eval(x.Args[i], caller)
			f.store(n.Obj, v, "parameter "+n.Name+" of "+name, e)
			i++
		}
	}
	for _, ld := range d.Decls {
		if vd, ok := ld.(*VarDecl); ok {
			for _, n := range vd.Names {
				if n.Obj == nil || !n.Obj.Type.IsSimple() {
					f.fail("%s has a local variable of aggregate type", name)
				}
				e[n.Obj] = scalar{}
			}
		}
	}
	v, returned := f.stmts(d.Body, e)
	if !returned {
		f.fail("%s ends without returning a value", name)
	}
	if !f.c.inRange(d.Obj.Type, v) {
		f.fail("%s returns %s, outside its type %s", name, f.c.fmtInt(v), d.Obj.Type)
	}
	f.depth--
	return v
}

// store assigns v to a scalar variable of the call, checking its range.
func (f *folder) store(obj *Object, v int64, what string, e env) {
	if t := obj.Type; t == nil || !t.IsSimple() {
		f.fail("%s is not a simple value", what)
	} else if t.Kind != TInt && !f.c.inRange(t, v) {
		f.fail("%s gets %s, outside its type %s", what, f.c.fmtInt(v), t)
	}
	e[obj] = scalar{v: v, def: true}
}

// stmts runs a statement list; returned reports a return statement, with
// its value.
func (f *folder) stmts(list []Stmt, e env) (v int64, returned bool) {
	for _, s := range list {
		if v, returned = f.stmt(s, e); returned {
			return v, true
		}
	}
	return 0, false
}

func (f *folder) stmt(s Stmt, e env) (int64, bool) {
	switch s := s.(type) {
	case *AssignStmt:
		id, ok := s.Lhs.(*Ident)
		if !ok || id.Obj == nil || id.Obj.Kind != ObjLocal {
			f.fail("it assigns to %s, not to a local variable", exprString(s.Lhs))
		}
		if _, undef := s.Rhs.(*UndefinedLit); undef {
			e[id.Obj] = scalar{}
			return 0, false
		}
		f.store(id.Obj, f.eval(s.Rhs, e), id.Name, e)
	case *IfStmt:
		for _, cl := range s.Clauses {
			if f.eval(cl.Cond, e) != 0 {
				return f.stmts(cl.Body, e)
			}
		}
		return f.stmts(s.Else, e)
	case *SwitchStmt:
		v := f.eval(s.X, e)
		for _, cl := range s.Cases {
			for _, cv := range cl.Values {
				if f.eval(cv, e) == v {
					return f.stmts(cl.Body, e)
				}
			}
		}
		return f.stmts(s.Else, e)
	case *ForStmt:
		return f.loop(s.Quants, s.Body, e)
	case *WhileStmt:
		for f.eval(s.Cond, e) != 0 {
			f.step()
			if v, returned := f.stmts(s.Body, e); returned {
				return v, true
			}
		}
	case *ReturnStmt:
		if s.Result == nil {
			f.fail("it returns no value")
		}
		return f.eval(s.Result, e), true
	case *PropertyStmt:
		if s.Kind != ASSERT {
			f.fail("it has an %s statement", s.Kind)
		}
		if f.eval(s.Cond, e) == 0 {
			f.fail("an assertion fails when it is evaluated")
		}
	case *ErrorStmt:
		f.fail("it reaches an error statement")
	case *PutStmt:
		// Output only.
	default:
		f.fail("it has a statement that cannot run at check time")
	}
	return 0, false
}

// loop runs body for each combination of the quantifiers' values, the first
// quantifier outermost.
func (f *folder) loop(qs []*Quantifier, body []Stmt, e env) (int64, bool) {
	if len(qs) == 0 {
		return f.stmts(body, e)
	}
	q := qs[0]
	obj := q.Name.Obj
	if obj == nil {
		f.fail("the loop over %s is malformed", q.Name.Name)
	}
	each := func(v int64) (int64, bool) {
		f.step()
		e[obj] = scalar{v: v, def: true}
		return f.loop(qs[1:], body, e)
	}
	defer delete(e, obj)
	ar := f.c.arith()
	if q.Type != nil {
		t := obj.Type
		switch t.Kind {
		case TBool, TRange, TEnum:
		default:
			f.fail("it loops over a %s", t)
		}
		for v := t.Lo; ; v++ {
			if r, returned := each(v); returned {
				return r, true
			}
			if v == t.Hi {
				return 0, false
			}
		}
	}
	from, to := f.eval(q.From, e), f.eval(q.To, e)
	by := int64(1)
	if q.By != nil {
		by = f.eval(q.By, e)
	}
	if by == 0 {
		f.fail("a loop steps by 0")
	}
	for v := from; by > 0 && !ar.Less(to, v) || by < 0 && !ar.Less(v, to); {
		if r, returned := each(v); returned {
			return r, true
		}
		next, err := ar.Add(v, by)
		if err != ArithOK {
			return 0, false
		}
		v = next
	}
	return 0, false
}
