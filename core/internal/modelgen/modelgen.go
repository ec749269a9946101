// Package modelgen generates random Murphi models that type-check and run:
// small state spaces built from every construct the language has
// (functions and recursion, var parameters, records, arrays, multisets,
// unions, scalarsets, enums, aliases, undefined, rulesets, choose,
// priorities, invariants, assumptions, covers, liveness, asserts), for the
// differential test in core/internal/difftest.
//
// A generator draws every decision from a Source, so that a fuzzer's bytes
// steer the model it builds.
package modelgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Source supplies the generator's decisions.
type Source interface {
	// Intn returns a number in [0, n).
	Intn(n int) int
}

// NewRand returns a Source drawing from a seeded generator.
func NewRand(seed uint64) Source {
	return randSource{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

type randSource struct{ r *rand.Rand }

func (s randSource) Intn(n int) int { return s.r.IntN(n) }

// NewBytes returns a Source that reads its decisions from data, two bytes
// each, and continues from a generator seeded by data once it runs out.
func NewBytes(data []byte) Source {
	var seed uint64 = 1469598103934665603
	for _, b := range data {
		seed = (seed ^ uint64(b)) * 1099511628211
	}
	return &byteSource{data: data, rest: NewRand(seed)}
}

type byteSource struct {
	data []byte
	pos  int
	rest Source
}

func (s *byteSource) Intn(n int) int {
	if s.pos+1 < len(s.data) {
		v := int(s.data[s.pos])<<8 | int(s.data[s.pos+1])
		s.pos += 2
		return v % n
	}
	return s.rest.Intn(n)
}

// Model is a generated model and the options to check it with.
type Model struct {
	Source    string
	Symmetry  bool   // check with exact symmetry reduction
	Deadlock  string // "stuttering", "stuck" or "off"
	MaxErrors int
	Bound     int
}

// Omit names features a model leaves out, to draw models from a subset
// of the language (the code generator's, say). Leaving nothing out draws
// Generate's models.
type Omit struct {
	CoverStatements bool
	Liveness        bool // liveness properties (invariants instead)
	Multisets       bool
	Priorities      bool
	Unsigned        bool
}

// Generate builds one model.
func Generate(src Source) Model { return GenerateOmitting(src, Omit{}) }

// GenerateOmitting builds one model without the features o names.
func GenerateOmitting(src Source, o Omit) Model {
	g := &gen{src: src, omit: o}
	g.undef = g.chance(20)
	g.unsigned = g.chance(5) && !o.Unsigned
	g.model()
	m := Model{Source: g.b.String(), MaxErrors: 1}
	m.Symmetry = g.scalarset != nil && g.chance(70)
	m.Deadlock = []string{"stuttering", "stuttering", "stuck", "off", "off"}[g.n(5)]
	if g.chance(15) {
		m.MaxErrors = 2 + g.n(3)
	}
	if g.chance(8) {
		m.Bound = 1 + g.n(4)
	}
	return m
}

// ---------------------------------------------------------------------------
// Types

type kind uint8

const (
	kBool kind = iota
	kRange
	kEnum
	kSset
	kUnion
	kRecord
	kArray
	kMset
)

type typ struct {
	kind    kind
	name    string // declared name; "" for an anonymous type
	lo, hi  int
	members []string
	size    int
	fields  []field
	index   *typ
	elem    *typ
	union   []*typ
}

type field struct {
	name string
	t    *typ
}

var boolType = &typ{kind: kBool, name: "boolean"}

func (t *typ) simple() bool { return t.kind <= kUnion }

// ordinal: usable as an array index or quantifier domain.
func (t *typ) ordinal() bool { return t.simple() }

func (t *typ) count() int {
	switch t.kind {
	case kBool:
		return 2
	case kRange:
		return t.hi - t.lo + 1
	case kEnum:
		return len(t.members)
	case kSset:
		return t.size
	case kUnion:
		n := 0
		for _, u := range t.union {
			n += u.count()
		}
		return n
	}
	return 0
}

// leaves counts scalar components.
func (t *typ) leaves() int {
	switch t.kind {
	case kRecord:
		n := 0
		for _, f := range t.fields {
			n += f.t.leaves()
		}
		return n
	case kArray:
		return t.index.count() * t.elem.leaves()
	case kMset:
		return t.size * (1 + t.elem.leaves())
	}
	return 1
}

// symmetric reports whether t involves a scalarset.
func (t *typ) hasSset() bool {
	switch t.kind {
	case kSset:
		return true
	case kUnion:
		for _, u := range t.union {
			if u.hasSset() {
				return true
			}
		}
	case kRecord:
		for _, f := range t.fields {
			if f.t.hasSset() {
				return true
			}
		}
	case kArray:
		return t.index.hasSset() || t.elem.hasSset()
	case kMset:
		return t.elem.hasSset()
	}
	return false
}

// ref is how the type is written where it is used.
func (t *typ) ref() string {
	if t.name != "" {
		return t.name
	}
	switch t.kind {
	case kRange:
		return fmt.Sprintf("%d .. %d", t.lo, t.hi)
	case kEnum:
		return "enum { " + strings.Join(t.members, ", ") + " }"
	case kRecord:
		var b strings.Builder
		b.WriteString("record ")
		for _, f := range t.fields {
			fmt.Fprintf(&b, "%s: %s; ", f.name, f.t.ref())
		}
		b.WriteString("end")
		return b.String()
	case kArray:
		return "array [" + t.index.ref() + "] of " + t.elem.ref()
	case kMset:
		return fmt.Sprintf("multiset [%d] of %s", t.size, t.elem.ref())
	}
	panic("modelgen: anonymous type of this kind")
}

// sameType: values of a may be assigned to b (and compared), per the
// checker's compatibility rules, kept strict enough to stay well-typed.
func assignable(dst, src *typ) bool {
	if dst == src {
		return true
	}
	if dst.kind == kRange && src.kind == kRange {
		return true
	}
	if dst.kind == kUnion {
		for _, u := range dst.union {
			if u == src {
				return true
			}
		}
	}
	if src.kind == kUnion && (dst.kind == kEnum || dst.kind == kSset) {
		for _, u := range src.union {
			if u == dst {
				return true
			}
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// Names in scope

type symKind uint8

const (
	sGlobal symKind = iota
	sLocal
	sParam
	sVarParam
	sQuant
	sAlias // of a designator: writable
	sValue // alias of a value, choose index: read-only
	sChoose
	// sValAlias is an alias of a value: read like a quantified name, but
	// its value need not lie in its type's range.
	sValAlias
)

type sym struct {
	name string
	t    *typ
	kind symKind
	// ms is the multiset designator a choose index ranges over.
	ms string
	// msType is that multiset's type.
	msType *typ
}

func (s *sym) writable() bool {
	return s.kind == sGlobal || s.kind == sLocal || s.kind == sVarParam || s.kind == sAlias
}

type scope struct {
	syms []*sym
}

// fn is a generated procedure or function.
type fn struct {
	name    string
	params  []param
	result  *typ // nil for a procedure
	pure    bool // writes no global and no var parameter: callable in guards
	recurse bool // a recursive function of one 0..K parameter
}

type param struct {
	name  string
	t     *typ
	isVar bool
}

// ---------------------------------------------------------------------------
// The generator

type gen struct {
	src Source
	b   strings.Builder
	ind int
	ids int

	ranges    []*typ
	enums     []*typ
	scalarset *typ
	sset2     *typ
	union     *typ
	records   []*typ
	globals   []*sym
	fns       []*fn
	scope     []*sym // names visible now (innermost last)
	// context of the code being generated
	inFunc     *fn
	inGuard    bool // guards and properties: no state changes, only pure calls
	loopDepth  int
	stmtBudget int
	priorities bool
	omit       Omit
	hasAssume  bool
	cur        *unit // the unit being generated
	pointers   *sym  // an array from the scalarset to itself, if any
	// undef: this model leaves variables undefined now and then (in the
	// others, reads of undefined values would end most runs at once).
	undef bool
	// unsigned: a literal above 2^63-1 makes every integer unsigned; the
	// model then has no negative numbers.
	unsigned bool
}

func (g *gen) n(k int) int { return g.src.Intn(k) }

// chance reports true pct percent of the time.
func (g *gen) chance(pct int) bool { return g.n(100) < pct }

func (g *gen) id(prefix string) string {
	g.ids++
	return fmt.Sprintf("%s%d", prefix, g.ids)
}

func (g *gen) line(format string, args ...any) {
	g.b.WriteString(strings.Repeat("  ", g.ind))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

func (g *gen) model() {
	g.line("-- generated by core/internal/modelgen")
	g.types()
	g.vars()
	g.functions()
	g.startStates()
	g.rules()
	g.properties()
}

// types declares the named types.
func (g *gen) types() {
	if g.unsigned {
		g.line("const %s: 18446744073709551615;", g.id("big"))
	}
	nr := 1 + g.n(2)
	for i := 0; i < nr; i++ {
		lo := []int{0, 0, 0, 1, -1}[g.n(5)]
		if g.unsigned && lo < 0 {
			lo = 0
		}
		t := &typ{kind: kRange, name: g.id("r"), lo: lo, hi: lo + 1 + g.n(3)}
		g.line("type %s: %d .. %d;", t.name, t.lo, t.hi)
		g.ranges = append(g.ranges, t)
	}
	if g.chance(60) {
		t := &typ{kind: kEnum, name: g.id("e")}
		for i := 0; i < 2+g.n(2); i++ {
			t.members = append(t.members, fmt.Sprintf("%s_%c", t.name, 'a'+i))
		}
		g.line("type %s: enum { %s };", t.name, strings.Join(t.members, ", "))
		g.enums = append(g.enums, t)
	}
	if g.chance(45) {
		g.scalarset = &typ{kind: kSset, name: g.id("s"), size: 2 + g.n(3)}
		g.line("type %s: scalarset(%d);", g.scalarset.name, g.scalarset.size)
		if g.chance(15) && g.scalarset.size <= 3 {
			g.sset2 = &typ{kind: kSset, name: g.id("s"), size: 2}
			g.line("type %s: scalarset(%d);", g.sset2.name, g.sset2.size)
		}
	}
	if g.chance(25) {
		var members []*typ
		if g.scalarset != nil {
			members = append(members, g.scalarset)
		}
		if len(g.enums) > 0 {
			members = append(members, g.enums[0])
		}
		if len(members) < 2 {
			t := &typ{kind: kEnum, name: g.id("e"), members: nil}
			for i := 0; i < 2; i++ {
				t.members = append(t.members, fmt.Sprintf("%s_%c", t.name, 'a'+i))
			}
			g.line("type %s: enum { %s };", t.name, strings.Join(t.members, ", "))
			g.enums = append(g.enums, t)
			members = append(members, t)
		}
		if len(members) >= 2 {
			g.union = &typ{kind: kUnion, name: g.id("u"), union: members}
			var names []string
			for _, m := range members {
				names = append(names, m.name)
			}
			g.line("type %s: union { %s };", g.union.name, strings.Join(names, ", "))
		}
	}
	if g.chance(50) {
		t := &typ{kind: kRecord, name: g.id("t")}
		for i := 0; i < 1+g.n(2); i++ {
			ft := g.simpleType()
			switch g.n(10) {
			case 0, 1:
				// Aggregates inside records: nested layouts and copies.
				ft = &typ{kind: kArray, index: g.indexType(), elem: g.simpleType()}
			case 2:
				if !g.omit.Multisets {
					ft = &typ{kind: kMset, size: 2, elem: g.simpleType()}
				}
			}
			t.fields = append(t.fields, field{name: fmt.Sprintf("f%d", i), t: ft})
		}
		g.line("type %s: %s;", t.name, (&typ{kind: kRecord, fields: t.fields}).ref())
		g.records = append(g.records, t)
	}
}

// simpleType picks a declared simple type.
func (g *gen) simpleType() *typ {
	for {
		switch g.n(6) {
		case 0, 1:
			return g.ranges[g.n(len(g.ranges))]
		case 2:
			return boolType
		case 3:
			if len(g.enums) > 0 {
				return g.enums[g.n(len(g.enums))]
			}
		case 4:
			if g.scalarset != nil {
				if g.sset2 != nil && g.chance(30) {
					return g.sset2
				}
				return g.scalarset
			}
		case 5:
			if g.union != nil && g.chance(50) {
				return g.union
			}
		}
	}
}

// indexType picks a small ordinal type for an array index.
func (g *gen) indexType() *typ {
	for {
		t := g.simpleType()
		if t.kind != kUnion || t.count() <= 4 {
			if t.count() <= 4 {
				return t
			}
		}
	}
}

// varType picks the type of a state variable or local.
func (g *gen) varType() *typ {
	switch g.n(10) {
	case 0, 1, 2, 3:
		return g.simpleType()
	case 4, 5:
		return &typ{kind: kArray, index: g.indexType(), elem: g.elemType()}
	case 6:
		if len(g.records) > 0 {
			return g.records[g.n(len(g.records))]
		}
	case 7:
		if g.chance(60) && !g.omit.Multisets {
			return &typ{kind: kMset, size: 2 + g.n(2), elem: g.elemType()}
		}
	}
	return g.simpleType()
}

func (g *gen) elemType() *typ {
	if len(g.records) > 0 && g.chance(20) {
		return g.records[g.n(len(g.records))]
	}
	return g.simpleType()
}

func (g *gen) vars() {
	leaves := 0
	n := 2 + g.n(3)
	for i := 0; i < n; i++ {
		t := g.varType()
		if leaves+t.leaves() > 10 && i > 0 {
			t = g.simpleType()
		}
		leaves += t.leaves()
		s := &sym{name: g.id("v"), t: t, kind: sGlobal}
		g.line("var %s: %s;", s.name, t.ref())
		g.globals = append(g.globals, s)
	}
	for _, t := range []*typ{g.scalarset, g.sset2, g.union} {
		if t != nil {
			// Scalarset values have no literals: keep one variable to
			// read them from.
			s := &sym{name: g.id("v"), t: t, kind: sGlobal}
			g.line("var %s: %s;", s.name, t.ref())
			g.globals = append(g.globals, s)
		}
	}
	if g.scalarset != nil && g.chance(50) {
		// An array over the scalarset: the shape symmetry acts on.
		s := &sym{name: g.id("v"), t: &typ{kind: kArray, index: g.scalarset, elem: g.smallElem()}, kind: sGlobal}
		g.line("var %s: %s;", s.name, s.t.ref())
		g.globals = append(g.globals, s)
	}
	if g.scalarset != nil && g.chance(40) {
		// Elements pointing at elements: graphs whose orbits a
		// normalisation that is not exact splits.
		g.pointers = &sym{name: g.id("v"), t: &typ{kind: kArray, index: g.scalarset, elem: g.scalarset}, kind: sGlobal}
		g.line("var %s: %s;", g.pointers.name, g.pointers.t.ref())
		g.globals = append(g.globals, g.pointers)
	}
	g.scope = append([]*sym(nil), g.globals...)
}

func (g *gen) smallElem() *typ {
	switch g.n(3) {
	case 0:
		return boolType
	case 1:
		if g.scalarset != nil {
			return g.scalarset
		}
	}
	return g.ranges[0]
}
