package modelgen

// This file generates procedures, functions, rules, statements and
// expressions, keeping track of the names in scope and their types.

import (
	"fmt"
	"strings"
)

// ---------------------------------------------------------------------------
// Units: the body of a rule, start state, procedure or function, whose
// local variables are declared before the body but chosen while it is
// generated.

type unit struct {
	locals []*sym
	body   strings.Builder
}

// body generates a unit's statements with gen, then writes the local
// declarations and the body.
func (g *gen) unit(gen func()) (decls, body string) {
	saveB, saveInd, saveScope := g.b, g.ind, len(g.scope)
	g.b = strings.Builder{}
	g.ind = saveInd + 1
	u := &unit{}
	saveUnit := g.cur
	g.cur = u
	gen()
	body = g.b.String()
	g.cur = saveUnit
	g.b, g.ind = saveB, saveInd
	g.scope = g.scope[:saveScope]
	var d strings.Builder
	for _, l := range u.locals {
		fmt.Fprintf(&d, "%svar %s: %s;\n", strings.Repeat("  ", saveInd+1), l.name, l.t.ref())
	}
	return d.String(), body
}

// local declares a new local variable of type t in the current unit.
func (g *gen) local(t *typ) *sym {
	s := &sym{name: g.id("l"), t: t, kind: sLocal}
	g.cur.locals = append(g.cur.locals, s)
	g.scope = append(g.scope, s)
	return s
}

// ---------------------------------------------------------------------------
// Procedures and functions

func (g *gen) functions() {
	n := g.n(4)
	for i := 0; i < n; i++ {
		switch g.n(5) {
		case 0:
			g.recursive()
		case 1:
			g.function(true)
		case 2:
			g.function(false)
		default:
			g.procedure()
		}
	}
}

func (g *gen) params(n int, allowVar bool) []param {
	var ps []param
	for i := 0; i < n; i++ {
		p := param{name: g.id("p"), t: g.simpleType()}
		if g.chance(25) {
			p.t = g.varType()
		}
		if allowVar && g.chance(40) {
			p.isVar = true
		}
		ps = append(ps, p)
	}
	return ps
}

func (g *gen) header(f *fn) string {
	var parts []string
	for _, p := range f.params {
		v := ""
		if p.isVar {
			v = "var "
		}
		parts = append(parts, fmt.Sprintf("%s%s: %s", v, p.name, p.t.ref()))
	}
	h := fmt.Sprintf("(%s)", strings.Join(parts, "; "))
	if f.result != nil {
		return "function " + f.name + h + ": " + f.result.ref() + ";"
	}
	return "procedure " + f.name + h + ";"
}

// enterFn puts f's parameters in scope for its body.
func (g *gen) enterFn(f *fn) func() {
	saveFn, saveGuard := g.inFunc, g.inGuard
	// Functions see only the globals and their own names.
	saveScope := g.scope
	g.scope = append([]*sym(nil), g.globals...)
	for _, p := range f.params {
		k := sParam
		if p.isVar {
			k = sVarParam
		}
		g.scope = append(g.scope, &sym{name: p.name, t: p.t, kind: k})
	}
	g.inFunc = f
	g.inGuard = false
	return func() {
		g.scope = saveScope
		g.inFunc, g.inGuard = saveFn, saveGuard
	}
}

// function declares a function; a pure one writes only its locals and
// can be called in guards and properties.
func (g *gen) function(pure bool) {
	f := &fn{name: g.id("f"), pure: pure, result: g.simpleType()}
	if g.chance(20) {
		f.result = g.varType()
		if f.result.kind == kMset {
			f.result = g.simpleType()
		}
	}
	f.params = g.params(g.n(3), !pure)
	g.declare(f, func() {
		g.stmts(1 + g.n(3))
		v := g.value(f.result, 2)
		if v == "" {
			v = g.local(f.result).name
		}
		g.line("return %s;", v)
	})
}

func (g *gen) procedure() {
	f := &fn{name: g.id("q")}
	f.params = g.params(g.n(3), true)
	g.declare(f, func() { g.stmts(1 + g.n(4)) })
}

