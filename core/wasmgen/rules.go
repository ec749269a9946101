package wasmgen

// This file expands rulesets into rule instances in core/compile's order
// and generates a function per rule instance and property.

import (
	"fmt"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
	"math"
	"strings"
)

// Status of a rule function.
const (
	ruleDisabled  = 0
	ruleFired     = 1
	statusAssumed = 2 // an assume statement failed: enabled, no successor
)

// instance is one rule instance or property: its declaration and the
// ruleset parameter values it was expanded with.
type instance struct {
	decl    murphi.Decl
	params  []paramValue
	aliases [][]*murphi.AliasDecl // enclosing alias rules' bindings, outermost first
	// chooses are the entries of the enclosing choose rules, outermost
	// first: the instance exists only while they are present.
	// aliasChooses[i] is how many of them enclose aliases[i] (their
	// entries are checked before its bindings, which may read them).
	chooses      []chooseEntry
	aliasChooses []int
}

// chooseEntry is the entry a choose rule's instance picks: the multiset
// (an expression in the instance's parameters) and the entry's index.
type chooseEntry struct {
	multiset murphi.Expr
	index    int64
}

type paramValue struct {
	obj *murphi.Object
	v   int64
}

// name names the instance's function, for profiles: the rule's name (at
// most 48 bytes of it) and its parameters' values.
func (in instance) name(rule string) string {
	if len(rule) > 48 {
		rule = rule[:48]
	}
	var b strings.Builder
	b.WriteString(rule)
	for i, p := range in.params {
		if i == 0 {
			b.WriteString(" [")
		} else {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%d", p.obj.Name, p.v)
	}
	if len(in.params) > 0 {
		b.WriteByte(']')
	}
	return b.String()
}

// expand lists the rule instances and properties in core/compile's order
// (declarations in order; ruleset quantifiers first-declared outermost,
// each from least to greatest value).
func (g *gen) expand() (rules, invariants, assumes, covers, lives []instance) {
	var aliases [][]*murphi.AliasDecl // of the alias rules around d
	var aliasChooses []int
	var chooses []chooseEntry
	var walk func(d murphi.Decl, params []paramValue)
	walk = func(d murphi.Decl, params []paramValue) {
		in := instance{d, params, aliases, chooses, aliasChooses}
		switch d := d.(type) {
		case *murphi.SimpleRule:
			rules = append(rules, in)
		case *murphi.StartState:
			// Start states run in the closures.
		case *murphi.PropertyRule:
			switch d.Kind {
			case murphi.INVARIANT:
				invariants = append(invariants, in)
			case murphi.ASSUME:
				assumes = append(assumes, in)
			case murphi.COVER:
				covers = append(covers, in)
			case murphi.LIVENESS:
				lives = append(lives, in)
			default:
				g.fail(d.Pos(), "%s properties", d.Kind)
			}
		case *murphi.Ruleset:
			var quant func(qs []*murphi.Quantifier, params []paramValue)
			quant = func(qs []*murphi.Quantifier, params []paramValue) {
				if len(qs) == 0 {
					for _, r := range d.Rules {
						walk(r, params)
					}
					return
				}
				q := qs[0]
				var vals []int64
				if q.Type != nil {
					vals = compile.IndexValues(q.Name.Obj.Type)
				} else {
					vals = g.rangeValues(q, params)
				}
				for _, v := range vals {
					quant(qs[1:], append(append([]paramValue(nil), params...), paramValue{q.Name.Obj, v}))
				}
			}
			quant(d.Quants, params)
		case *murphi.AliasRule:
			outer, outerChooses := aliases, aliasChooses
			aliases = append(append([][]*murphi.AliasDecl(nil), outer...), d.Aliases)
			aliasChooses = append(append([]int(nil), outerChooses...), len(chooses))
			for _, r := range d.Rules {
				walk(r, params)
			}
			aliases, aliasChooses = outer, outerChooses
		case *murphi.ChooseRule:
			// An instance per entry, as core/compile's: the variable is
			// the entry's index, a constant of the instance.
			mt := g.info.Types[d.Multiset].Type
			if mt == nil || mt.Kind != murphi.TMultiset {
				g.fail(d.Pos(), "choose over a non-multiset")
			}
			outer := chooses
			for k := int64(0); k < mt.Size; k++ {
				chooses = append(append([]chooseEntry(nil), outer...), chooseEntry{d.Multiset, k})
				inner := append(append([]paramValue(nil), params...), paramValue{d.Var.Obj, k})
				for _, r := range d.Rules {
					walk(r, inner)
				}
			}
			chooses = outer
		}
	}
	for _, d := range g.ck.Model.Decls {
		switch d.(type) {
		case *murphi.ConstDecl, *murphi.TypeDecl, *murphi.VarDecl, *murphi.ProcDecl:
			continue
		}
		walk(d, nil)
	}
	return rules, invariants, assumes, covers, lives
}

// rangeValues lists the values of ruleset parameter q over a range, as
// core/compile's quantValues: its bounds and step are constants, where
// the enclosing rulesets' parameters (params) are; from the first bound,
// by the step, while the value has not passed the last bound, until the
// next would overflow. (The model is signed: see checkModel.)
func (g *gen) rangeValues(q *murphi.Quantifier, params []paramValue) []int64 {
	defer g.bindParams(params)()
	from, ok1 := g.constOf(q.From)
	to, ok2 := g.constOf(q.To)
	by, ok3 := int64(1), true
	if q.By != nil {
		by, ok3 = g.constOf(q.By)
	}
	if !ok1 || !ok2 || !ok3 || by == 0 {
		g.fail(q.Pos(), "a ruleset parameter over a range whose bounds are not constants")
	}
	var vals []int64
	for v := from; by > 0 && v <= to || by < 0 && v >= to; v += by {
		vals = append(vals, v)
		if len(vals) > compile.MaxRuleInstances {
			g.fail(q.Pos(), "a ruleset of more than %d instances", compile.MaxRuleInstances)
		}
		if by > 0 && v > math.MaxInt64-by || by < 0 && v < math.MinInt64-by {
			break // the next value would overflow
		}
	}
	return vals
}

// bindParams binds ruleset parameters as constants.
func (g *gen) bindParams(params []paramValue) func() {
	for _, p := range params {
		g.env[p.obj] = binding{kind: bConst, v: p.v}
	}
	return func() {
		for _, p := range params {
			delete(g.env, p.obj)
		}
	}
}

// rulePart is what a rule instance's function does: guard and body, or
// (for models with priorities, whose guards all run before any body) one
// of them.
type rulePart uint8

const (
	wholeRule rulePart = iota
	guardOnly          // returns ruleFired where the guard holds
	bodyOnly           // the guard is known to hold
)

// ruleFunc generates a rule instance's function: the guard on the current
// state; if it holds, the current state copied to the working state and
// the body run on it. It returns ruleDisabled, ruleFired or statusAssumed.
func (g *gen) ruleFunc(in instance, part rulePart) *fn {
	d := in.decl.(*murphi.SimpleRule)
	defer g.bindParams(in.params)()
	f := g.mod.newFunc(nil, []byte{i32})
	f.name = "rule " + in.name(d.Name)
	var gu *unit
	if part != bodyOnly && (d.Guard != nil || len(in.chooses) > 0) {
		gu = g.newUnit(f, g.lay.cur)
		gu.inGuard = true
		defer gu.prelude(in, ruleDisabled)()
		if d.Guard != nil {
			gu.cond(d.Guard)
			f.i32Eqz()
			f.if_()
			f.i32Const(ruleDisabled)
			f.return_()
			f.end()
		}
	}
	if part == guardOnly {
		f.name = "guard " + in.name(d.Name)
		f.i32Const(ruleFired)
		if g.rec != nil && gu != nil {
			g.rec.tops = append(g.rec.tops, topSteps{f, gu.steps})
		}
		return f
	}
	// The working slots are the current state's here (see run).
	bu := g.newUnit(f, g.lay.work)
	bu.inRule = true
	unalias := bu.bindAliasRules(in.aliases)
	restore := bu.bindLocals(d.Decls)
	f.block()
	bu.depth = 1
	bu.retDepth = 1
	bu.stmts(d.Body)
	f.end()
	restore()
	unalias()
	bu.sortMultisets()
	f.i32Const(ruleFired)
	g.ruleWrites = append(g.ruleWrites, slotSet{bu.writes, bu.writesAll})
	if g.rec != nil {
		steps := bu.steps
		if gu != nil {
			steps += gu.steps
		}
		g.rec.tops = append(g.rec.tops, topSteps{f, steps})
	}
	return f
}

// inlineGuard reports whether rule instance in's guard is generated in
// run itself, before the call of the rule's function (its body alone):
// most guards are false (adash fires 13 of its 190 rules a state,
// mcslock1 4 of 36), and a call that only finds that costs more than the
// comparisons. Only a short guard of simple values read from the state,
// constants and parameters, within aliases of state variables at fixed
// places: one that calls, quantifies, compares aggregates, reads a
// choose's entry or an alias that must be computed runs in the rule's
// function (they need a frame), as do all in a model with recursion
// (whose steps are counted per function).
func (g *gen) inlineGuard(in instance) bool {
	d, ok := in.decl.(*murphi.SimpleRule)
	if !ok || d.Guard == nil || len(in.chooses) > 0 || g.rec != nil {
		return false
	}
	// Names whose value or place is known here: the parameters, and
	// the aliases of fixed places.
	known := map[*murphi.Object]bool{}
	for _, p := range in.params {
		known[p.obj] = true
	}
	n := 0
	var simple, designator, fixed func(e murphi.Expr) bool
	constant := func(e murphi.Expr) bool {
		if id, ok := e.(*murphi.Ident); ok && known[id.Obj] && id.Obj.Kind != murphi.ObjAlias {
			return true
		}
		return g.info.Types[e].Const
	}
	fixed = func(e murphi.Expr) bool {
		switch e := e.(type) {
		case *murphi.Ident:
			return e.Obj != nil && (e.Obj.Kind == murphi.ObjVar || e.Obj.Kind == murphi.ObjAlias && known[e.Obj])
		case *murphi.IndexExpr:
			return fixed(e.X) && constant(e.Index)
		case *murphi.FieldExpr:
			return fixed(e.X)
		case *murphi.ParenExpr:
			return fixed(e.X)
		}
		return false
	}
	for _, decls := range in.aliases {
		for _, a := range decls {
			if !g.info.Types[a.X].Addressable || !fixed(a.X) {
				return false
			}
			known[a.Name.Obj] = true
		}
	}
	simple = func(e murphi.Expr) bool {
		if n++; n > maxInlineGuard {
			return false
		}
		if tv, ok := g.info.Types[e]; !ok || tv.Type == nil || !tv.Type.IsSimple() {
			return false
		}
		switch e := e.(type) {
		case *murphi.IntLit:
			return true
		case *murphi.Ident, *murphi.IndexExpr, *murphi.FieldExpr:
			return designator(e)
		case *murphi.ParenExpr:
			return simple(e.X)
		case *murphi.UnaryExpr:
			return simple(e.X)
		case *murphi.BinaryExpr:
			return simple(e.X) && simple(e.Y)
		case *murphi.CondExpr:
			return simple(e.Cond) && simple(e.Then) && simple(e.Else)
		case *murphi.IsUndefinedExpr:
			return simple(e.X)
		case *murphi.IsMemberExpr:
			return simple(e.X)
		}
		return false
	}
	designator = func(e murphi.Expr) bool {
		switch e := e.(type) {
		case *murphi.Ident:
			o := e.Obj
			return o != nil && (o.Kind != murphi.ObjAlias || known[o]) && o.Kind != murphi.ObjProc
		case *murphi.IndexExpr:
			return designator(e.X) && simple(e.Index)
		case *murphi.FieldExpr:
			return designator(e.X)
		}
		return false
	}
	return simple(d.Guard)
}

// maxInlineGuard bounds the nodes of a guard generated in run.
const maxInlineGuard = 48

// guardInline generates, in run's function f, rule instance in's guard
// (see inlineGuard), which pushes whether it holds.
func (g *gen) guardInline(f *fn, in instance) {
	defer g.bindParams(in.params)()
	u := g.newUnit(f, g.lay.cur)
	u.inGuard = true
	undo := u.prelude(in, ruleDisabled) // aliases only: no choose
	u.cond(in.decl.(*murphi.SimpleRule).Guard)
	undo()
	if u.frameMax > 0 {
		g.fail(in.decl.Pos(), "a guard generated in the search's function that needs a frame")
	}
}

// slotSet is the state slots a rule may write.
type slotSet struct {
	slots []bool
	all   bool
}

// key names the set, to share a packing function among rules.
func (s slotSet) key() string {
	if s.all {
		return "all"
	}
	b := make([]byte, len(s.slots))
	for i, w := range s.slots {
		if w {
			b[i] = 1
		}
	}
	return string(b)
}

// propFunc generates a property's function on the working state: 1 if it
// holds, else 0.
func (g *gen) propFunc(in instance) *fn {
	d := in.decl.(*murphi.PropertyRule)
	defer g.bindParams(in.params)()
	f := g.mod.newFunc(nil, []byte{i32})
	f.name = "property " + in.name(d.Name)
	u := g.newUnit(f, g.lay.work)
	// Inside a choose, an instance whose entry is absent holds vacuously
	// as an invariant or assumption, and is not satisfied as a cover (as
	// core/compile's Property.Vacuous).
	vacuous := int32(0)
	if d.Kind == murphi.INVARIANT || d.Kind == murphi.ASSUME {
		vacuous = 1
	}
	defer u.prelude(in, vacuous)()
	u.cond(d.Cond)
	if g.rec != nil {
		g.rec.tops = append(g.rec.tops, topSteps{f, u.steps})
	}
	return f
}

// checkModel refuses what the search code does not cover.
func (g *gen) checkModel() {
	m := g.m
	switch {
	case g.ck.Unsigned:
		g.fail(murphi.NoPos, "unsigned (64-bit) arithmetic")
	case len(m.Liveness) > maxLiveness:
		g.fail(murphi.NoPos, "more than %d liveness properties", maxLiveness)
	}
	for i := range m.Leaves {
		// (A presence flag is coded as a range of one value, 1.)
		if k := m.Leaves[i].Kind; k != compile.LeafRange && k != compile.LeafUnion && k != compile.LeafPresent || m.Leaves[i].Bits > 56 {
			g.fail(murphi.NoPos, "state leaves of multiset indices or of more than 56 bits")
		}
	}
}

// prelude binds the aliases of the alias rules around an instance,
// outermost first, each group once the entries of the chooses around it
// are found present (its bindings may read them), then checks the
// remaining entries: where one is absent, the function returns absent.
// It returns the undoing.
func (u *unit) prelude(in instance, absent int32) func() {
	f := u.f
	checked := 0
	check := func(upTo int) {
		for _, c := range in.chooses[checked:upTo] {
			u.entryFlag(c.multiset, c.index)
			f.i64Const(undef)
			f.i64Eq()
			f.if_()
			f.i32Const(absent)
			f.return_()
			f.end()
		}
		checked = upTo
	}
	var undo []func()
	for i, decls := range in.aliases {
		check(in.aliasChooses[i])
		undo = append(undo, u.bindAliases(decls))
	}
	check(len(in.chooses))
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
}

// bindAliasRules binds the aliases of the alias rules around a rule or
// property, outermost first, as core/compile's prelude does before the
// guard and again before the body; it returns the undoing.
func (u *unit) bindAliasRules(groups [][]*murphi.AliasDecl) func() {
	var undo []func()
	for _, decls := range groups {
		undo = append(undo, u.bindAliases(decls))
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
}
