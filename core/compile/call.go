package compile

// This file compiles procedures, functions and calls. A call pushes a frame
// on the Machine's slot stack: [result | parameters | locals and temps].
// Value parameters are copied in (range-checked), var parameters hold the
// absolute address of their argument.

import (
	"fmt"

	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/internal/stackyield"
)

type proc struct {
	decl       *murphi.ProcDecl
	name       string
	isFunc     bool
	resultType *murphi.Type
	resultSize int
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
	// Compile in a fresh unit, saving the caller's.
	saveTop, saveMax, saveFn, saveLocals, saveNest := c.frameTop, c.frameMax, c.fn, c.locals, c.nest
	c.frameTop, c.frameMax, c.fn, c.nest = 0, 0, p, 0
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
	p := c.procFor(d)
	c.nCalls++
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
		return func(mc *Machine, base int) { mc.mem[base+off] = int64(addr(mc)) }
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
			v := mc.mem[addr(mc)]
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