// declare writes procedure or function f with the body gen generates.
func (g *gen) declare(f *fn, gen func()) {
	leave := g.enterFn(f)
	decls, body := g.unit(gen)
	leave()
	g.line("%s", g.header(f))
	g.b.WriteString(decls)
	g.line("begin")
	g.b.WriteString(body)
	g.line("end;")
	g.fns = append(g.fns, f)
}

// recursive declares a recursive function of a depth parameter; calls
// pass small depths, and now and then one past Locus's internal growth
// points (the stack doubles from 1024 slots) or past the recursion limit.
func (g *gen) recursive() {
	depth := []int{3, 5, 600, 1200, 10005}[g.n(5)]
	r := g.ranges[g.n(len(g.ranges))]
	f := &fn{name: g.id("rec"), pure: true, recurse: true, result: r}
	dt := &typ{kind: kRange, lo: 0, hi: depth}
	f.params = []param{{name: g.id("n"), t: dt}, {name: g.id("a"), t: r}}
	g.line("%s", g.header(f))
	g.line("begin")
	g.ind++
	g.line("if %s = 0 then return %s; endif;", f.params[0].name, f.params[1].name)
	g.line("return %s(%s - 1, %s);", f.name, f.params[0].name, f.params[1].name)
	g.ind--
	g.line("end;")
	g.fns = append(g.fns, f)
}

// call returns a call of a function returning something assignable to t
// (nil t: any procedure or function, as a statement), or "".
func (g *gen) call(t *typ, asStmt bool) string {
	var cands []*fn
	for _, f := range g.fns {
		if g.inGuard && !f.pure {
			continue
		}
		if g.inFunc != nil && g.inFunc.pure && !f.pure {
			continue
		}
		if f == g.inFunc {
			continue // only the generated recursive functions recurse
		}
		if asStmt || (f.result != nil && assignable(t, f.result)) {
			cands = append(cands, f)
		}
	}
	if len(cands) == 0 {
		return ""
	}
	f := cands[g.n(len(cands))]
	var args []string
	for i, p := range f.params {
		if f.recurse && i == 0 {
			d := []int{0, 1, 2, 3}[g.n(4)]
			if g.chance(50) {
				d = p.t.hi - g.n(3)
			}
			args = append(args, fmt.Sprint(d))
			continue
		}
		if p.isVar {
			d := g.designator(func(u *typ) bool { return u == p.t }, true)
			if d == "" {
				return ""
			}
			args = append(args, d)
			continue
		}
		if p.t.simple() && g.undef && g.chance(10) {
			args = append(args, "undefined")
			continue
		}
		v := g.value(p.t, 1)
		if v == "" {
			return ""
		}
		args = append(args, v)
	}
	return f.name + "(" + strings.Join(args, ", ") + ")"
}

// ---------------------------------------------------------------------------
// Statements

func (g *gen) stmts(n int) {
	for i := 0; i < n; i++ {
		g.stmt(2)
	}
}

// writableOK reports whether code here may write sym s.
func (g *gen) writableOK(s *sym) bool {
	if !s.writable() {
		return false
	}
	if g.inFunc != nil && g.inFunc.pure {
		return s.kind == sLocal
	}
	return true
}

