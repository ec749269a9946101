// Package compile turns a checked Murphi model into an executable one: a
// state layout where every scalar leaf has a bit offset and width, packed
// state vectors, and guards and actions compiled once into closures over a
// flat slot array, so that firing a rule walks no syntax tree and allocates
// nothing.
package compile

import (
	"github.com/locus-mc/locus/core/murphi"
)

// Model is an executable Murphi model.
type Model struct {
	Checked *murphi.Checked
	File    *murphi.File
	Arith   murphi.Arith
	// Undef is the slot value that means "undefined"; no legal value equals it.
	Undef int64

	// Leaves are the scalar components of the state, one per slot, in layout order.
	Leaves    []Leaf
	NumSlots  int
	StateBits int
	// StateBytes is the size of a packed state vector.
	StateBytes int
	// Vars are the global variables with their first slot.
	Vars []Var

	Starts     []*Start
	Rules      []*Rule
	Invariants []*Property
	Assumes    []*Property
	Covers     []*Property // top-level cover properties
	Liveness   []*Property
	// CoverStmts are the cover statements in the model, in source order,
	// counted per execution.
	CoverStmts []*CoverStmt
	// HasPriorities is set when some rule has a CMurphi priority: only the
	// enabled rules of the lowest priority value fire.
	HasPriorities bool
	// Multisets lists the multiset components, kept sorted for multiset reduction.
	Multisets []Multiset

	maxFrame  int  // largest frame of any unit
	hasAssume bool // some body has an assume statement

	pack []packLeaf // Leaves, compacted for Pack
}

// packLeaf is what Pack needs of a leaf, in 16 bytes instead of a Leaf's
// hundred: packing runs once per successor.
type packLeaf struct {
	lo    int64
	bits  uint8
	union bool
}

// Var is a global state variable.
type Var struct {
	Name string
	Type *murphi.Type
	Slot int // first slot
	Size int // number of slots
}

// LeafKind says how a leaf's values are encoded.
type LeafKind uint8

// Leaf kinds.
const (
	LeafRange     LeafKind = iota // integers Lo..Lo+Count-1 (also booleans, enums, scalarsets)
	LeafUnion                     // union: global ordinals of several intervals
	LeafPresent                   // a multiset entry's presence flag: Undef (absent) or 1
	LeafMultIndex                 // a multiset index value 0..Count-1
)

// Leaf is one scalar component of the state.
type Leaf struct {
	Name   string       // full designator, e.g. "procs[2].state"
	Type   *murphi.Type // its simple type (nil for presence flags)
	Kind   LeafKind
	Lo     int64  // value encoded as 1
	Count  uint64 // number of values (the encoding also has 0 = undefined)
	Bits   int    // width in the packed vector
	Offset int    // bit offset in the packed vector
	Parts  []UnionPart
}

// UnionPart maps one union member's ordinals into a union leaf's encoding.
type UnionPart struct {
	Lo, Hi int64 // global ordinals of the member
	Base   uint64
}

// Multiset is a multiset component of the state: Size entries of EntrySlots
// slots each, the first slot of each entry its presence flag.
type Multiset struct {
	Name       string
	Slot       int
	Size       int
	EntrySlots int
}

// Start is one start state (a startstate, or one instance of a startstate
// inside a ruleset).
type Start struct {
	Name  string
	Pos   murphi.Pos
	Frame int
	Init  span // frame slots of local variables, which start undefined
	Body  []stmtFn
}

// span is a range [Lo, Hi) of frame slots.
type span struct{ Lo, Hi int }

// Rule is one rule instance: a rule, or one instance of a rule inside
// rulesets, aliases and chooses.
type Rule struct {
	Name     string
	Pos      murphi.Pos
	Priority int64
	Frame    int
	Init     span   // frame slots of local variables, which start undefined
	Guard    boolFn // nil means always enabled
	Body     []stmtFn
	// Prelude evaluates alias-rule bindings before the guard and the body.
	Prelude []stmtFn

	// plainGuard: the guard needs no frame and calls nothing, so it can run
	// without setting up a frame (most guards: P[i] = L0 & ...).
	plainGuard bool
	body       stmtFn // Body as one closure

	// quick is the guard's first conjunct when it tests one state slot
	// against a constant (P[i] = L0, flag[i], !flag[i]): most disabled rules
	// are rejected by this test alone, without calling any compiled code.
	hasQuick  bool
	quickSlot int
	quickVal  int64
}

// Property is one invariant, assumption, cover or liveness instance.
type Property struct {
	Name  string
	Kind  string // "invariant", "assume", "cover", "liveness"
	Pos   murphi.Pos
	Frame int
	Cond  boolFn
	Pre   []stmtFn // alias bindings
	Index int      // 1-based number among properties of its kind
	// DeclName is the name of the declaration the instance comes from,
	// without its ruleset parameters.
	DeclName string
	// Vacuous is the instance's value when a choose entry it is declared
	// in is absent (there is no such instance then): true for invariants
	// and assumptions, false for covers and liveness.
	Vacuous bool
	// PerElement marks an instance of a property inside a ruleset over a
	// scalarset: alone it is not invariant under symmetry (only the set of
	// its instances is), so engines that reduce by symmetry must treat the
	// instances from one declaration together.
	PerElement bool
}

// CoverStmt is a cover statement inside a rule or procedure: one per
// statement of the model, shared by every rule instance that runs it
// (Rumur keeps one counter per cover statement).
type CoverStmt struct {
	Name string
	Pos  murphi.Pos
}

// MaxFrame returns the largest frame (slots of locals and temporaries) of
// any rule, start state, property or procedure.
func (m *Model) MaxFrame() int { return m.maxFrame }

// Position returns the source position of p.
func (m *Model) Position(p murphi.Pos) murphi.Position { return m.File.Position(p) }
