package compile

// This file drives compilation: it lays out the state, expands rulesets,
// aliases and chooses into rule instances (ruleset parameters become
// constants, so `x[i]` inside an instance is a fixed slot), and compiles each
// instance's guard and body into closures.

import (
	"fmt"
	"math"

	"github.com/locus-mc/locus/core/murphi"
)

// MaxRuleInstances bounds the rule instances a model may expand to.
const MaxRuleInstances = 1 << 18

// MaxCompiledNodes bounds the expressions and statements compiled in all:
// each rule instance compiles its own copy of its rule, so a large ruleset
// multiplies the model's text. It keeps the compiled model (about 50 bytes
// per node) within a few hundred MiB.
const MaxCompiledNodes = 1 << 23

// maxCompiledNodes is MaxCompiledNodes, lowered by tests.
var maxCompiledNodes = MaxCompiledNodes

type bindKind uint8

const (
	bConst    bindKind = iota // a constant value
	bGlobal                   // a state variable at an absolute slot
	bFrame                    // a frame slot holding the value(s)
	bFrameRef                 // a frame slot holding the absolute address
	bPlace                    // a compile-time place (aliases of fixed designators)
	// bConstParam: an inlined value parameter given a constant: reads see
	// the constant; as a designator it is the frame slot off, which holds
	// the constant too.
	bConstParam
)

type binding struct {
	kind bindKind
	v    int64
	off  int
	pl   place
}

// CompileError is a problem found while compiling a checked model.
type CompileError struct {
	Pos murphi.Position
	Msg string
}

func (e *CompileError) Error() string { return e.Pos.String() + ": " + e.Msg }

type compiler struct {
	m     *Model
	ck    *murphi.Checked
	info  *murphi.Info
	ar    murphi.Arith
	undef int64
	env   map[*murphi.Object]binding
	procs map[*murphi.ProcDecl]*proc

	frameTop, frameMax           int
	locals                       span                      // slots of the unit's local variables
	nCalls                       int                       // calls compiled so far
	fn                           *proc                     // function being compiled, nil in rules
	nest                         int                       // compile-time nesting in the current unit, mirrored by the compiled code
	nodes                        int                       // expressions and statements compiled so far
	unrolled                     int                       // copies of the code being compiled that unrolled loops make
	inlining                     map[*murphi.ProcDecl]bool // procedures being inlined (never into themselves)
	canInline                    map[*murphi.ProcDecl]bool
	err                          *CompileError
	nInv, nAssume, nCover, nLive int
	coverStmt                    map[murphi.Pos]int // index in CoverStmts
	leaveFn                      func()             // c.leave, bound once (enter returns it on every node)
}

// bail is the private panic used to stop compiling at the first error.
type bail struct{}