func (g *gen) stmt(depth int) {
	if depth <= 0 {
		g.assign()
		return
	}
	switch g.n(26) {
	case 0, 1, 2, 3, 4, 5, 6:
		g.assign()
	case 7, 8:
		c := g.boolExpr(2)
		g.line("if %s then", c)
		g.block(depth)
		if g.chance(40) {
			g.line("elsif %s then", g.boolExpr(1))
			g.block(depth)
		}
		if g.chance(50) {
			g.line("else")
			g.block(depth)
		}
		g.line("endif;")
	case 9:
		g.switchStmt(depth)
	case 10, 11:
		g.forStmt(depth)
	case 12:
		g.whileStmt(depth)
	case 13:
		g.aliasStmt(depth)
	case 14, 15:
		if c := g.call(nil, true); c != "" {
			g.line("%s;", c)
		} else {
			g.assign()
		}
	case 16:
		if d := g.writableDesignator(nil); d != "" {
			kw := "clear"
			if g.undef && g.chance(50) {
				kw = "undefine"
			}
			g.line("%s %s;", kw, d)
		}
	case 17:
		if g.chance(40) {
			g.line("assert %s \"%s\";", g.boolExpr(1), g.id("a"))
		} else if g.chance(30) {
			g.line("if %s then error \"%s\"; endif;", g.boolExpr(1), g.id("err"))
		}
	case 18:
		g.hasAssume = true
		g.line("assume %s;", g.boolExpr(1))
	case 19:
		if !g.omit.CoverStatements {
			g.line("cover \"%s\" %s;", g.id("c"), g.boolExpr(1))
		}
	case 20, 21:
		g.multisetStmt()
	case 22:
		if g.inFunc == nil || g.inFunc.result == nil {
			g.line("if %s then return; endif;", g.boolExpr(1))
		} else {
			v := g.value(g.inFunc.result, 1)
			if v == "" {
				v = g.local(g.inFunc.result).name
			}
			g.line("if %s then return %s; endif;", g.boolExpr(1), v)
		}
	case 23:
		if g.chance(50) {
			g.line("put \"%s\";", g.id("s"))
		} else {
			g.line("put %s;", g.expr(g.simpleType(), 1))
		}
	default:
		g.assign()
	}
}

func (g *gen) block(depth int) {
	g.ind++
	save := len(g.scope)
	n := 1 + g.n(2)
	for i := 0; i < n; i++ {
		g.stmt(depth - 1)
	}
	g.scope = g.scope[:save]
	g.ind--
}

// progress changes a simple variable to another value of its type: a
// toggle, a step through a range, another enum member. Rules that do this
// give the model somewhere to go.
func (g *gen) progress() {
	var dt *typ
	d := g.designatorT(func(u *typ) bool { return u.simple() && u.kind != kUnion }, true, &dt)
	if d == "" {
		return
	}
	switch dt.kind {
	case kBool:
		g.line("%s := !%s;", d, d)
	case kRange:
		n := dt.hi - dt.lo + 1
		g.line("%s := (%s - %d + %d) %% %d + %d;", d, d, dt.lo, 1+g.n(n-1), n, dt.lo)
	case kEnum:
		g.line("%s := %s;", d, dt.members[g.n(len(dt.members))])
	default:
		g.line("%s := %s;", d, g.expr(dt, 1))
	}
}

// assign writes a writable designator.
func (g *gen) assign() {
	var dt *typ
	d := g.writableDesignatorT(&dt)
	if d == "" {
		return
	}
	switch {
	case g.undef && g.chance(8):
		g.line("%s := undefined;", d)
	case dt.kind == kRange && g.chance(75):
		g.line("%s := %s;", d, g.inRange(dt, 2))
	case dt.kind == kBool && g.chance(30):
		g.line("%s := !%s;", d, d)
	case dt.simple():
		g.line("%s := %s;", d, g.expr(dt, 2))
	default:
		v := g.value(dt, 2)
		if v == "" {
			return
		}
		g.line("%s := %s;", d, v)
	}
}

func (g *gen) switchStmt(depth int) {
	t := g.simpleType()
	if t.kind == kSset || t.kind == kUnion {
		t = g.ranges[0]
	}
	g.line("switch %s", g.expr(t, 1))
	lits := g.literals(t)
	used := map[string]bool{}
	for i := 0; i < 1+g.n(2) && len(lits) > 0; i++ {
		l := lits[g.n(len(lits))]
		if used[l] {
			continue
		}
		used[l] = true
		g.line("case %s:", l)
		g.block(depth)
	}
	if g.chance(60) {
		g.line("else")
		g.block(depth)
	}
	g.line("endswitch;")
}

// literals lists constant expressions of a simple type (none for
// scalarsets).
func (g *gen) literals(t *typ) []string {
	switch t.kind {
	case kBool:
		return []string{"true", "false"}
	case kRange:
		var out []string
		for v := t.lo; v <= t.hi; v++ {
			out = append(out, fmt.Sprint(v))
		}
		return out
	case kEnum:
		return t.members
	case kUnion:
		var out []string
		for _, u := range t.union {
			out = append(out, g.literals(u)...)
		}
		return out
	}
	return nil
}

