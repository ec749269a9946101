// Package wasmgen compiles a Murphi model to a WebAssembly module at run
// time: the rules' guards and bodies, the invariants and assumptions, and a
// breadth-first search over them (unpack, expand, reduce by symmetry as
// core/symmetry does, pack, hash, probe, queue), so that a browser's (or
// wazero's) compiler turns the model itself into machine code instead of
// interpreting core/compile's closures through Go's wasm output.
//
// The generator covers a subset of the language: the one the benchmark
// models use (simple types and unions of them, records, arrays, rulesets,
// alias rules, procedures and functions with simple results, each a wasm
// function, recursive too within bounds checked at run time, quantifiers,
// for loops with constant bounds, if, switch, alias, clear, undefine,
// assert, error), and the search's options: symmetry reduction, hash
// compaction (Options.Compact), several errors (Options.MaxErrors). A
// model outside it is refused with an *Unsupported error, and the caller
// runs the closures instead.
//
// The generated code follows core/compile's semantics on every path that
// raises no run-time error, and traps (wasm's unreachable) whenever the
// closures would raise one, and more often only at bounds of its own
// (recursion's, which mark the info area): a trap makes the caller redo
// the run with the closures, which report the error exactly. So a trap
// can cost time, never correctness; the tests hold any other trap where
// the closures report no error to be a bug.
package wasmgen

import (
	"fmt"
	"math"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
)

// Unsupported is a construct the generator does not cover.
type Unsupported struct {
	Pos  murphi.Position
	What string
}

func (e *Unsupported) Error() string {
	if e.Pos.Line > 0 {
		return fmt.Sprintf("%s: %s", e.Pos, e.What)
	}
	return e.What
}

// undef is the slot value of an undefined leaf (signed models only).
const undef = math.MinInt64

// stepLimit and loopLimit are the closures' run-time bounds; code that
// could reach them is not generated.
const (
	stepLimit = compile.DefaultStepLimit
	loopLimit = compile.MaxLoopIterations
)

type bindKind uint8

const (
	bConst bindKind = iota // a constant value
	bState                 // a state variable's first slot (in the unit's state)
	bPlace                 // a place fixed when the binding was made
)

type binding struct {
	kind bindKind
	v    int64
	slot int
	pl   place
	// lv, for a loop variable, is its value's copy in a local of the
	// function lf, which reads it there: never undefined, and in
	// [lo, hi], so indexing by it needs no check where the index type
	// covers that range. (Its frame slot is still written, for the
	// places that need an address.)
	lv *loopVar
	// pv, for a scalar value parameter, is the local of function pv.lf
	// that holds it, which reads check for undefined. (Its frame slot
	// is written on entry if some place needs its address.)
	pv *paramVal
}

type paramVal struct {
	lf    *fn
	local uint32
}

type loopVar struct {
	lf     *fn
	local  uint32
	lo, hi int64
}

// place is a designator: its byte address, known when generating (static)
// or computed by code (dyn pushes it as an i32).
type place struct {
	static bool
	addr   uint32
	dyn    func(u *unit)
	typ    *murphi.Type
	// reach says where a computed place may lie, for the record of the
	// state slots a rule writes (see wrote): anywhere (placeAnywhere, the
	// zero value, so a place made without thought is taken to be any),
	// in a frame, at a procedure's parameter, or in [lo, hi).
	reach  placeReach
	lo, hi uint32
}

type placeReach uint8

const (
	placeAnywhere placeReach = iota
	placeFrame
	placeParam
	placeWithin
)

// within is a computed place somewhere in p (an element of an array at a
// computed index).
func (p place) within() (placeReach, uint32, uint32) {
	if p.static {
		return placeWithin, p.addr, p.addr + uint32(8*compile.SlotSize(p.typ))
	}
	return p.reach, p.lo, p.hi
}

func (p place) push(u *unit) {
	if p.static {
		u.f.i32Const(int32(p.addr))
		return
	}
	p.dyn(u)
}

// offset returns the place k slots further.
func (p place) offset(k int) place {
	if k == 0 {
		return p
	}
	if p.static {
		p.addr += uint32(8 * k)
		return p
	}
	d := p.dyn
	p.dyn = func(u *unit) {
		d(u)
		u.f.i32Const(int32(8 * k))
		u.f.i32Add()
	}
	return p
}

// gen holds what the whole module's generation shares.
type gen struct {
	m    *compile.Model
	ck   *murphi.Checked
	info *murphi.Info
	env  map[*murphi.Object]binding
	mod  *module
	lay  layout
	// copyCur copies the current state's slots to the working state's.
	copyCur *fn
	frame   int // slots of the largest frame
	// procs are the procedures' and functions' wasm functions;
	// generating marks those being generated (a call back is recursion).
	procs      map[procKey]*procFn
	generating map[procKey]bool
	// rec is set where the model's procedures and functions call
	// themselves, directly or not (see recursion.go).
	rec *recursion
	// ruleWrites are the slots each rule instance's body may write, in
	// the order of the rules' functions.
	ruleWrites []slotSet
	// gDirty is the global (i64) whose bit k says that a rule may have
	// written the working slots of group k (the bytes from the working
	// state's start whose offset >> dirtyShift is k): packFrom compares
	// only those groups' slots with the current ones. Bodies set it as
	// they write; a bit set for an address outside the state only costs
	// a group's compares, never a missed one.
	gDirty     uint32
	dirtyShift uint
	// gAssumed (i32) is set by an assume statement that failed in a
	// procedure or function called from a rule's body; each caller
	// returns at once, and the rule with statusAssumed (clearing it), as
	// core/compile's assumeAbort unwinds to the rule. Made on first use
	// (see assumed): a model without such a statement has no such global.
	gAssumed   uint32
	hasAssumed bool
	// sortEntries sorts a multiset's entries (see sortEntriesFunc).
	sortEntries *fn
	// coverIndex is each cover statement's index in Model.CoverStmts.
	coverIndex map[murphi.Pos]int
}

// assumed returns gAssumed, adding it to the module on first use.
func (g *gen) assumed() uint32 {
	if !g.hasAssumed {
		g.gAssumed = g.mod.addGlobal(i32, 0)
		g.hasAssumed = true
	}
	return g.gAssumed
}

// dirtyGroups is the shift that puts n slots in at most 64 groups of at
// least 8 (a cache line of slots).
func dirtyGroups(n int) uint {
	sh := uint(6)
	for 8*n > 64<<sh {
		sh++
	}
	return sh
}

func (g *gen) fail(pos murphi.Pos, format string, args ...any) {
	var at murphi.Position
	if pos != murphi.NoPos {
		at = g.m.Position(pos)
	}
	panic(&Unsupported{Pos: at, What: fmt.Sprintf(format, args...)})
}