// Compile builds the executable model of a checked model.
func Compile(ck *murphi.Checked) (m *Model, err error) {
	c := &compiler{
		ck:        ck,
		info:      ck.Info,
		ar:        murphi.Arith{Unsigned: ck.Unsigned},
		env:       make(map[*murphi.Object]binding),
		procs:     make(map[*murphi.ProcDecl]*proc),
		unrolled:  1,
		inlining:  make(map[*murphi.ProcDecl]bool),
		canInline: make(map[*murphi.ProcDecl]bool),

		coverStmt: make(map[murphi.Pos]int),
	}
	c.leaveFn = c.leave
	c.undef = math.MinInt64
	if ck.Unsigned {
		c.undef = -1 // MaxUint64: never a legal value (ranges stop at 2^64-2)
	}
	c.m = &Model{Checked: ck, File: ck.Model.File, Arith: c.ar, Undef: c.undef}
	defer func() {
		if x := recover(); x != nil {
			if _, ok := x.(bail); !ok {
				panic(x)
			}
			m, err = nil, c.err
		}
	}()
	for _, g := range ck.Globals {
		slot := len(c.m.Leaves)
		c.layout(g.Name, g.Type)
		size := len(c.m.Leaves) - slot
		c.m.Vars = append(c.m.Vars, Var{Name: g.Name, Type: g.Type, Slot: slot, Size: size})
		c.env[g] = binding{kind: bGlobal, off: slot}
	}
	c.m.NumSlots = len(c.m.Leaves)
	c.m.StateBytes = (c.m.StateBits + 7) / 8
	if c.m.StateBytes == 0 {
		c.m.StateBytes = 1 // a model without variables still has one (empty) state
	}
	c.m.packing = newPacking(c.m.Leaves, c.m.StateBytes)
	murphi.Inspect(ck.Model, func(n murphi.Node) bool {
		if s, ok := n.(*murphi.PropertyStmt); ok {
			switch s.Kind {
			case murphi.ASSUME:
				c.m.hasAssume = true
			case murphi.COVER:
				// Every cover statement has a counter, even one in a
				// procedure nothing calls: it is never satisfied.
				name := s.Msg
				if name == "" {
					name = murphi.ExprString(s.Cond)
				}
				c.coverStmt[s.Pos()] = len(c.m.CoverStmts)
				c.m.CoverStmts = append(c.m.CoverStmts, &CoverStmt{Name: name, Pos: s.Pos()})
			}
		}
		return true
	})
	for _, d := range ck.Model.Decls {
		switch d.(type) {
		case *murphi.ConstDecl, *murphi.TypeDecl, *murphi.VarDecl, *murphi.ProcDecl:
			continue
		}
		c.rule(d, &ruleCtx{})
	}
	if p := ck.Model.Progress; p != nil {
		c.beginUnit()
		v := c.expr(p.X).f()
		c.m.Progress = &Measure{Pos: p.X.Pos(), Value: v, Frame: c.endUnit()}
	}
	return c.m, nil
}

// enter counts one node against MaxCompiledNodes and one level of nesting
// in the unit being compiled; the returned func leaves the level:
//
//	defer c.enter(x.Pos())()
func (c *compiler) enter(pos murphi.Pos) func() {
	c.nodes++
	if c.nodes > maxCompiledNodes {
		c.fail(pos, "the model is too large to compile: with its rulesets expanded it has more than %d expressions and statements", maxCompiledNodes)
	}
	c.nest++
	return c.leaveFn
}

func (c *compiler) leave() { c.nest-- }

func (c *compiler) fail(pos murphi.Pos, format string, args ...any) {
	c.err = &CompileError{Pos: c.m.File.Position(pos), Msg: fmt.Sprintf(format, args...)}
	panic(bail{})
}

func (c *compiler) formatValue(t *murphi.Type, v int64) string { return formatValue(c.ar, t, v) }

// ---------------------------------------------------------------------------
// Frames

func (c *compiler) beginUnit() {
	c.frameTop, c.frameMax = 0, 0
	c.locals = span{}
}

func (c *compiler) endUnit() int {
	if c.frameMax > c.m.maxFrame {
		c.m.maxFrame = c.frameMax
	}
	return c.frameMax
}

func (c *compiler) alloc(n int) int {
	off := c.frameTop
	c.frameTop += n
	if c.frameTop > c.frameMax {
		c.frameMax = c.frameTop
	}
	return off
}

// ---------------------------------------------------------------------------
// Rules

// ruleCtx carries what enclosing rulesets, aliases and chooses add to the
// rules inside them.
type ruleCtx struct {
	params  []string      // "i:pid_1", for instance names
	aliases []aliasGroup  // alias-rule bindings, outermost first
	chooses []chooseGuard // implicit "entry is present" guards
	parent  *ruleCtx
	// perElement: inside a ruleset quantified over a permuted scalarset.
	perElement bool
}

// aliasGroup is the bindings of one alias rule, and how many chooses
// enclose it: their entries must be present before it is evaluated.
type aliasGroup struct {
	decls   []*murphi.AliasDecl
	chooses int
}

type chooseGuard struct {
	multiset murphi.Expr
	index    int64
}

func (ctx *ruleCtx) with(param string) *ruleCtx {
	n := *ctx
	n.params = append(append([]string(nil), ctx.params...), param)
	return &n
}

func (c *compiler) instanceName(base string, pos murphi.Pos, ctx *ruleCtx) string {
	name := base
	if name == "" {
		name = fmt.Sprintf("rule (line %d)", c.m.File.Position(pos).Line)
	}
	for _, p := range ctx.params {
		name += ", " + p
	}
	return name
}