// quantifier returns a quantifier text and binds its name.
func (g *gen) quantifier() string {
	name := g.id("i")
	if g.chance(25) {
		lo := g.n(3) - 1
		if g.unsigned {
			lo++
		}
		hi := lo + g.n(4)
		s := &sym{name: name, t: &typ{kind: kRange, lo: min(lo, hi), hi: max(lo, hi)}, kind: sQuant}
		if g.chance(10) {
			// A step known only when the loop runs: it may be 0.
			by := g.designator(func(u *typ) bool { return u.kind == kRange }, false)
			g.scope = append(g.scope, s)
			if by != "" {
				return fmt.Sprintf("%s := %d to %d by %s", name, lo, hi, by)
			}
			return fmt.Sprintf("%s := %d to %d", name, lo, hi)
		}
		g.scope = append(g.scope, s)
		if g.chance(30) && !g.unsigned {
			return fmt.Sprintf("%s := %d to %d by %d", name, hi, lo, -1-g.n(2))
		}
		return fmt.Sprintf("%s := %d to %d", name, lo, hi)
	}
	t := g.indexType()
	g.scope = append(g.scope, &sym{name: name, t: t, kind: sQuant})
	return name + ": " + t.ref()
}

func (g *gen) forStmt(depth int) {
	if g.loopDepth >= 2 {
		g.assign()
		return
	}
	save := len(g.scope)
	q := g.quantifier()
	g.line("for %s do", q)
	g.loopDepth++
	g.block(depth)
	g.loopDepth--
	g.line("endfor;")
	g.scope = g.scope[:save]
}

// whileStmt is a loop bounded by a local counter.
func (g *gen) whileStmt(depth int) {
	if g.loopDepth >= 2 || (g.inFunc != nil && g.inFunc.pure && false) {
		g.assign()
		return
	}
	c := g.local(&typ{kind: kRange, lo: 0, hi: 4})
	c.kind = sValue // the body must not write the counter
	limit := 1 + g.n(3)
	g.line("%s := 0;", c.name)
	g.line("while %s < %d do", c.name, limit)
	g.loopDepth++
	g.block(depth)
	g.ind++
	g.line("%s := %s + 1;", c.name, c.name)
	g.ind--
	g.loopDepth--
	g.line("endwhile;")
}

func (g *gen) aliasStmt(depth int) {
	if !g.alias(false, func() { g.block(depth) }) {
		g.assign()
	}
}

// alias writes "alias a: designator do ... endalias" with inner generating
// what is inside, the alias in scope; it reports false if there is no
// designator to alias. The bindings of an alias rule (pure) may not change
// the state.
func (g *gen) alias(pure bool, inner func()) bool {
	save := len(g.scope)
	defer func() { g.scope = g.scope[:save] }()
	saveGuard := g.inGuard
	g.inGuard = g.inGuard || pure
	restore := func() { g.inGuard = saveGuard }
	defer restore()
	var dt *typ
	d := g.designatorT(func(*typ) bool { return true }, false, &dt)
	if d == "" {
		return false
	}
	name := g.id("al")
	k := sValue
	if g.isWritable(d) {
		k = sAlias
	}
	if g.chance(25) {
		// An alias of a value, evaluated when the alias is entered.
		for dt = g.simpleType(); dt.kind == kUnion; dt = g.simpleType() {
			// a union expression may have a member's type
		}
		d, k = g.expr(dt, 1), sValAlias
	}
	restore() // the rules inside are not bindings
	g.line("alias %s: %s do", name, d)
	g.scope = append(g.scope, &sym{name: name, t: dt, kind: k})
	inner()
	g.line("endalias;")
	return true
}

