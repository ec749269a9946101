package compile

// This file compiles procedures, functions and calls. A call pushes a frame
// on the Machine's slot stack: [result | parameters | locals and temps].
// Value parameters are copied in (range-checked), var parameters hold the
// absolute address of their argument.

import (
	"fmt"
	"maps"

	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/internal/stackyield"
)

type proc struct {
	decl       *murphi.ProcDecl
	name       string
	isFunc     bool
	resultType *murphi.Type
	resultSize int
	resultOff  int // frame slot of the result (not 0 when inlined)
	params     []procParam
	frame      int
	init       span // local variable slots, which start undefined
	body       []stmtFn
	compiled   bool
}

type procParam struct {
	obj  *murphi.Object
	off  int
	size int
}

// procFor compiles d on first use. Recursive calls see the proc before its
// body is compiled and read its fields only at run time.
func (c *compiler) procFor(d *murphi.ProcDecl) *proc {
	if p := c.procs[d]; p != nil {
		return p
	}
	p := &proc{decl: d, name: d.Name.Name, isFunc: d.IsFunc}
	c.procs[d] = p
	if d.IsFunc && d.Obj != nil && d.Obj.Type != nil {
		p.resultType = d.Obj.Type
		p.resultSize = SlotSize(p.resultType)
	}
	// Compile in a fresh unit, saving the caller's, and in a copy of its
	// bindings: the caller may be compiling an inlined call of d (a
	// recursive d is inlined once before it calls itself), whose
	// parameters and locals are bound to the caller's frame and must stay
	// so for the rest of its body (the arguments of this very call).
	saveEnv := c.env
	c.env = maps.Clone(c.env)
	defer func() { c.env = saveEnv }()
	saveTop, saveMax, saveFn, saveLocals, saveNest := c.frameTop, c.frameMax, c.fn, c.locals, c.nest
	saveUnrolled := c.unrolled
	c.frameTop, c.frameMax, c.fn, c.nest = 0, 0, p, 0
	c.unrolled = 1 // compiled once for every call site
	c.alloc(p.resultSize)
	for _, prm := range d.Params {
		for _, n := range prm.Names {
			if n.Obj == nil {
				continue
			}
			if prm.Var {
				off := c.alloc(1)
				c.env[n.Obj] = binding{kind: bFrameRef, off: off}
				p.params = append(p.params, procParam{obj: n.Obj, off: off, size: 1})
			} else {
				size := SlotSize(n.Obj.Type)
				off := c.alloc(size)
				c.env[n.Obj] = binding{kind: bFrame, off: off}
				p.params = append(p.params, procParam{obj: n.Obj, off: off, size: size})
			}
		}
	}
	c.bindLocals(d.Decls)
	p.init = c.locals
	p.body = c.stmts(d.Body)
	p.frame = c.frameMax
	if p.frame > c.m.maxFrame {
		c.m.maxFrame = p.frame
	}
	p.compiled = true
	c.frameTop, c.frameMax, c.fn, c.locals, c.nest = saveTop, saveMax, saveFn, saveLocals, saveNest
	c.unrolled = saveUnrolled
	return p
}

// argFn stores one argument into the callee frame at base.
type argFn func(mc *Machine, base int)