// unit generates one function: a guard, a body, a property.
type unit struct {
	g        *gen
	f        *fn
	state    uint32 // byte address of the state slots the unit works on
	frameTop int
	tmp      uint32 // a scratch i64 local for checked reads
	depth    int    // wasm blocks open at statement level
	retDepth int    // depth of the block a return leaves
	frameMax int    // frame slots used, with callees'
	// fp is the local holding the frame's address in a procedure or
	// function, -1 in rules and properties (whose frame is fixed).
	fp int32
	// resultType is a function's result type (nil elsewhere);
	// resultPlace, where a function whose result is a record or an
	// array writes it (its caller's frame).
	resultType  *murphi.Type
	resultPlace place
	weight      uint64 // iterations of the enclosing loops
	steps       uint64 // loop iterations and calls, at most, per execution
	inRule      bool   // a rule body: an assume statement returns status 2
	inGuard     bool   // a rule's guard: a failed assume disables the rule
	// quantExit is the depth of the outermost loop's exit block of the
	// quantified expression being generated.
	quantExit int
	// writes are the state slots the unit's statements may write (with
	// the procedures' they call); writesAll: any of them.
	writes    []bool
	writesAll bool
	// assumes: the unit's code may set gAssumed (an assume statement in
	// a procedure, or a call of one that may).
	assumes bool
}

// wrote records that the unit's code may write p. A procedure's
// parameter is recorded by its callers, which know the argument.
func (u *unit) wrote(p place) {
	reach, lo, hi := p.within()
	switch reach {
	case placeFrame, placeParam:
		return
	case placeAnywhere:
		u.writesAll = true
		return
	}
	end := u.state + uint32(8*len(u.writes))
	if hi <= u.state || lo >= end {
		return // a frame slot at a fixed address
	}
	lo, hi = max(lo, u.state), min(hi, end)
	for a := lo; a < hi; a += 8 {
		u.writes[(a-u.state)/8] = true
	}
}

// dirty sets at run time the dirty bits (see gen.gDirty) of the n slots
// of p, whose address is in local a (or -1 if p is static): a body's
// write to the working state, or a variable argument its callee may
// write.
func (u *unit) dirty(p place, a int32, n int) {
	g := u.g
	if u.state != g.lay.work {
		return // guards and properties write no state
	}
	reach, lo, hi := p.within()
	end := g.lay.work + uint32(8*g.m.NumSlots)
	switch {
	case reach == placeFrame || reach == placeParam:
		return // a frame; or a parameter, which the caller marked
	case reach == placeWithin && (hi <= g.lay.work || lo >= end):
		return // a frame slot at a fixed address
	}
	if p.static {
		u.dirtyBytes(max(p.addr, g.lay.work)-g.lay.work, min(p.addr+uint32(8*n), end)-g.lay.work)
		return
	}
	f := u.f
	f.globalGet(g.gDirty)
	// bits first to last: 2<<last - 1<<first (2<<63 is 0 in wasm, and
	// the difference still the bits from first up)
	shift := func(off int32) {
		f.get(uint32(a))
		if off != 0 {
			f.i32Const(off)
			f.i32Add()
		}
		f.i32Const(int32(g.lay.work))
		f.i32Sub()
		f.i32Const(int32(g.dirtyShift))
		f.i32ShrU()
		f.i64ExtendI32U()
		f.i64Shl()
	}
	if n == 1 {
		// One slot: 8-aligned, never across two groups (dirtyShift >= 6).
		f.i64Const(1)
		shift(0)
		f.i64Or()
		f.globalSet(g.gDirty)
		return
	}
	f.i64Const(2)
	shift(int32(8*n - 1))
	f.i64Const(1)
	shift(0)
	f.i64Sub()
	f.i64Or()
	f.globalSet(g.gDirty)
}

// dirtyBytes sets the dirty bits of the working state's bytes lo to hi
// (exclusive; offsets from its start).
func (u *unit) dirtyBytes(lo, hi uint32) {
	g, f := u.g, u.f
	first := uint64(lo) >> g.dirtyShift
	last := uint64(hi-1) >> g.dirtyShift
	f.globalGet(g.gDirty)
	f.i64Const(bitsOf(2<<last - 1<<first))
	f.i64Or()
	f.globalSet(g.gDirty)
}

// wroteAll records the writes of a procedure the unit calls.
func (u *unit) wroteAll(writes []bool, all bool) {
	u.writesAll = u.writesAll || all
	for i, w := range writes {
		u.writes[i] = u.writes[i] || w
	}
}

// leaveAssumed returns from the unit's function once gAssumed is set: a
// rule's body with statusAssumed, its guard with ruleDisabled (Rumur's
// guard returns without an error), each clearing the flag; a procedure
// or function at once (a function's value is never used).
func (u *unit) leaveAssumed() {
	f := u.f
	u.assumes = true
	switch {
	case u.inRule, u.inGuard:
		f.i32Const(0)
		f.globalSet(u.g.assumed())
		if u.inRule {
			f.i32Const(statusAssumed)
		} else {
			f.i32Const(ruleDisabled)
		}
	case u.resultType != nil && u.resultType.IsSimple():
		f.i64Const(0)
	}
	f.return_()
}

func (g *gen) newUnit(f *fn, state uint32) *unit {
	return &unit{g: g, f: f, state: state, tmp: f.local(i64), weight: 1, fp: -1, writes: make([]bool, g.m.NumSlots)}
}

// alloc reserves n frame slots and returns the first.
func (u *unit) alloc(n int) int {
	off := u.frameTop
	u.frameTop += n
	u.reserve(u.frameTop)
	return off
}

// reserve notes that the unit's frame, with what its callees use, reaches
// n slots.
func (u *unit) reserve(n int) {
	u.frameMax = max(u.frameMax, n)
	if u.fp < 0 {
		u.g.frame = max(u.g.frame, n)
	}
}

// frame returns the place of a frame slot: at a fixed address in rules and
// properties, from the frame parameter in procedures and functions.
func (u *unit) frame(slot int, typ *murphi.Type) place {
	if u.fp < 0 {
		return place{static: true, addr: u.g.lay.frame + uint32(8*slot), typ: typ}
	}
	fp := uint32(u.fp)
	return place{typ: typ, reach: placeFrame, dyn: func(u *unit) {
		u.f.get(fp)
		if slot > 0 {
			u.f.i32Const(int32(8 * slot))
			u.f.i32Add()
		}
	}}
}

// step counts n iterations (or calls) at the current nesting.
func (u *unit) step(n uint64, pos murphi.Pos) {
	if n > loopLimit {
		u.g.fail(pos, "a loop of %d iterations (more than %d)", n, loopLimit)
	}
	u.addSteps(n, pos)
}

// addSteps counts n steps (iterations, or a call and its callee's steps)
// at the current nesting, refusing code that could pass the closures'
// step limit.
func (u *unit) addSteps(n uint64, pos murphi.Pos) {
	u.steps += u.weight * n
	if u.weight > stepLimit || u.steps > stepLimit {
		u.g.fail(pos, "loops that may run more than %d iterations per rule", stepLimit)
	}
}