// multisetStmt adds to or removes from a multiset.
func (g *gen) multisetStmt() {
	var mt *typ
	m := g.designatorT(func(u *typ) bool { return u.kind == kMset }, true, &mt)
	if m == "" || mt == nil {
		g.assign()
		return
	}
	elem := g.value(mt.elem, 1)
	if elem == "" {
		return
	}
	switch g.n(3) {
	case 0:
		g.line("if multisetcount(%s: %s, true) < %d then multisetadd(%s, %s); endif;", g.id("k"), m, mt.size, elem, m)
	case 1:
		g.line("multisetadd(%s, %s);", elem, m)
	default:
		k := g.id("k")
		save := len(g.scope)
		g.scope = append(g.scope, &sym{name: k, kind: sChoose, ms: m, msType: mt})
		pred := g.boolExpr(1)
		g.scope = g.scope[:save]
		g.line("multisetremovepred(%s: %s, %s);", k, m, pred)
		g.forgetEntries(m)
	}
}

// ---------------------------------------------------------------------------
// Designators

// writableDesignator returns a designator the code may assign.
func (g *gen) writableDesignator(want func(*typ) bool) string {
	var t *typ
	if want == nil {
		want = func(*typ) bool { return true }
	}
	return g.designatorT(want, true, &t)
}

func (g *gen) writableDesignatorT(t **typ) string {
	return g.designatorT(func(u *typ) bool { return u.kind != kMset }, true, t)
}

func (g *gen) designator(want func(*typ) bool, writable bool) string {
	var t *typ
	return g.designatorT(want, writable, &t)
}

// designatorT picks a designator of a type satisfying want (reached through
// fields, array elements and choose-indexed multiset entries) and reports
// its type.
func (g *gen) designatorT(want func(*typ) bool, writable bool, out **typ) string {
	var cands []*sym
	for _, s := range g.scope {
		if s.kind == sChoose || s.kind == sQuant || s.kind == sValAlias || s.t == nil {
			continue
		}
		if writable && !g.writableOK(s) {
			continue
		}
		if g.reaches(s.t, s.name, want, 2) {
			cands = append(cands, s)
		}
	}
	if len(cands) == 0 {
		return ""
	}
	s := cands[g.n(len(cands))]
	return g.descend(s.name, s.t, want, 2, out)
}

// reaches reports whether a designator of type t (written base) has a
// component satisfying want within depth steps.
func (g *gen) reaches(t *typ, base string, want func(*typ) bool, depth int) bool {
	if want(t) {
		return true
	}
	if depth == 0 {
		return false
	}
	switch t.kind {
	case kRecord:
		for _, f := range t.fields {
			if g.reaches(f.t, base+"."+f.name, want, depth-1) {
				return true
			}
		}
	case kArray:
		return g.reaches(t.elem, base+"[]", want, depth-1)
	case kMset:
		if c := g.chooseFor(base); c != nil {
			return g.reaches(t.elem, base+"["+c.name+"]", want, depth-1)
		}
	}
	return false
}

// forgetEntries stops designators through choose indices of multiset m:
// after a removal the entry an index names may be gone, and writing an
// absent entry is not something Murphi defines.
func (g *gen) forgetEntries(m string) {
	for _, s := range g.scope {
		if s.kind == sChoose && s.ms == m {
			s.ms = "\x00removed " + m
		}
	}
}

func (g *gen) chooseFor(ms string) *sym {
	for i := len(g.scope) - 1; i >= 0; i-- {
		if s := g.scope[i]; s.kind == sChoose && s.ms == ms {
			return s
		}
	}
	return nil
}

func (g *gen) descend(base string, t *typ, want func(*typ) bool, depth int, out **typ) string {
	stop := want(t) && (depth == 0 || !g.reachesDeeper(t, base, want, depth) || g.chance(50))
	if stop {
		*out = t
		return base
	}
	switch t.kind {
	case kRecord:
		var fs []field
		for _, f := range t.fields {
			if g.reaches(f.t, base+"."+f.name, want, depth-1) {
				fs = append(fs, f)
			}
		}
		f := fs[g.n(len(fs))]
		return g.descend(base+"."+f.name, f.t, want, depth-1, out)
	case kArray:
		return g.descend(base+"["+g.index(t.index)+"]", t.elem, want, depth-1, out)
	case kMset:
		c := g.chooseFor(base)
		return g.descend(base+"["+c.name+"]", t.elem, want, depth-1, out)
	}
	*out = t
	return base
}