// call compiles a call; the returned code runs it and returns the callee's
// frame base, where a function's result is (valid until the next call).
func (c *compiler) call(x *murphi.CallExpr) (func(mc *Machine) int, *proc) {
	d := c.info.Calls[x]
	if d == nil {
		c.fail(x.Pos(), "internal: unresolved call to %s", x.Func.Name)
	}
	c.nCalls++
	if call, p, ok := c.inline(x, d); ok {
		return call, p
	}
	p := c.procFor(d)
	var args []argFn
	for i, a := range x.Args {
		if i >= len(p.params) {
			break
		}
		args = append(args, c.arg(p, p.params[i], a))
	}
	undef := c.undef
	name := p.name
	pos := x.Pos()
	missing := &RuntimeError{Kind: ErrNoReturn, Pos: pos,
		Msg: fmt.Sprintf("function %s ended without returning a value", name)}
	deep := &RuntimeError{Kind: ErrRecursion, Pos: pos,
		Msg: fmt.Sprintf("calls nested more than %d deep (runaway recursion in %s?)", MaxCallDepth, name)}
	deepCode := &RuntimeError{Kind: ErrRecursion, Pos: pos,
		Msg: fmt.Sprintf("nested calls hold more than %d levels of code (runaway recursion in %s?)", MaxCallLevels, name)}
	// The code between the caller's frame and this call nests about as
	// deeply as the compiler did to get here, plus the call itself.
	levels := c.nest + 1
	return func(mc *Machine) int {
		mc.step(pos)
		if mc.depth >= MaxCallDepth {
			panic(deep)
		}
		if mc.levels+levels > MaxCallLevels {
			panic(deepCode)
		}
		mc.depth++
		mc.levels += levels
		if stackyield.Enabled {
			mc.sinceYield += levels
			if mc.sinceYield > yieldLevels {
				stackyield.Yield()
				mc.sinceYield = 0
			}
		}
		base := mc.sp
		need := base + p.frame
		if need > len(mc.mem) {
			mc.grow(need)
		}
		mc.sp = need
		// Locals start undefined; parameters, the result and temporaries
		// are always written before they are read.
		f := mc.mem[base+p.init.Lo : base+p.init.Hi]
		for i := range f {
			f[i] = undef
		}
		for _, a := range args {
			a(mc, base)
		}
		saveFp := mc.fp
		mc.fp = base
		returned := false
		for _, s := range p.body {
			if s(mc) {
				returned = true
				break
			}
		}
		mc.fp = saveFp
		mc.sp = base
		mc.depth--
		mc.levels -= levels
		if stackyield.Enabled {
			mc.sinceYield = max(mc.sinceYield-levels, 0)
		}
		if p.isFunc && !returned {
			panic(missing)
		}
		return base
	}, p
}

// Inlining limits: a procedure is compiled into its caller when its body
// has at most maxInlineNodes syntax nodes, and at most maxInlineDepth
// inlined calls nest.
const (
	maxInlineNodes = 400
	maxInlineDepth = 4
)