func (c *compiler) rule(d murphi.Decl, ctx *ruleCtx) {
	switch d := d.(type) {
	case *murphi.SimpleRule:
		if len(c.m.Rules) >= MaxRuleInstances {
			c.fail(d.Pos(), "the model expands to more than %d rule instances", MaxRuleInstances)
		}
		c.beginUnit()
		r := &Rule{Name: c.instanceName(d.Name, d.Pos(), ctx), Pos: d.Pos(), Priority: d.Priority}
		if d.HasPriority {
			c.m.HasPriorities = true
		}
		r.Prelude = c.prelude(ctx)
		calls := c.nCalls
		guards := c.chooseGuards(ctx)
		if d.Guard != nil {
			guards = append(guards, c.cond(d.Guard))
		}
		r.Guard = andAll(guards)
		r.plainGuard = len(r.Prelude) == 0 && c.frameMax == 0 && c.nCalls == calls
		if r.plainGuard && len(ctx.chooses) == 0 && d.Guard != nil {
			r.quickSlot, r.quickVal, r.hasQuick = c.quickTest(d.Guard)
		}
		r.Body = c.bodyStmts(d.Decls, d.Body)
		r.body = seq(r.Body)
		r.Init = c.locals
		r.Frame = c.endUnit()
		c.m.Rules = append(c.m.Rules, r)
	case *murphi.StartState:
		if len(c.m.Starts) >= MaxRuleInstances {
			c.fail(d.Pos(), "the model expands to more than %d start states", MaxRuleInstances)
		}
		c.beginUnit()
		s := &Start{Name: d.Name, Pos: d.Pos()}
		if s.Name == "" {
			s.Name = fmt.Sprintf("(line %d)", c.m.File.Position(d.Pos()).Line)
		}
		s.Name = c.instanceName(s.Name, d.Pos(), ctx)
		pre := c.prelude(ctx)
		s.Body = append(pre, c.bodyStmts(d.Decls, d.Body)...)
		s.Init = c.locals
		s.Frame = c.endUnit()
		c.m.Starts = append(c.m.Starts, s)
	case *murphi.PropertyRule:
		if len(c.m.Invariants)+len(c.m.Assumes)+len(c.m.Covers)+len(c.m.Liveness) >= MaxRuleInstances {
			c.fail(d.Pos(), "the model expands to more than %d properties", MaxRuleInstances)
		}
		c.beginUnit()
		p := &Property{Pos: d.Pos(), PerElement: ctx.perElement}
		p.Pre = c.prelude(ctx)
		p.Cond = c.cond(d.Cond)
		// Inside a choose, an instance exists only while its entry is
		// present, as for rules: an absent one holds vacuously as an
		// invariant or assumption, and is not satisfied as a cover or
		// liveness property.
		p.Vacuous = d.Kind == murphi.INVARIANT || d.Kind == murphi.ASSUME
		if len(ctx.chooses) > 0 {
			present, cond := andAll(c.chooseGuards(ctx)), p.Cond
			if p.Vacuous {
				p.Cond = func(mc *Machine) bool { return !present(mc) || cond(mc) }
			} else {
				p.Cond = func(mc *Machine) bool { return present(mc) && cond(mc) }
			}
		}
		p.Frame = c.endUnit()
		switch d.Kind {
		case murphi.INVARIANT:
			c.nInv++
			p.Kind, p.Index = "invariant", c.nInv
			c.m.Invariants = append(c.m.Invariants, p)
		case murphi.ASSUME:
			c.nAssume++
			p.Kind, p.Index = "assume", c.nAssume
			c.m.Assumes = append(c.m.Assumes, p)
		case murphi.COVER:
			c.nCover++
			p.Kind, p.Index = "cover", c.nCover
			c.m.Covers = append(c.m.Covers, p)
		case murphi.LIVENESS:
			c.nLive++
			p.Kind, p.Index = "liveness", c.nLive
			c.m.Liveness = append(c.m.Liveness, p)
		}
		p.Name = d.Name
		if p.Name == "" {
			p.Name = fmt.Sprintf("%s %d", p.Kind, p.Index)
		}
		p.DeclName = p.Name
		if len(ctx.params) > 0 {
			p.Name = c.instanceName(p.Name, d.Pos(), ctx)
		}
	case *murphi.Ruleset:
		c.ruleset(d, d.Quants, ctx)
	case *murphi.AliasRule:
		n := *ctx
		n.aliases = append(append([]aliasGroup(nil), ctx.aliases...), aliasGroup{decls: d.Aliases, chooses: len(ctx.chooses)})
		for _, r := range d.Rules {
			c.rule(r, &n)
		}
	case *murphi.ChooseRule:
		mt := c.info.Types[d.Multiset].Type
		if mt == nil || mt.Kind != murphi.TMultiset {
			c.fail(d.Pos(), "choose over a non-multiset")
		}
		for k := int64(0); k < mt.Size; k++ {
			n := ctx.with(fmt.Sprintf("%s:%d", d.Var.Name, k))
			n.chooses = append(append([]chooseGuard(nil), ctx.chooses...), chooseGuard{multiset: d.Multiset, index: k})
			c.env[d.Var.Obj] = binding{kind: bConst, v: k}
			for _, r := range d.Rules {
				c.rule(r, n)
			}
		}
		delete(c.env, d.Var.Obj)
	}
}

