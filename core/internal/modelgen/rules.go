package modelgen

// This file generates start states, rules (simple, rulesets, aliases,
// chooses, priorities) and properties.

import (
	"fmt"
	"strings"
)

func (g *gen) startStates() {
	if g.chance(20) {
		save := len(g.scope)
		q := g.rulesetQuantifier()
		g.line("ruleset %s do", q)
		g.ind++
		g.startState()
		g.ind--
		g.line("endruleset;")
		g.scope = g.scope[:save]
	} else {
		g.startState()
	}
	if g.chance(15) {
		g.startState()
	}
}

func (g *gen) startState() {
	decls, body := g.unit(func() {
		for _, v := range g.globals {
			switch {
			case g.undef && g.chance(10):
				// left undefined
			case g.undef && g.chance(10):
				g.line("undefine %s;", v.name)
			case v.t.simple() && v.t.kind != kSset && g.chance(60):
				g.line("%s := %s;", v.name, g.leafLiteral(v.t))
			default:
				g.line("clear %s;", v.name)
			}
		}
		if g.chance(30) {
			g.stmts(1 + g.n(2))
		}
	})
	g.line("startstate \"%s\"", g.id("init"))
	g.b.WriteString(decls)
	g.line("begin")
	g.b.WriteString(body)
	g.line("endstartstate;")
}

// leafLiteral returns a literal of a simple type that has literals.
func (g *gen) leafLiteral(t *typ) string {
	lits := g.literals(t)
	if len(lits) == 0 {
		return g.expr(t, 0)
	}
	return lits[g.n(len(lits))]
}

func (g *gen) rules() {
	g.priorities = g.chance(12) && !g.omit.Priorities
	if p := g.pointers; p != nil {
		i, j := g.id("i"), g.id("j")
		g.line("ruleset %s: %s; %s: %s do", i, g.scalarset.name, j, g.scalarset.name)
		g.line("  rule \"%s\" %s[%s] != %s ==> begin %s[%s] := %s; endrule;", g.id("link"), p.name, i, j, p.name, i, j)
		g.line("endruleset;")
	}
	n := 3 + g.n(5)
	for i := 0; i < n; i++ {
		g.ruleDecl(0)
	}
}

// rulesetQuantifier binds a ruleset parameter over a small constant domain.
func (g *gen) rulesetQuantifier() string {
	name := g.id("i")
	if g.chance(20) {
		lo := g.n(2)
		hi := lo + g.n(3)
		g.scope = append(g.scope, &sym{name: name, t: &typ{kind: kRange, lo: lo, hi: hi}, kind: sQuant})
		return fmt.Sprintf("%s := %d to %d", name, lo, hi)
	}
	t := g.indexType()
	if g.scalarset != nil && g.chance(50) {
		t = g.scalarset
	}
	g.scope = append(g.scope, &sym{name: name, t: t, kind: sQuant})
	return name + ": " + t.ref()
}

func (g *gen) ruleDecl(nest int) {
	k := g.n(10)
	if nest >= 2 {
		k = 0
	}
	save := len(g.scope)
	defer func() { g.scope = g.scope[:save] }()
	switch k {
	case 5, 6:
		var qs []string
		for i := 0; i < 1+g.n(2); i++ {
			qs = append(qs, g.rulesetQuantifier())
		}
		g.line("ruleset %s do", strings.Join(qs, "; "))
		g.inner(nest)
		g.line("endruleset;")
	case 7:
		if !g.alias(true, func() { g.inner(nest) }) {
			g.simpleRule()
		}
	case 8:
		var mt *typ
		m := g.designatorT(func(u *typ) bool { return u.kind == kMset }, true, &mt)
		if m == "" {
			g.simpleRule()
			return
		}
		k := g.id("k")
		g.line("choose %s: %s do", k, m)
		g.scope = append(g.scope, &sym{name: k, kind: sChoose, ms: m, msType: mt})
		g.ind++
		// A removal is the typical choose rule.
		g.chooseRule(k, m)
		if g.chance(40) {
			g.ruleDecl(nest + 1)
		}
		g.ind--
		g.line("endchoose;")
	default:
		g.simpleRule()
	}
}

func (g *gen) inner(nest int) {
	g.ind++
	for i := 0; i < 1+g.n(2); i++ {
		g.ruleDecl(nest + 1)
	}
	if g.chance(10) {
		g.property()
	}
	g.ind--
}

// ruleHead returns "rule [priority] "name"".
func (g *gen) ruleHead() string {
	h := "rule "
	if g.priorities && g.chance(70) {
		h += fmt.Sprintf("%d ", 10*g.n(3))
	}
	return h + "\"" + g.id("R") + "\""
}

func (g *gen) simpleRule() {
	head := g.ruleHead()
	guard := ""
	if g.chance(60) {
		g.inGuard = true
		guard = g.boolExpr(2)
		if g.chance(40) {
			// Enabled more often than not.
			guard = paren(guard) + " | " + paren(g.boolExpr(1))
		}
		g.inGuard = false
	}
	decls, body := g.unit(func() {
		if g.chance(75) {
			g.progress()
		}
		g.stmts(g.n(4))
	})
	if guard != "" {
		g.line("%s %s ==>", head, guard)
	} else {
		g.line("%s", head)
	}
	g.b.WriteString(decls)
	g.line("begin")
	g.b.WriteString(body)
	g.line("endrule;")
}

func (g *gen) chooseRule(k, m string) {
	head := g.ruleHead()
	g.inGuard = true
	guard := g.boolExpr(1)
	g.inGuard = false
	decls, body := g.unit(func() {
		if g.chance(70) {
			g.line("multisetremove(%s, %s);", k, m)
			g.forgetEntries(m)
		}
		g.stmts(g.n(3))
	})
	for _, s := range g.scope {
		if s.kind == sChoose && s.ms == "\x00removed "+m {
			s.ms = m
		}
	}
	g.line("%s %s ==>", head, guard)
	g.b.WriteString(decls)
	g.line("begin")
	g.b.WriteString(body)
	g.line("endrule;")
}

func (g *gen) properties() {
	n := []int{0, 0, 0, 1, 1, 2}[g.n(6)]
	for i := 0; i < n; i++ {
		g.property()
	}
}

// property declares an invariant (most often), an assumption, a cover or
// a liveness property.
func (g *gen) property() {
	g.inGuard = true
	defer func() { g.inGuard = false }()
	cond := g.boolExpr(2)
	switch g.n(3) {
	case 0, 1:
		// An implication: it fails in some states, not all.
		cond = paren(g.boolExpr(1)) + " -> " + paren(cond)
	}
	name := g.id("P")
	switch g.n(20) {
	case 0:
		g.line("assume \"%s\" %s;", name, cond)
	case 1, 2:
		g.line("cover \"%s\" %s;", name, cond)
	case 3, 4:
		if g.omit.Liveness {
			g.line("invariant \"%s\" %s;", name, cond)
			break
		}
		g.line("liveness \"%s\" %s;", name, cond)
	default:
		g.line("invariant \"%s\" %s;", name, cond)
	}
}