// inline compiles a call by compiling the callee's body at the call site,
// its parameters and locals in the caller's frame: a value parameter given
// a constant becomes that constant (so x[i] is a fixed slot), a var
// parameter given a fixed designator becomes that designator, and no frame
// is pushed. The call still counts as a step and as a level of nesting.
// It reports false for recursive procedures, large ones, and those with
// cover statements (each cover statement must stay one).
func (c *compiler) inline(x *murphi.CallExpr, d *murphi.ProcDecl) (func(mc *Machine) int, *proc, bool) {
	if len(c.inlining) >= maxInlineDepth || c.inlining[d] || !c.inlinable(d) {
		return nil, nil, false
	}
	p := &proc{decl: d, name: d.Name.Name, isFunc: d.IsFunc}
	if d.IsFunc && d.Obj != nil && d.Obj.Type != nil {
		p.resultType = d.Obj.Type
		p.resultSize = SlotSize(p.resultType)
	}
	// The callee's names are bound afresh here; the bindings they had (in
	// an enclosing inlined call of another procedure, say) come back after.
	saved := map[*murphi.Object]binding{}
	bind := func(obj *murphi.Object, b binding) {
		if _, ok := saved[obj]; !ok {
			old, had := c.env[obj]
			if !had {
				old.kind = bindKind(255)
			}
			saved[obj] = old
		}
		c.env[obj] = b
	}
	defer func() {
		for obj, b := range saved {
			if b.kind == bindKind(255) {
				delete(c.env, obj)
			} else {
				c.env[obj] = b
			}
		}
	}()
	p.resultOff = c.alloc(p.resultSize)
	// Arguments are evaluated in the caller's scope, before any parameter
	// is bound.
	var args []argFn
	var binds []func()
	type constArg struct {
		off int
		v   int64
	}
	var consts []constArg
	k := 0
	for _, prm := range d.Params {
		for _, n := range prm.Names {
			if n.Obj == nil {
				continue
			}
			if k >= len(x.Args) {
				return nil, nil, false
			}
			a := x.Args[k]
			k++
			obj := n.Obj
			if prm.Var {
				if pl := c.place(a); pl.kind != pDyn {
					binds = append(binds, func() { bind(obj, binding{kind: bPlace, pl: pl}) })
					continue
				}
				off := c.alloc(1)
				args = append(args, c.arg(p, procParam{obj: obj, off: off, size: 1}, a))
				binds = append(binds, func() { bind(obj, binding{kind: bFrameRef, off: off}) })
				continue
			}
			if obj.Type.IsSimple() && !hasCall(a) {
				if _, undef := a.(*murphi.UndefinedLit); !undef {
					if v := c.expr(a); v.isConst && c.fits(obj.Type, c.info.Types[a].Type, v.v) {
						off := c.alloc(1)
						consts = append(consts, constArg{off, v.v})
						binds = append(binds, func() { bind(obj, binding{kind: bConstParam, v: v.v, off: off}) })
						continue
					}
				}
			}
			size := SlotSize(obj.Type)
			off := c.alloc(size)
			args = append(args, c.arg(p, procParam{obj: obj, off: off, size: size}, a))
			binds = append(binds, func() { bind(obj, binding{kind: bFrame, off: off}) })
		}
	}
	for _, b := range binds {
		b()
	}
	saveFn, saveLocals := c.fn, c.locals
	c.fn = p
	c.inlining[d] = true
	// Locals take fresh frame slots, undefined at every call.
	c.locals = span{Lo: c.frameTop, Hi: c.frameTop}
	for _, dd := range d.Decls {
		vd, ok := dd.(*murphi.VarDecl)
		if !ok {
			continue
		}
		for _, n := range vd.Names {
			if n.Obj != nil {
				bind(n.Obj, binding{kind: bFrame, off: c.alloc(SlotSize(n.Obj.Type))})
			}
		}
	}
	c.locals.Hi = c.frameTop
	init := c.locals
	body := seq(c.stmts(d.Body))
	delete(c.inlining, d)
	c.fn, c.locals = saveFn, saveLocals

	undef := c.undef
	pos := x.Pos()
	isFunc := p.isFunc
	resOff := p.resultOff
	missing := &RuntimeError{Kind: ErrNoReturn, Pos: pos,
		Msg: fmt.Sprintf("function %s ended without returning a value", p.name)}
	deep := &RuntimeError{Kind: ErrRecursion, Pos: pos,
		Msg: fmt.Sprintf("calls nested more than %d deep (runaway recursion in %s?)", MaxCallDepth, p.name)}
	return func(mc *Machine) int {
		mc.step(pos)
		if mc.depth >= MaxCallDepth {
			panic(deep)
		}
		mc.depth++
		for i := mc.fp + init.Lo; i < mc.fp+init.Hi; i++ {
			mc.mem[i] = undef
		}
		for _, a := range consts {
			mc.mem[mc.fp+a.off] = a.v
		}
		for _, a := range args {
			a(mc, mc.fp)
		}
		returned := body(mc)
		mc.depth--
		if isFunc && !returned {
			panic(missing)
		}
		return mc.fp + resOff
	}, p, true
}

// hasCall reports whether x calls a function (compiling it twice would
// compile the call twice).
func hasCall(x murphi.Expr) bool {
	found := false
	murphi.Inspect(x, func(n murphi.Node) bool {
		if _, ok := n.(*murphi.CallExpr); ok {
			found = true
		}
		return !found
	})
	return found
}