// trapIf traps when the i32 on the stack is non-zero.
func (u *unit) trapIf() {
	u.f.if_()
	u.f.unreachable()
	u.f.end()
}

// ---------------------------------------------------------------------------
// Designators

func (u *unit) place(x murphi.Expr) place {
	g := u.g
	tv := g.info.Types[x]
	switch x := x.(type) {
	case *murphi.ParenExpr:
		return u.place(x.X)
	case *murphi.Ident:
		b, ok := g.env[x.Obj]
		if !ok {
			g.fail(x.Pos(), "%s has no storage", x.Name)
		}
		switch b.kind {
		case bState:
			return place{static: true, addr: u.state + uint32(8*b.slot), typ: tv.Type}
		case bPlace:
			p := b.pl
			p.typ = tv.Type
			return p
		}
		g.fail(x.Pos(), "%s is not a variable", x.Name)
	case *murphi.FieldExpr:
		base := u.place(x.X)
		i := base.typ.FieldIndex(x.Field.Name)
		p := base.offset(compile.FieldOffset(base.typ, i))
		p.typ = base.typ.Fields[i].Type
		return p
	case *murphi.IndexExpr:
		base := u.place(x.X)
		// An array's elements; a multiset's entries, each after its
		// presence flag (skip).
		var it *murphi.Type
		var size, skip int
		switch base.typ.Kind {
		case murphi.TArray:
			it, size = base.typ.Index, compile.SlotSize(base.typ.Elem)
		case murphi.TMultiset:
			it, size, skip = entryIndex(base.typ), entrySlots(base.typ), 1
		default:
			g.fail(x.Pos(), "indexing a %s", base.typ)
		}
		elem := base.typ.Elem
		v, ok := u.constant(x.Index)
		if !ok {
			v, ok = u.constIdent(x.Index)
		}
		if ok {
			k, in := indexPosition(it, v)
			if !in {
				// Always out of range: the closures raise an error.
				return place{dyn: func(u *unit) { u.f.unreachable() }, typ: elem, reach: placeFrame}
			}
			p := base.offset(int(k)*size + skip)
			p.typ = elem
			return p
		}
		idx := x.Index
		reach, lo, hi := base.within()
		return place{typ: elem, reach: reach, lo: lo, hi: hi, dyn: func(u *unit) {
			f := u.f
			t := f.local(i64)
			base.push(u)
			u.indexPosition(it, idx, t)
			f.i32WrapI64()
			f.i32Const(int32(8 * size))
			f.i32Mul()
			f.i32Add()
			if skip > 0 {
				f.i32Const(int32(8 * skip))
				f.i32Add()
			}
		}}
	}
	g.fail(x.Pos(), "%s is not a designator the generator covers", murphi.ExprString(x))
	return place{}
}

// constant returns the value of x if it is a constant that skips nothing
// that runs: the checker also folds x*0, 0*x, 0/x and 0%x when x is not
// constant, but a rule still evaluates x, and reading it may fail (as
// core/compile's constant).
func (u *unit) constant(x murphi.Expr) (int64, bool) { return u.g.constant(x) }

func (g *gen) constant(x murphi.Expr) (int64, bool) {
	tv := g.info.Types[x]
	if !tv.Const || tv.Type == nil || !tv.Type.IsSimple() {
		return 0, false
	}
	found := false
	murphi.Inspect(x, func(n murphi.Node) bool {
		if b, ok := n.(*murphi.BinaryExpr); ok && (b.Op == murphi.MUL || b.Op == murphi.QUO || b.Op == murphi.REM) {
			if !g.info.Types[b.X].Const || !g.info.Types[b.Y].Const {
				found = true
			}
		}
		return !found
	})
	if found {
		return 0, false
	}
	return tv.Value, true
}