// ruleset expands the remaining quantifiers qs, first-declared outermost,
// each from least to greatest value (Rumur's order).
func (c *compiler) ruleset(d *murphi.Ruleset, qs []*murphi.Quantifier, ctx *ruleCtx) {
	if len(qs) == 0 {
		for _, r := range d.Rules {
			c.rule(r, ctx)
		}
		return
	}
	q := qs[0]
	obj := q.Name.Obj
	vals, typ := c.quantValues(q)
	perElement := c.permuted(typ)
	for _, v := range vals {
		c.env[obj] = binding{kind: bConst, v: v}
		n := ctx.with(q.Name.Name + ":" + c.formatValue(typ, v))
		n.perElement = n.perElement || perElement
		c.ruleset(d, qs[1:], n)
	}
	delete(c.env, obj)
}

// permuted reports whether symmetry reduction permutes values of type t.
func (c *compiler) permuted(t *murphi.Type) bool {
	for _, s := range c.ck.Scalarsets {
		if s.Size < 2 {
			continue
		}
		if t.ID == s.ID {
			return true
		}
		if t.Kind == murphi.TUnion {
			for _, m := range t.Union {
				if m.ID == s.ID {
					return true
				}
			}
		}
	}
	return false
}

// quantValues lists the values of a ruleset quantifier, which must be constant.
func (c *compiler) quantValues(q *murphi.Quantifier) ([]int64, *murphi.Type) {
	if q.Type != nil {
		t := q.Name.Obj.Type
		if t.Count() > MaxRuleInstances {
			c.fail(q.Pos(), "ruleset parameter %s ranges over %d values; at most %d are supported", q.Name.Name, t.Count(), MaxRuleInstances)
		}
		return IndexValues(t), t
	}
	from, ok1 := c.constOf(q.From)
	to, ok2 := c.constOf(q.To)
	by := int64(1)
	ok3 := true
	if q.By != nil {
		by, ok3 = c.constOf(q.By)
	}
	if !ok1 || !ok2 || !ok3 {
		c.fail(q.Pos(), "the bounds and step of ruleset parameter %s must be constants", q.Name.Name)
	}
	if by == 0 {
		c.fail(q.Pos(), "the step of ruleset parameter %s is 0", q.Name.Name)
	}
	var vals []int64
	for v := from; ; {
		if by > 0 && c.ar.Less(to, v) || by < 0 && c.ar.Less(v, to) {
			break
		}
		vals = append(vals, v)
		if len(vals) > MaxRuleInstances {
			c.fail(q.Pos(), "ruleset parameter %s has more than %d values", q.Name.Name, MaxRuleInstances)
		}
		next, e := c.ar.Add(v, by)
		if e != murphi.ArithOK {
			break
		}
		v = next
	}
	return vals, murphi.IntType
}

// constOf returns the constant value of x in the current bindings.
func (c *compiler) constOf(x murphi.Expr) (int64, bool) {
	v := c.expr(x)
	return v.v, v.isConst
}