// inlinable reports whether procedure d is small and free of cover
// statements; the answer is cached.
func (c *compiler) inlinable(d *murphi.ProcDecl) bool {
	if ok, seen := c.canInline[d]; seen {
		return ok
	}
	nodes, covers := 0, false
	murphi.Inspect(d, func(n murphi.Node) bool {
		nodes++
		if s, ok := n.(*murphi.PropertyStmt); ok && s.Kind == murphi.COVER {
			covers = true
		}
		return true
	})
	ok := nodes <= maxInlineNodes && !covers
	c.canInline[d] = ok
	return ok
}

// fits reports whether the constant v of type src may be stored in a
// value of type dst without a range error.
func (c *compiler) fits(dst, src *murphi.Type, v int64) (ok bool) {
	check := c.storeCheck(dst, src, ErrRangeParam, "", murphi.NoPos)
	if check == nil {
		return true
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	check(v)
	return true
}

func (c *compiler) arg(p *proc, prm procParam, a murphi.Expr) argFn {
	off := prm.off
	if _, undef := a.(*murphi.UndefinedLit); undef {
		n := prm.size
		return func(mc *Machine, base int) {
			f := mc.mem[base+off : base+off+n]
			for i := range f {
				f[i] = mc.undef
			}
		}
	}
	pt := prm.obj.Type
	if prm.obj.VarParam {
		addr := c.place(a).addr()
		return func(mc *Machine, base int) {
			a := addr(mc) // (may move mc.mem)
			mc.mem[base+off] = int64(a)
		}
	}
	tv := c.info.Types[a]
	text := fmt.Sprintf("parameter %s of %s", prm.obj.Name, p.name)
	if !pt.IsSimple() {
		src := c.aggregate(a)
		cp := c.copier(pt, src.typ, ErrRangeParam, text, a.Pos())
		sa := src.addr()
		return func(mc *Machine, base int) { cp(mc, base+off, sa(mc)) }
	}
	check := c.storeCheck(pt, tv.Type, ErrRangeParam, text, a.Pos())
	if tv.Addressable {
		// A designator is passed raw: an undefined argument gives an
		// undefined parameter, not an error (Rumur).
		addr := c.place(a).addr()
		undef := c.undef
		return func(mc *Machine, base int) {
			k := addr(mc) // (may move mc.mem)
			v := mc.mem[k]
			if v != undef && check != nil {
				check(v)
			}
			mc.mem[base+off] = v
		}
	}
	v := c.expr(a).f()
	return func(mc *Machine, base int) {
		x := v(mc)
		if check != nil {
			check(x)
		}
		mc.mem[base+off] = x
	}
}

// callValue compiles a call to a function with a scalar result.
func (c *compiler) callValue(x *murphi.CallExpr) value {
	call, p := c.call(x)
	if p.resultType != nil && !p.resultType.IsSimple() {
		c.fail(x.Pos(), "internal: aggregate function %s used as a scalar", p.name)
	}
	undef := c.undef
	text := p.name + "(...)"
	pos := x.Pos()
	return value{fn: func(mc *Machine) int64 {
		base := call(mc)
		v := mc.mem[base]
		if v == undef {
			undefinedRead(mc, base, text, pos)
		}
		return v
	}}
}

// callAggregate compiles a call to a function with a record or array result,
// copying the result into a temp in the caller's frame.
func (c *compiler) callAggregate(x *murphi.CallExpr) place {
	call, p := c.call(x)
	n := p.resultSize
	tmp := c.alloc(n)
	return place{kind: pDyn, typ: p.resultType, text: p.name + "(...)", fn: func(mc *Machine) int {
		base := call(mc)
		copy(mc.mem[mc.fp+tmp:mc.fp+tmp+n], mc.mem[base:base+n])
		return mc.fp + tmp
	}}
}

// callStmt compiles a call used as a statement (a function's result is discarded).
func (c *compiler) callStmt(x *murphi.CallExpr) func(mc *Machine) {
	call, _ := c.call(x)
	return func(mc *Machine) { call(mc) }
}