func (g *gen) reachesDeeper(t *typ, base string, want func(*typ) bool, depth int) bool {
	if depth == 0 {
		return false
	}
	switch t.kind {
	case kRecord:
		for _, f := range t.fields {
			if g.reaches(f.t, base, want, depth-1) {
				return true
			}
		}
	case kArray:
		return g.reaches(t.elem, base, want, depth-1)
	case kMset:
		if g.chooseFor(base) != nil {
			return g.reaches(t.elem, base, want, depth-1)
		}
	}
	return false
}

// index returns an index expression of ordinal type t, in range but now
// and then one past it.
func (g *gen) index(t *typ) string {
	if t.kind == kRange {
		if g.chance(4) {
			return fmt.Sprint(t.hi + 1)
		}
		if g.chance(85) {
			return g.inRange(t, 1)
		}
	}
	return g.expr(t, 0)
}

// inRange returns an integer expression whose value, when its operands are
// defined, lies in the range t: most assignments and indices stay in range,
// so that models run past their first state.
func (g *gen) inRange(t *typ, depth int) string {
	n := t.hi - t.lo + 1
	exact := func() string {
		var cands []string
		for _, s := range g.scope {
			if s.kind == sQuant && s.t == t {
				cands = append(cands, s.name)
			}
		}
		if d := g.designator(func(u *typ) bool { return u == t }, false); d != "" {
			cands = append(cands, d)
		}
		if len(cands) == 0 {
			return ""
		}
		return cands[g.n(len(cands))]
	}
	switch g.n(5) {
	case 0, 1:
		if d := exact(); d != "" && depth > 0 {
			// Step through the range, wrapping around.
			return fmt.Sprintf("(%s - %d + %d) %% %d + %d", d, t.lo, 1+g.n(n), n, t.lo)
		}
	case 2:
		if d := exact(); d != "" {
			return d
		}
	case 3:
		if depth > 0 {
			return fmt.Sprintf("(%s ? %s : %s)", g.boolExpr(depth-1), g.inRange(t, depth-1), g.inRange(t, depth-1))
		}
	}
	return fmt.Sprint(t.lo + g.n(n))
}