// unparen returns x without the parentheses around it.
func unparen(x murphi.Expr) murphi.Expr {
	for {
		p, ok := x.(*murphi.ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

// loopVar returns the loop variable x names (in parentheses or not), if
// its value is in a local of the function being generated.
func (u *unit) loopVar(x murphi.Expr) *loopVar {
	id, ok := unparen(x).(*murphi.Ident)
	if !ok || id.Obj == nil || id.Obj.Kind != murphi.ObjQuant {
		return nil
	}
	b, ok := u.g.env[id.Obj]
	if !ok || b.lv == nil || b.lv.lf != u.f {
		return nil
	}
	return b.lv
}

// paramLocal returns the local holding the scalar value parameter x names
// (in parentheses or not), if it is one of the function being generated.
func (u *unit) paramLocal(x murphi.Expr) (uint32, bool) {
	id, ok := unparen(x).(*murphi.Ident)
	if !ok || id.Obj == nil {
		return 0, false
	}
	b, ok := u.g.env[id.Obj]
	if !ok || b.pv == nil || b.pv.lf != u.f {
		return 0, false
	}
	return b.pv.local, true
}

// constIdent reports the value of x if it names a constant binding (a
// ruleset parameter).
func (u *unit) constIdent(x murphi.Expr) (int64, bool) { return u.g.constIdent(x) }

func (g *gen) constIdent(x murphi.Expr) (int64, bool) {
	id, ok := unparen(x).(*murphi.Ident)
	if !ok {
		return 0, false
	}
	if id.Obj.Kind == murphi.ObjConst {
		return id.Obj.Value, true
	}
	b, ok := g.env[id.Obj]
	return b.v, ok && b.kind == bConst
}

// read pushes the value of a scalar place, trapping if it is undefined.
func (u *unit) read(p place) {
	f := u.f
	p.push(u)
	f.i64Load(0)
	f.tee(u.tmp)
	f.i64Const(undef)
	f.i64Eq()
	u.trapIf()
	f.get(u.tmp)
}

// ---------------------------------------------------------------------------
// Scalar expressions push an i64.

func (u *unit) expr(x murphi.Expr) {
	g := u.g
	f := u.f
	tv := g.info.Types[x]
	if v, ok := u.constant(x); ok {
		f.i64Const(v)
		return
	}
	if tv.Type != nil && tv.Type.Kind == murphi.TBool && compile.CondNative(x) {
		u.cond(x)
		f.i64ExtendI32U()
		return
	}
	switch x := x.(type) {
	case *murphi.ParenExpr:
		u.expr(x.X)
		return
	case *murphi.Ident:
		if v, ok := u.constIdent(x); ok {
			f.i64Const(v)
			return
		}
		if lv := u.loopVar(x); lv != nil {
			f.get(lv.local)
			return
		}
		if pv, ok := u.paramLocal(x); ok {
			f.get(pv)
			f.i64Const(undef)
			f.i64Eq()
			u.trapIf()
			f.get(pv)
			return
		}
		u.read(u.place(x))
		return
	case *murphi.IntLit:
		f.i64Const(int64(x.Value))
		return
	case *murphi.IndexExpr, *murphi.FieldExpr:
		u.read(u.place(x))
		return
	case *murphi.UnaryExpr:
		switch x.Op {
		case murphi.ADD:
			u.expr(x.X)
			return
		case murphi.SUB:
			t := f.local(i64)
			u.expr(x.X)
			f.tee(t)
			f.i64Const(math.MinInt64)
			f.i64Eq()
			u.trapIf()
			f.i64Const(0)
			f.get(t)
			f.i64Sub()
			return
		case murphi.TILDE:
			u.expr(x.X)
			f.i64Const(-1)
			f.i64Xor()
			return
		}
	case *murphi.BinaryExpr:
		u.binary(x)
		return
	case *murphi.CondExpr:
		u.cond(x.Cond)
		f.ifResult(i64)
		u.expr(x.Then)
		f.else_()
		u.expr(x.Else)
		f.end()
		return
	case *murphi.CallExpr:
		u.funcCall(x)
		return
	case *murphi.MultisetCountExpr:
		u.multisetCount(x)
		return
	}
	g.fail(x.Pos(), "the expression %s", murphi.ExprString(x))
}

func (u *unit) binary(x *murphi.BinaryExpr) {
	f := u.f
	a, b, r := f.local(i64), f.local(i64), f.local(i64)
	u.expr(x.X)
	f.set(a)
	u.expr(x.Y)
	f.set(b)
	switch x.Op {
	case murphi.ADD, murphi.SUB:
		f.get(a)
		f.get(b)
		if x.Op == murphi.ADD {
			f.i64Add()
			f.set(r)
			// (a^r)&(b^r) < 0: the sign flipped against both operands.
			f.get(a)
			f.get(r)
			f.i64Xor()
			f.get(b)
			f.get(r)
			f.i64Xor()
		} else {
			f.i64Sub()
			f.set(r)
			// (a^b)&(a^r) < 0
			f.get(a)
			f.get(b)
			f.i64Xor()
			f.get(a)
			f.get(r)
			f.i64Xor()
		}
		f.i64And()
		f.i64Const(0)
		f.i64LtS()
		u.trapIf()
		f.get(r)
	case murphi.MUL:
		f.get(a)
		f.get(b)
		f.i64Mul()
		f.set(r)
		// Overflow iff b = -1 and a = MinInt64, or b is neither 0 nor -1
		// and r/b != a: a wrapped product differs from a*b by a multiple
		// of 2^64, which no remainder of a division by b reaches. (r/b
		// would itself trap on MinInt64 / -1, hence the split.)
		f.get(b)
		f.i64Eqz()
		f.i32Eqz()
		f.if_()
		f.get(b)
		f.i64Const(-1)
		f.i64Eq()
		f.if_()
		f.get(a)
		f.i64Const(math.MinInt64)
		f.i64Eq()
		u.trapIf()
		f.else_()
		f.get(r)
		f.get(b)
		f.i64DivS()
		f.get(a)
		f.i64Ne()
		u.trapIf()
		f.end()
		f.end()
		f.get(r)
	case murphi.QUO:
		f.get(a)
		f.get(b)
		f.i64DivS() // traps on 0 and on MinInt64 / -1, as the closures fail
	case murphi.REM:
		f.get(a)
		f.get(b)
		f.i64RemS() // traps on 0; x % -1 = 0, as the closures
	case murphi.XOR, murphi.AND, murphi.OR:
		if x.Logical {
			u.g.fail(x.Pos(), "logical %s as a value", x.Op)
		}
		f.get(a)
		f.get(b)
		switch x.Op {
		case murphi.XOR:
			f.i64Xor()
		case murphi.AND:
			f.i64And()
		default:
			f.i64Or()
		}
	case murphi.SHL, murphi.SHR:
		// As murphi.Arith's Shl and Shr: a negative count shifts the
		// other way, and a count of 64 or more (MinInt64's magnitude is
		// one) gives 0; wasm's shifts take the count modulo 64.
		neg, n := f.local(i32), f.local(i64)
		f.get(b)
		f.i64Const(0)
		f.i64LtS()
		f.set(neg)
		f.i64Const(0)
		f.get(b)
		f.i64Sub()
		f.get(b)
		f.get(neg)
		f.select_()
		f.set(n)
		f.get(a)
		f.get(n)
		f.i64Shl()
		f.get(a)
		f.get(n)
		f.i64ShrS()
		f.get(neg) // shift left: << by a count not negative, or >> by one negative
		if x.Op == murphi.SHL {
			f.i32Eqz()
		}
		f.select_()
		f.i64Const(0)
		f.get(n)
		f.i64Const(64)
		f.i64LtU()
		f.select_()
	default:
		u.g.fail(x.Pos(), "the operator %s", x.Op)
	}
}

// ---------------------------------------------------------------------------
// Conditions push an i32 (0 or 1).

func (u *unit) cond(x murphi.Expr) {
	g := u.g
	f := u.f
	if v, ok := u.constant(x); ok {
		if v != 0 {
			f.i32Const(1)
		} else {
			f.i32Const(0)
		}
		return
	}
	switch x := x.(type) {
	case *murphi.ParenExpr:
		u.cond(x.X)
		return
	case *murphi.UnaryExpr:
		if x.Op == murphi.NOT {
			u.cond(x.X)
			f.i32Eqz()
			return
		}
	case *murphi.BinaryExpr:
		if u.condBinary(x) {
			return
		}
	case *murphi.QuantExpr:
		u.quantExpr(x)
		return
	case *murphi.IsUndefinedExpr:
		if pv, ok := u.paramLocal(x.X); ok {
			f.get(pv)
			f.i64Const(undef)
			f.i64Eq()
			return
		}
		p := u.place(x.X)
		if !p.typ.IsSimple() {
			g.fail(x.Pos(), "isundefined of an aggregate")
		}
		p.push(u)
		f.i64Load(0)
		f.i64Const(undef)
		f.i64Eq()
		return
	case *murphi.IsMemberExpr:
		mt := u.memberType(x.Type)
		t := f.local(i64)
		u.expr(x.X)
		f.set(t)
		pushInRange(f, t, mt.Lo, mt.Hi)
		return
	}
	u.expr(x)
	f.i64Const(0)
	f.i64Ne()
}

func (u *unit) memberType(t murphi.TypeExpr) *murphi.Type {
	switch t := t.(type) {
	case *murphi.NamedType:
		if t.Name.Obj != nil && t.Name.Obj.Type.Kind != murphi.TUnion {
			return t.Name.Obj.Type
		}
	case *murphi.BooleanType:
		return murphi.BoolType
	}
	u.g.fail(t.Pos(), "ismember of this type")
	return nil
}

func (u *unit) condBinary(x *murphi.BinaryExpr) bool {
	f := u.f
	switch x.Op {
	case murphi.LAND, murphi.AND, murphi.LOR, murphi.OR, murphi.IMPLIES:
		if (x.Op == murphi.AND || x.Op == murphi.OR) && !x.Logical {
			return false
		}
		u.cond(x.X)
		f.ifResult(i32)
		switch x.Op {
		case murphi.LOR, murphi.OR:
			f.i32Const(1)
			f.else_()
			u.cond(x.Y)
		case murphi.IMPLIES:
			u.cond(x.Y)
			f.else_()
			f.i32Const(1)
		default:
			u.cond(x.Y)
			f.else_()
			f.i32Const(0)
		}
		f.end()
		return true
	case murphi.EQL, murphi.NEQ:
		if !u.g.info.Types[x.X].Type.IsSimple() {
			u.aggregateEq(x)
			return true
		}
		fallthrough
	case murphi.LSS, murphi.LEQ, murphi.GTR, murphi.GEQ:
		u.expr(x.X)
		u.expr(x.Y)
		switch x.Op {
		case murphi.EQL:
			f.i64Eq()
		case murphi.NEQ:
			f.i64Ne()
		case murphi.LSS:
			f.i64LtS()
		case murphi.LEQ:
			f.i64LeS()
		case murphi.GTR:
			f.i64GtS()
		default:
			f.i64GeS()
		}
		return true
	}
	return false
}

// aggregateEq compares records or arrays slot by slot, undefined slots
// included (as the closures).
func (u *unit) aggregateEq(x *murphi.BinaryExpr) {
	f := u.f
	n := compile.SlotSize(u.g.info.Types[x.X].Type)
	pa, pb := u.aggregate(x.X), u.aggregate(x.Y)
	a, b := f.local(i32), f.local(i32)
	pa.push(u)
	f.set(a)
	pb.push(u)
	f.set(b)
	f.i32Const(1)
	for i := 0; i < n; i++ {
		f.get(a)
		f.i64Load(uint32(8 * i))
		f.get(b)
		f.i64Load(uint32(8 * i))
		f.i64Eq()
		f.i32And()
	}
	if x.Op == murphi.NEQ {
		f.i32Eqz()
	}
}

// aggregate returns the place of an aggregate-valued expression: a
// variable's, or a frame temporary holding a function's result or the
// chosen arm of a conditional (as core/compile's aggregate).
func (u *unit) aggregate(x murphi.Expr) place {
	switch x := x.(type) {
	case *murphi.ParenExpr:
		return u.aggregate(x.X)
	case *murphi.CallExpr:
		return u.callAggregate(x)
	case *murphi.CondExpr:
		t := u.g.info.Types[x].Type
		n := compile.SlotSize(t)
		tmp := u.frame(u.alloc(n), t)
		f := u.f
		u.cond(x.Cond)
		f.if_()
		u.copyRaw(tmp, u.aggregate(x.Then), n)
		f.else_()
		u.copyRaw(tmp, u.aggregate(x.Else), n)
		f.end()
		return tmp
	}
	if !u.g.info.Types[x].Addressable {
		u.g.fail(x.Pos(), "an aggregate value that is not a variable")
	}
	return u.place(x)
}

// copyRaw copies n slots from src to the frame temporary dst, undefined
// ones too, with no check (the value is checked where it is stored).
func (u *unit) copyRaw(dst, src place, n int) {
	f := u.f
	d, s := f.local(i32), f.local(i32)
	dst.push(u)
	f.set(d)
	src.push(u)
	f.set(s)
	f.copyWords(func() { f.get(d) }, func() { f.get(s) }, 8*n, unrollCopy)
}

// quantValues returns the bounds of a quantifier with constant bounds and
// step 1 (typed quantifiers, or ranges written with constants); ok is
// false for other ranges, which dynLoop runs.
func (u *unit) quantValues(q *murphi.Quantifier) (lo, hi int64, ok bool) {
	if q.Type != nil {
		t := q.Name.Obj.Type
		if t.Kind == murphi.TUnion {
			return 0, int64(t.Count()) - 1, true // positions: see loop
		}
		return t.Lo, t.Hi, true
	}
	from, ok1 := u.constOf(q.From)
	to, ok2 := u.constOf(q.To)
	by, ok3 := int64(1), true
	if q.By != nil {
		by, ok3 = u.constOf(q.By)
	}
	if !ok1 || !ok2 || !ok3 || by != 1 {
		return 0, 0, false
	}
	return from, to, true
}

// valueRange returns the least and greatest value x may have: its own if
// it is constant; a loop variable's, of a loop with constant bounds; a
// sum's or difference's, from its operands'; else its type's if that is a
// range (a read of an undefined value traps first). ok is false where
// none is known (or a bound would overflow).
func (u *unit) valueRange(x murphi.Expr) (lo, hi int64, ok bool) {
	if v, ok := u.constOf(x); ok {
		return v, v, true
	}
	if lv := u.loopVar(x); lv != nil {
		return lv.lo, lv.hi, true
	}
	if b, isBin := unparen(x).(*murphi.BinaryExpr); isBin && (b.Op == murphi.ADD || b.Op == murphi.SUB) {
		alo, ahi, ok1 := u.valueRange(b.X)
		blo, bhi, ok2 := u.valueRange(b.Y)
		if ok1 && ok2 {
			if b.Op == murphi.SUB {
				blo, bhi = -bhi, -blo
				if blo == math.MinInt64 || bhi == math.MinInt64 {
					return 0, 0, false
				}
			}
			lo, e1 := murphi.Arith{}.Add(alo, blo)
			hi, e2 := murphi.Arith{}.Add(ahi, bhi)
			if e1 == murphi.ArithOK && e2 == murphi.ArithOK {
				return lo, hi, true
			}
		}
	}
	if t := u.g.info.Types[x].Type; t != nil && t.Kind == murphi.TRange {
		return t.Lo, t.Hi, true
	}
	return 0, 0, false
}

// dynIterations bounds the iterations of a loop that dynLoop runs, for
// the step limit (see addSteps): from the ranges of its bounds and step
// where they are known (valueRange), else the closures' limit on one
// loop, past which both fail. For each sign the step may take, the widest
// span of the bounds over the smallest step of that sign; a step of 0
// fails before the first iteration.
func (u *unit) dynIterations(q *murphi.Quantifier) uint64 {
	byLo, byHi, ok := int64(1), int64(1), true
	if q.By != nil {
		byLo, byHi, ok = u.valueRange(q.By)
	}
	fromLo, fromHi, ok1 := u.valueRange(q.From)
	toLo, toHi, ok2 := u.valueRange(q.To)
	if !ok || !ok1 || !ok2 {
		return loopLimit
	}
	up, down := byHi > 0 && toHi >= fromLo, byLo < 0 && fromHi >= toLo
	if !up && !down {
		return 0 // the first value is past the last already
	}
	var span uint64
	if up {
		span = uint64(toHi-fromLo) / uint64(max(byLo, 1))
	}
	if down {
		// -MinInt64 wraps to itself: 2^63 as a uint64
		span = max(span, uint64(fromHi-toLo)/uint64(max(-byHi, 1)))
	}
	return min(span+1, loopLimit)
}

// constOf returns the value of x if it is constant.
func (u *unit) constOf(x murphi.Expr) (int64, bool) { return u.g.constOf(x) }

func (g *gen) constOf(x murphi.Expr) (int64, bool) {
	if v, ok := g.constant(x); ok {
		return v, true
	}
	return g.constIdent(x)
}

// loop runs body for each value of q, stored in a fresh frame slot bound
// to q's name, or if unroll (see unrolls), bound to each value in turn,
// body generated once for each. body gets the depth of the loop's exit
// block and, for expressions, may branch there.
func (u *unit) loop(q *murphi.Quantifier, unroll bool, body func(exit int)) {
	f := u.f
	lo, hi, ok := u.quantValues(q)
	if !ok {
		u.dynLoop(q, body)
		return
	}
	if lo > hi {
		return // no iteration (the closures' loop runs none either)
	}
	count := uint64(hi-lo) + 1
	u.step(count, q.Pos())
	saveW := u.weight
	u.weight *= count
	if unroll {
		f.block()
		u.depth++
		exit := u.depth
		mark := u.frameTop
		for k := range count { // (not v <= hi: hi may be MaxInt64)
			u.frameTop = mark // (an iteration's frame slots are free after it)
			undo := u.bind(q.Name.Obj, binding{kind: bConst, v: lo + int64(k)})
			body(exit)
			undo()
		}
		f.end()
		u.depth--
		u.weight = saveW
		return
	}
	slot := u.alloc(1)
	at := u.frame(slot, nil)
	v := f.local(i64)
	b := binding{kind: bPlace, pl: at}
	if t := q.Name.Obj.Type; q.Type == nil || t.Kind != murphi.TUnion {
		b.lv = &loopVar{lf: f, local: v, lo: lo, hi: hi} // v is the value
	}
	defer u.bind(q.Name.Obj, b)()
	f.i64Const(lo)
	f.set(v)
	exit := u.openLoop()
	at.push(u)
	if t := q.Name.Obj.Type; q.Type != nil && t.Kind == murphi.TUnion {
		// v counts positions; the members' values come in order, as in
		// core/compile's iterate.
		ms := t.Union
		chooseI64(f, len(ms), func(k int) {
			end, _ := indexPosition(t, ms[k].Hi)
			f.get(v)
			f.i64Const(end)
			f.i64LeS()
		}, func(k int) {
			first, _ := indexPosition(t, ms[k].Lo)
			f.get(v)
			f.i64Const(ms[k].Lo - first)
			f.i64Add()
		})
	} else {
		f.get(v)
	}
	f.i64Store(0)
	body(exit)
	f.get(v)
	f.i64Const(hi)
	f.i64Eq()
	f.brIf(uint32(u.depth - exit))
	f.get(v)
	f.i64Const(1)
	f.i64Add()
	f.set(v)
	u.closeLoop()
	u.weight = saveW
}

// peel returns the body of the quantifiers over one value each that x is
// (the body of theirs, if that is another such), their variables bound to
// their values, and the unbinding: a quantifier over one value is its
// body. So the literals of a quantifier around them are its body's (see
// hoistable): in cache3's "forall n1 do forall n2 do forall home do forall
// addr do", home and addr range over one value each, and n1's half of the
// body, tested before n2's loop, decides it for most n1.
func (u *unit) peel(x murphi.Expr) (murphi.Expr, func()) {
	var undo []func()
	for {
		q, ok := unparen(x).(*murphi.QuantExpr)
		if !ok {
			break
		}
		one := true
		for _, v := range q.Quants {
			lo, hi, ok := u.quantValues(v)
			one = one && ok && lo == hi && (v.Type == nil || v.Name.Obj.Type.Kind != murphi.TUnion)
		}
		if !one {
			break
		}
		for _, v := range q.Quants {
			lo, _, _ := u.quantValues(v)
			u.step(1, v.Pos())
			undo = append(undo, u.bind(v.Name.Obj, binding{kind: bConst, v: lo}))
		}
		x = q.Body
	}
	return x, func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
}

// unrolls reports whether the loops of quants, around code of the given
// syntax nodes, are unrolled: a loop over a few constant values whose
// variable is then a constant in the body, so that the places it indexes
// are fixed (sci's procedures loop over its three processors' one cache
// line each, reading and undefining their fields: each a computed address
// and its dirty bits, then). Only where the code made stays small: at
// most maxUnroll values each, and unrollNodes nodes in all.
func (u *unit) unrolls(quants []*murphi.Quantifier, nodes int) bool {
	total := nodes
	for _, q := range quants {
		lo, hi, ok := u.quantValues(q)
		if !ok || q.Type != nil && q.Name.Obj.Type.Kind == murphi.TUnion {
			return false // a computed range; a union's positions
		}
		if hi < lo {
			continue
		}
		if uint64(hi-lo) >= maxUnroll { // (hi-lo may pass MaxInt64)
			return false
		}
		total *= int(hi-lo) + 1
		if total > unrollNodes {
			return false
		}
	}
	return true
}

// Bounds on unrolled loops (see unrolls).
const (
	maxUnroll   = 8
	unrollNodes = 256
)

// nodes counts the syntax nodes of n (a node, or a list of statements).
func nodes[N murphi.Node](list ...N) int {
	n := 0
	for _, x := range list {
		murphi.Inspect(x, func(murphi.Node) bool {
			n++
			return true
		})
	}
	return n
}

// dynLoop is loop for a range whose bounds or step are computed (or a
// step other than 1), with the closures' semantics (core/compile's
// iterate): the bounds and the step evaluated once, in that order; a step
// of 0 fails; the loop goes up for a positive step and down for a
// negative one, while the value has not passed the last bound, and ends
// where the next value would overflow; more than loopLimit iterations
// fail. A failure traps, and the closures run the search again and report
// it.
func (u *unit) dynLoop(q *murphi.Quantifier, body func(exit int)) {
	f := u.f
	count := u.dynIterations(q)
	u.step(count, q.Pos())
	saveW := u.weight
	u.weight *= count
	last, by, v, next, n := f.local(i64), f.local(i64), f.local(i64), f.local(i64), f.local(i32)
	u.expr(q.From)
	f.set(v)
	u.expr(q.To)
	f.set(last)
	if q.By != nil {
		u.expr(q.By)
		f.tee(by)
		f.i64Eqz()
		u.trapIf()
	} else {
		f.i64Const(1)
		f.set(by)
	}
	at := u.frame(u.alloc(1), nil)
	defer u.bind(q.Name.Obj, binding{kind: bPlace, pl: at})()
	exit := u.openLoop()
	// Past the last bound: up, last < v; down, v < last.
	f.get(last)
	f.get(v)
	f.i64LtS()
	f.get(v)
	f.get(last)
	f.i64LtS()
	f.get(by)
	f.i64Const(0)
	f.i64GtS()
	f.select_()
	f.brIf(uint32(u.depth - exit))
	u.countIteration(n)
	at.push(u)
	f.get(v)
	f.i64Store(0)
	body(exit)
	// The next value, unless it overflows: (v^next)&(by^next) < 0.
	f.get(v)
	f.get(by)
	f.i64Add()
	f.set(next)
	f.get(v)
	f.get(next)
	f.i64Xor()
	f.get(by)
	f.get(next)
	f.i64Xor()
	f.i64And()
	f.i64Const(0)
	f.i64LtS()
	f.brIf(uint32(u.depth - exit))
	f.get(next)
	f.set(v)
	u.closeLoop()
	u.weight = saveW
}

// openLoop opens a loop's exit block and the loop block inside it, and
// returns the exit block's depth: a branch there leaves the loop.
func (u *unit) openLoop() (exit int) {
	u.f.block()
	u.depth++
	exit = u.depth
	u.f.loop()
	u.depth++
	return exit
}

// closeLoop branches back to the loop's start and closes both blocks.
func (u *unit) closeLoop() {
	u.f.br(0)
	u.f.end()
	u.f.end()
	u.depth -= 2
}

// countIteration counts one more iteration in the i32 local n, trapping
// where the closures fail a loop: past loopLimit iterations.
func (u *unit) countIteration(n uint32) {
	f := u.f
	f.get(n)
	f.i32Const(loopLimit)
	f.i32GeU()
	u.trapIf()
	f.get(n)
	f.i32Const(1)
	f.i32Add()
	f.set(n)
}

// quantExpr evaluates forall / exists, stopping at the first deciding value.
// The literals of its body (see junction) that name none of its variables
// are tested once, before its loops, where hoistable allows: one that
// decides every iteration decides the quantifier (in exists i do exists j
// do i != j & s[i] = C & s[j] = C, the inner quantifier reads s[i] once,
// not once per j). Only before all of a quantifier's loops: in exists i:
// T; j: T do, s[i] names one of its variables and stays inside.
func (u *unit) quantExpr(x *murphi.QuantExpr) {
	f := u.f
	mark := u.frameTop
	forall := x.Op == murphi.FORALL
	body, unbind := u.peel(x.Body)
	defer unbind()
	// exists: the body is the and of lits; forall: their or.
	lits := junction(body, !forall, false, nil)
	before, inside := u.hoistable(x, lits, !forall)
	r := f.local(i32)
	if forall {
		f.i32Const(1)
	} else {
		f.i32Const(0)
	}
	f.set(r)
	if len(before) > 0 {
		// exists: the loops run if every literal before them holds;
		// forall: if none does.
		u.junctionCond(before, !forall)
		if forall {
			f.i32Eqz()
		}
		f.if_()
		u.depth++
	}
	unroll := u.unrolls(x.Quants, nodes(body))
	var build func(i int)
	build = func(i int) {
		if i == len(x.Quants) {
			// Deciding value: leave every loop with r set.
			if len(before) > 0 {
				u.junctionCond(inside, !forall)
			} else {
				u.cond(body)
			}
			if forall {
				f.i32Eqz()
			}
			f.if_()
			if forall {
				f.i32Const(0)
			} else {
				f.i32Const(1)
			}
			f.set(r)
			f.br(uint32(u.depth + 1 - u.quantExit))
			f.end()
			return
		}
		u.loop(x.Quants[i], unroll, func(exit int) {
			if i == 0 {
				u.quantExit = exit
			}
			build(i + 1)
		})
	}
	saveExit := u.quantExit
	build(0)
	u.quantExit = saveExit
	if len(before) > 0 {
		u.depth--
		f.end()
	}
	u.frameTop = mark
	f.get(r)
}

// literal is a boolean expression, negated or not.
type literal struct {
	x   murphi.Expr
	neg bool
}

// junction appends to lits the literals whose and (if and) or or (if not)
// is x, negated if neg, in the order and with the short-circuits in which
// cond evaluates x: de Morgan's laws, and a -> b as !a | b.
func junction(x murphi.Expr, and, neg bool, lits []literal) []literal {
	x = unparen(x)
	switch x := x.(type) {
	case *murphi.UnaryExpr:
		if x.Op == murphi.NOT {
			return junction(x.X, and, !neg, lits)
		}
	case *murphi.BinaryExpr:
		// An and is an and of literals where it is not negated, an or
		// where it is; an or and an implication the other way round.
		isAnd := x.Op == murphi.LAND || x.Op == murphi.AND && x.Logical
		isOr := x.Op == murphi.LOR || x.Op == murphi.OR && x.Logical
		switch {
		case isAnd && and != neg, isOr && and == neg:
			return junction(x.Y, and, neg, junction(x.X, and, neg, lits))
		case x.Op == murphi.IMPLIES && and == neg:
			return junction(x.Y, and, neg, junction(x.X, and, !neg, lits))
		}
	}
	return append(lits, literal{x, neg})
}

// junctionCond pushes the and (if and) or the or of lits, evaluated in
// order until one decides.
func (u *unit) junctionCond(lits []literal, and bool) {
	f := u.f
	for i, l := range lits {
		u.cond(l.x)
		if l.neg {
			f.i32Eqz()
		}
		if i == len(lits)-1 {
			break
		}
		f.ifResult(i32)
		if !and {
			f.i32Const(1)
			f.else_()
		}
	}
	for i := 0; i < len(lits)-1; i++ {
		if and {
			f.else_()
			f.i32Const(0)
		}
		f.end()
	}
}

// hoistable splits the literals of x's body (their and if and, else their
// or) into those tested before its loops and those inside. A literal goes
// before if it names none of x's variables nor calls a function, and
// every literal inside before it is a comparison of quantifier variables
// and constants that lets the body go on where one of x's variables
// differs from one value (i != j in exists j: i != j & s[i] = C & ...),
// at most size-1 such for each variable. Then some iteration reaches the
// literal in the body too: tested first, it has the body's value there,
// and fails (a run-time error) where the body would. The loops must have
// constant bounds.
func (u *unit) hoistable(x *murphi.QuantExpr, lits []literal, and bool) (before, inside []literal) {
	if len(lits) < 2 {
		return nil, lits
	}
	size := map[*murphi.Object]int64{}
	order := map[*murphi.Object]int{}
	for i, q := range x.Quants {
		lo, hi, ok := u.quantValues(q)
		if !ok || lo > hi {
			return nil, lits
		}
		size[q.Name.Obj] = hi - lo + 1
		order[q.Name.Obj] = i
	}
	avoided := map[*murphi.Object]int64{}
	open := true // some iteration reaches the next literal
	for _, l := range lits {
		if open && outer(l.x, size) {
			before = append(before, l)
			continue
		}
		inside = append(inside, l)
		if q := goesOnWhereDiffers(l, and, order); q == nil || avoided[q]+1 >= size[q] {
			open = false
		} else {
			avoided[q]++
		}
	}
	if len(before) == 0 || len(inside) == 0 {
		return nil, lits
	}
	return before, inside
}

// outer reports whether x names none of vars and calls no function.
func outer(x murphi.Expr, vars map[*murphi.Object]int64) bool {
	ok := true
	murphi.Inspect(x, func(n murphi.Node) bool {
		switch n := n.(type) {
		case *murphi.Ident:
			if _, in := vars[n.Obj]; in {
				ok = false
			}
		case *murphi.CallExpr:
			ok = false
		}
		return ok
	})
	return ok
}

// goesOnWhereDiffers returns the variable q of those in order (by their
// loops' nesting) for which literal l, in an and (if and) or an or,
// neither decides nor fails where q differs from one value: l compares q
// with a constant, a variable of an enclosing loop or one of an earlier
// loop in order, for = or != as lets the junction go on. Else nil.
func goesOnWhereDiffers(l literal, and bool, order map[*murphi.Object]int) *murphi.Object {
	b, ok := unparen(l.x).(*murphi.BinaryExpr)
	if !ok || (b.Op != murphi.EQL && b.Op != murphi.NEQ) || !simpleOperand(b.X) || !simpleOperand(b.Y) {
		return nil
	}
	// The literal's value where the sides differ: true for != (false
	// for =), negated if l is; an and goes on where it is true, an or
	// where it is false.
	if (b.Op == murphi.NEQ) != l.neg != and {
		return nil
	}
	var q *murphi.Object
	for _, side := range []murphi.Expr{b.X, b.Y} {
		id, isIdent := unparen(side).(*murphi.Ident)
		if !isIdent {
			continue
		}
		if k, in := order[id.Obj]; in && (q == nil || k > order[q]) {
			q = id.Obj
		}
	}
	if x, y := unparen(b.X), unparen(b.Y); q == nil || sameIdent(x, y) {
		return nil
	}
	return q
}

func sameIdent(x, y murphi.Expr) bool {
	a, ok1 := x.(*murphi.Ident)
	b, ok2 := y.(*murphi.Ident)
	return ok1 && ok2 && a.Obj == b.Obj
}

func simpleOperand(x murphi.Expr) bool {
	switch x := unparen(x).(type) {
	case *murphi.IntLit:
		return true
	case *murphi.Ident:
		return x.Obj != nil && (x.Obj.Kind == murphi.ObjConst || x.Obj.Kind == murphi.ObjQuant)
	}
	return false
}

// indexPosition returns the position of value v among the values of index
// type it (v-Lo, or for a union its rank among the members' values), and
// whether it is one of them.
func indexPosition(it *murphi.Type, v int64) (int64, bool) {
	if it.Kind != murphi.TUnion {
		k := v - it.Lo
		return k, uint64(k) < it.Count()
	}
	base := int64(0)
	for _, m := range it.Union {
		if m.Lo <= v && v <= m.Hi {
			return base + (v - m.Lo), true
		}
		base += int64(m.Count())
	}
	return 0, false
}

// pushInRange pushes (as an i32) whether the i64 in local v is in [lo, hi].
func pushInRange(f *fn, v uint32, lo, hi int64) {
	f.get(v)
	f.i64Const(lo)
	f.i64GeS()
	f.get(v)
	f.i64Const(hi)
	f.i64LeS()
	f.i32And()
}

// pushOutOfRange pushes (as an i32) whether the i64 in local v is outside
// [lo, hi].
func pushOutOfRange(f *fn, v uint32, lo, hi int64) {
	f.get(v)
	f.i64Const(lo)
	f.i64LtS()
	f.get(v)
	f.i64Const(hi)
	f.i64GtS()
	f.i32Or()
}

// chooseI64 pushes the i64 value(k) of the first of n cases whose test(k)
// (an i32) holds; the last case is not tested.
func chooseI64(f *fn, n int, test, value func(k int)) {
	for k := 0; k < n-1; k++ {
		test(k)
		f.ifResult(i64)
		value(k)
		f.else_()
	}
	value(n - 1)
	for k := 0; k < n-1; k++ {
		f.end()
	}
}

// indexPosition pushes the position of index idx's value among the values
// of index type it, as core/compile's indexPlace (v-Lo, or for a union its
// rank among the members' values), trapping if it is none; t is a scratch
// local.
func (u *unit) indexPosition(it *murphi.Type, idx murphi.Expr, t uint32) {
	f := u.f
	if lv := u.loopVar(idx); lv != nil && it.Kind != murphi.TUnion && it.Lo <= lv.lo && lv.hi <= it.Hi {
		// A loop over values of the index type: always in range.
		f.get(lv.local)
		if it.Lo != 0 {
			f.i64Const(it.Lo)
			f.i64Sub()
		}
		return
	}
	u.expr(idx)
	if st := u.g.info.Types[idx].Type; withinIndex(it, st) {
		// A value of its static type: a defined one is in range (stores
		// are checked, as storeCheck trusts), and expr trapped on an
		// undefined one.
		if it.Lo != 0 {
			f.i64Const(it.Lo)
			f.i64Sub()
		}
		return
	}
	if it.Kind != murphi.TUnion {
		f.i64Const(it.Lo)
		f.i64Sub()
		f.tee(t)
		f.i64Const(int64(it.Count()))
		f.i64GeU()
		u.trapIf()
		f.get(t)
		return
	}
	f.set(t)
	ms := it.Union
	chooseI64(f, len(ms)+1, func(k int) {
		pushInRange(f, t, ms[k].Lo, ms[k].Hi)
	}, func(k int) {
		if k == len(ms) {
			f.unreachable()
			return
		}
		pos, _ := indexPosition(it, ms[k].Lo)
		f.get(t)
		f.i64Const(pos - ms[k].Lo)
		f.i64Add()
	})
}

// withinIndex reports whether every value of type st is a value of index
// type it: a subrange within it, or it again (an enum, a scalarset, the
// booleans).
func withinIndex(it, st *murphi.Type) bool {
	if st == nil {
		return false
	}
	switch it.Kind {
	case murphi.TRange:
		return st.Kind == murphi.TRange && it.Lo <= st.Lo && st.Hi <= it.Hi
	case murphi.TEnum, murphi.TScalarset:
		return st.Kind == it.Kind && st.ID == it.ID
	case murphi.TBool:
		return st.Kind == murphi.TBool
	}
	return false
}