// prelude compiles the alias-rule bindings of ctx in the current unit, in
// nesting order. A choose around an alias rule names an entry the aliases
// may read, so its entry is checked first: a step reports true (stop) if
// it is absent, and the rule instance is then not enabled.
func (c *compiler) prelude(ctx *ruleCtx) []stmtFn {
	var out []stmtFn
	checked := 0
	for _, group := range ctx.aliases {
		for _, present := range c.entryChecks(ctx.chooses[checked:group.chooses]) {
			out = append(out, func(mc *Machine) bool { return !present(mc) })
		}
		checked = group.chooses
		out = append(out, c.bindAliases(group.decls)...)
	}
	return out
}

func (c *compiler) chooseGuards(ctx *ruleCtx) []boolFn { return c.entryChecks(ctx.chooses) }

// entryChecks compiles tests that the choose entries are present.
func (c *compiler) entryChecks(chooses []chooseGuard) []boolFn {
	var out []boolFn
	for _, g := range chooses {
		pl := c.place(g.multiset)
		mt := pl.typ
		entry := 1 + SlotSize(mt.Elem)
		flag := pl.offset(int(g.index) * entry)
		undef := c.undef
		switch flag.kind {
		case pAbs:
			k := flag.off
			out = append(out, func(mc *Machine) bool { return mc.mem[k] != undef })
		default:
			a := flag.addr()
			out = append(out, func(mc *Machine) bool {
				k := a(mc) // (may move mc.mem)
				return mc.mem[k] != undef
			})
		}
	}
	return out
}

// quickTest finds the first conjunct evaluated by guard g, if it compares
// a fixed state slot with a constant.
func (c *compiler) quickTest(g murphi.Expr) (slot int, val int64, ok bool) {
	switch x := g.(type) {
	case *murphi.ParenExpr:
		return c.quickTest(x.X)
	case *murphi.BinaryExpr:
		switch {
		case (x.Op == murphi.AND && x.Logical) || x.Op == murphi.LAND:
			return c.quickTest(x.X)
		case x.Op == murphi.EQL && c.info.Types[x.X].Type.IsSimple():
			if p, ok := c.directSlot(x.X); ok && p.kind == pAbs {
				if v := c.expr(x.Y); v.isConst {
					return p.off, v.v, true
				}
			}
		}
	case *murphi.UnaryExpr:
		if x.Op == murphi.NOT && c.info.Types[x.X].Type.Kind == murphi.TBool {
			if p, ok := c.directSlot(x.X); ok && p.kind == pAbs {
				return p.off, 0, true
			}
		}
	case *murphi.Ident, *murphi.IndexExpr, *murphi.FieldExpr:
		if c.info.Types[g].Type.Kind == murphi.TBool {
			if p, ok := c.directSlot(g); ok && p.kind == pAbs {
				return p.off, 1, true
			}
		}
	}
	return 0, 0, false
}

func andAll(list []boolFn) boolFn {
	switch len(list) {
	case 0:
		return nil
	case 1:
		return list[0]
	case 2:
		a, b := list[0], list[1]
		return func(mc *Machine) bool { return a(mc) && b(mc) }
	}
	return func(mc *Machine) bool {
		for _, f := range list {
			if !f(mc) {
				return false
			}
		}
		return true
	}
}

// bodyStmts compiles local declarations and a body in the current unit.
func (c *compiler) bodyStmts(decls []murphi.Decl, body []murphi.Stmt) []stmtFn {
	c.bindLocals(decls)
	return c.stmts(body)
}

// locals binds local variables to consecutive frame slots, recorded in
// c.locals: they start undefined on every execution.
func (c *compiler) bindLocals(decls []murphi.Decl) {
	c.locals = span{Lo: c.frameTop, Hi: c.frameTop}
	defer func() { c.locals.Hi = c.frameTop }()
	for _, d := range decls {
		vd, ok := d.(*murphi.VarDecl)
		if !ok {
			continue
		}
		for _, n := range vd.Names {
			if n.Obj == nil {
				continue
			}
			off := c.alloc(SlotSize(n.Obj.Type))
			c.env[n.Obj] = binding{kind: bFrame, off: off}
		}
	}
}