// isWritable reports whether designator text d starts at a name code here
// may write.
func (g *gen) isWritable(d string) bool {
	root := d
	if i := strings.IndexAny(d, ".["); i >= 0 {
		root = d[:i]
	}
	for i := len(g.scope) - 1; i >= 0; i-- {
		if g.scope[i].name == root {
			return g.writableOK(g.scope[i])
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// Expressions

// value returns an expression of a type assignable to t, aggregate or not.
func (g *gen) value(t *typ, depth int) string {
	if t.simple() {
		return g.expr(t, depth)
	}
	if g.chance(25) {
		if c := g.call(t, false); c != "" {
			return c
		}
	}
	d := g.designator(func(u *typ) bool { return aggregateCompatible(t, u) }, false)
	if d != "" {
		if g.chance(15) {
			d2 := g.designator(func(u *typ) bool { return aggregateCompatible(t, u) }, false)
			if d2 != "" {
				return fmt.Sprintf("(%s ? %s : %s)", g.boolExpr(1), d, d2)
			}
		}
		return d
	}
	return ""
}

// aggregateCompatible: an aggregate of type src may be assigned to dst.
func aggregateCompatible(dst, src *typ) bool {
	if dst == src {
		return true
	}
	if dst.kind != src.kind {
		return false
	}
	switch dst.kind {
	case kArray:
		return dst.index == src.index && sameElem(dst.elem, src.elem)
	case kMset:
		return dst.size == src.size && sameElem(dst.elem, src.elem)
	}
	return false
}

func sameElem(a, b *typ) bool {
	if a.simple() || b.simple() {
		return assignable(a, b)
	}
	return aggregateCompatible(a, b)
}

func (g *gen) boolExpr(depth int) string { return g.expr(boolType, depth) }

// expr returns an expression assignable to the simple type t.
func (g *gen) expr(t *typ, depth int) string {
	if depth <= 0 || g.chance(30) {
		return g.leaf(t)
	}
	if g.chance(6) {
		arm := t
		if t.kind == kUnion {
			arm = t.union[g.n(len(t.union))] // both arms of one type
		}
		return fmt.Sprintf("(%s ? %s : %s)", g.boolExpr(depth-1), g.expr(arm, depth-1), g.expr(arm, depth-1))
	}
	if g.chance(10) {
		if c := g.call(t, false); c != "" {
			return c
		}
	}
	switch t.kind {
	case kBool:
		return g.boolOp(depth)
	case kRange:
		return g.intOp(t, depth)
	}
	return g.leaf(t)
}

// leaf returns a literal or designator of type t.
func (g *gen) leaf(t *typ) string {
	lit := map[kind]int{kBool: 15, kRange: 30, kEnum: 40}[t.kind]
	if t.kind != kSset && g.chance(lit) {
		if lits := g.literals(t); len(lits) > 0 && t.kind != kUnion {
			if t.kind == kRange && g.chance(5) {
				return fmt.Sprint(t.hi + 1)
			}
			return lits[g.n(len(lits))]
		}
	}
	var cands []*sym
	for _, s := range g.scope {
		if (s.kind == sQuant || s.kind == sValAlias) && assignable(t, s.t) {
			cands = append(cands, s)
		}
	}
	if len(cands) > 0 && g.chance(40) {
		return cands[g.n(len(cands))].name
	}
	want := func(u *typ) bool { return u.simple() && assignable(t, u) }
	if t.kind == kUnion && g.chance(50) {
		m := t.union[g.n(len(t.union))]
		return g.leaf(m)
	}
	if d := g.designator(want, false); d != "" {
		return d
	}
	if lits := g.literals(t); len(lits) > 0 {
		return lits[g.n(len(lits))]
	}
	panic("modelgen: no value of type " + t.ref() + " in scope")
}

func (g *gen) boolOp(depth int) string {
	sub := func() string { return g.expr(boolType, depth-1) }
	switch g.n(12) {
	case 0:
		return "!" + paren(sub())
	case 1, 2:
		return paren(sub()) + " & " + paren(sub())
	case 3:
		return paren(sub()) + " | " + paren(sub())
	case 4:
		return paren(sub()) + " -> " + paren(sub())
	case 5, 6, 7:
		t := g.simpleType()
		a, b := g.expr(t, depth-1), g.expr(t, depth-1)
		if t.kind == kUnion {
			// Two members of a union do not compare: one side is the
			// union itself.
			a = g.designator(func(u *typ) bool { return u == t }, false)
		}
		op := []string{"=", "!="}[g.n(2)]
		if t.kind == kRange && g.chance(60) {
			op = []string{"<", "<=", ">", ">="}[g.n(4)]
		}
		return paren(a) + " " + op + " " + paren(b)
	case 8:
		save := len(g.scope)
		q := g.quantifier()
		kw := []string{"forall", "exists"}[g.n(2)]
		var body string
		if g.chance(60) {
			body = g.junction(g.scope[len(g.scope)-1], depth-1)
		} else {
			body = g.expr(boolType, depth-1)
		}
		g.scope = g.scope[:save]
		return fmt.Sprintf("%s %s do %s end%s", kw, q, body, kw)
	case 9:
		if !g.undef && !g.chance(10) {
			break
		}
		if d := g.designator(func(u *typ) bool { return u.simple() }, false); d != "" {
			return "isundefined(" + d + ")"
		}
	case 10:
		if g.union != nil {
			if d := g.designator(func(u *typ) bool { return u == g.union }, false); d != "" {
				m := g.union.union[g.n(len(g.union.union))]
				return fmt.Sprintf("ismember(%s, %s)", d, m.name)
			}
		}
		var at *typ
		if d := g.designatorT(func(u *typ) bool { return u.kind == kRecord || u.kind == kArray }, false, &at); d != "" {
			if e := g.designator(func(u *typ) bool { return aggregateCompatible(at, u) }, false); e != "" {
				return d + " = " + e
			}
		}
	case 11:
		var mt *typ
		if m := g.designatorT(func(u *typ) bool { return u.kind == kMset }, false, &mt); m != "" {
			k := g.id("k")
			save := len(g.scope)
			g.scope = append(g.scope, &sym{name: k, kind: sChoose, ms: m, msType: mt})
			pred := g.boolExpr(depth - 1)
			g.scope = g.scope[:save]
			return fmt.Sprintf("multisetcount(%s: %s, %s) > %d", k, m, pred, g.n(2))
		}
	}
	return g.leaf(boolType)
}

func (g *gen) intOp(t *typ, depth int) string {
	sub := func() string { return g.expr(g.ranges[g.n(len(g.ranges))], depth-1) }
	switch g.n(11) {
	case 0, 1:
		// Stay in range: wrap around the target's values.
		a := sub()
		return fmt.Sprintf("(%s + %d) %% %d + %d", paren(a), 1+g.n(2), t.hi-t.lo+1, t.lo)
	case 2:
		return paren(sub()) + " + " + paren(sub())
	case 3:
		if !g.unsigned { // two constants might go below 0, which the checker rejects
			return paren(sub()) + " - " + paren(sub())
		}
	case 4:
		return paren(sub()) + " * " + paren(sub())
	case 5:
		return paren(sub()) + " / " + g.divisor()
	case 6:
		return paren(sub()) + " % " + g.divisor()
	case 7:
		if !g.unsigned {
			return "-(" + sub() + ")"
		}
	case 8:
		var mt *typ
		if m := g.designatorT(func(u *typ) bool { return u.kind == kMset }, false, &mt); m != "" {
			k := g.id("k")
			save := len(g.scope)
			g.scope = append(g.scope, &sym{name: k, kind: sChoose, ms: m, msType: mt})
			pred := g.boolExpr(depth - 1)
			g.scope = g.scope[:save]
			return fmt.Sprintf("multisetcount(%s: %s, %s)", k, m, pred)
		}
	case 9:
		return paren(sub()) + " * 0"
	case 10:
		if g.chance(50) {
			// A count from a range that may hold negative values (which
			// shift the other way) and large ones.
			return paren(sub()) + []string{" << ", " >> "}[g.n(2)] + paren(sub())
		}
	}
	return g.leaf(t)
}

// divisor returns a divisor that is not the constant 0 (the checker
// rejects that), but may well be 0 when it runs.
func (g *gen) divisor() string {
	if g.chance(50) {
		if d := g.designator(func(u *typ) bool { return u.kind == kRange }, false); d != "" {
			return d
		}
	}
	if g.unsigned {
		return []string{"1", "2", "3"}[g.n(3)]
	}
	return []string{"1", "2", "3", "-1", "-2"}[g.n(5)]
}

// junction returns a quantifier's body of two or three literals joined
// by &, | or ->, some negated: one may compare the quantified name q with
// another name of its type (i != j in exists j: i != j & s[i] = c), and
// the others often name q not at all (literals the generated code tests
// before the loop where it can).
func (g *gen) junction(q *sym, depth int) string {
	var lits []string
	if q.t.kind != kUnion && g.chance(80) {
		other := g.expr(q.t, 0)
		for _, s := range g.scope {
			if s != q && s.kind == sQuant && s.t == q.t && g.chance(70) {
				other = s.name
			}
		}
		lits = append(lits, q.name+" "+[]string{"!=", "="}[g.n(2)]+" "+paren(other))
	}
	for len(lits) < 2 || len(lits) < 3 && g.chance(50) {
		lits = append(lits, g.expr(boolType, depth))
	}
	s := paren(lits[0])
	for _, l := range lits[1:] {
		if g.chance(20) {
			l = "!" + paren(l)
		}
		s = "(" + s + []string{" & ", " | ", " -> "}[g.n(3)] + paren(l) + ")"
	}
	if g.chance(30) {
		s = "!" + s
	}
	return s
}

func paren(s string) string {
	if strings.IndexAny(s, " ") < 0 {
		return s
	}
	return "(" + s + ")"
}
