package murphi

// This file declares the checker's types and objects.

import (
	"strconv"
	"strings"
)

// TypeKind classifies types.
type TypeKind uint8

// Type kinds.
const (
	TInvalid       TypeKind = iota
	TBool                   // boolean: false=0, true=1
	TInt                    // an integer value not (yet) confined to a range: literals, arithmetic
	TRange                  // lo .. hi
	TEnum                   // enum { ... }; values are global ordinals Lo..Hi
	TScalarset              // scalarset(N); values are global ordinals Lo..Hi
	TUnion                  // union { ... } of enums and scalarsets
	TRecord                 // record ... end
	TArray                  // array [Index] of Elem
	TMultiset               // multiset [Size] of Elem
	TMultisetIndex          // the type of a choose / multisetcount variable: an index into Elem (a multiset)
)

// Type is a checked Murphi type.
//
// Values of every simple type are int64s: integers are themselves (bit
// patterns of uint64 in a model whose literals exceed int64), booleans 0 and
// 1, and enum and scalarset values are ordinals in one global numbering, so a
// union value needs no conversion and two enum types never share a value.
type Type struct {
	Kind    TypeKind
	Name    string   // declared name, "" if anonymous
	Lo, Hi  int64    // TRange bounds; TEnum, TScalarset: the global ordinals of the first and last value
	Members []string // TEnum member names
	Size    int64    // TScalarset: number of values; TMultiset: capacity
	Fields  []*Field // TRecord
	Index   *Type    // TArray index type
	Elem    *Type    // TArray, TMultiset element type; TMultisetIndex: the multiset type
	Union   []*Type  // TUnion members
	ID      int      // unique per type expression; identity for enums and scalarsets
	Pos     Pos      // where the type was written
}

// Field is one record field.
type Field struct {
	Name string
	Type *Type
	Pos  Pos
}

// Universe types.
var (
	BoolType    = &Type{Kind: TBool, Name: "boolean", Lo: 0, Hi: 1, ID: -1}
	IntType     = &Type{Kind: TInt, Name: "integer", ID: -2}
	InvalidType = &Type{Kind: TInvalid, Name: "invalid", ID: -3}
)

// IsSimple reports whether t is a scalar type (one state leaf).
func (t *Type) IsSimple() bool {
	switch t.Kind {
	case TBool, TInt, TRange, TEnum, TScalarset, TUnion, TMultisetIndex:
		return true
	}
	return false
}

// IsInteger reports whether values of t are integers.
func (t *Type) IsInteger() bool { return t.Kind == TInt || t.Kind == TRange }

// IsOrdinal reports whether t can index an array or be quantified over.
func (t *Type) IsOrdinal() bool {
	switch t.Kind {
	case TBool, TRange, TEnum, TScalarset, TUnion:
		return true
	}
	return false
}

// Count returns the number of values of a simple ordinal type (as uint64, so
// that 0 .. 2^64-2 fits), or 0 for other types.
func (t *Type) Count() uint64 {
	switch t.Kind {
	case TBool, TRange, TEnum, TScalarset:
		return uint64(t.Hi-t.Lo) + 1
	case TUnion:
		var n uint64
		for _, m := range t.Union {
			n += m.Count()
		}
		return n
	case TMultisetIndex:
		return uint64(t.Elem.Size)
	}
	return 0
}

// Contains reports whether v is a value of the ordinal type t (signed compare;
// see Checker.Unsigned for the unsigned variant used by ranges).
func (t *Type) containsSigned(v int64) bool {
	switch t.Kind {
	case TUnion:
		for _, m := range t.Union {
			if m.containsSigned(v) {
				return true
			}
		}
		return false
	}
	return t.Lo <= v && v <= t.Hi
}

func (t *Type) String() string {
	if t == nil {
		return "<nil>"
	}
	if t.Name != "" {
		return t.Name
	}
	switch t.Kind {
	case TRange:
		return strconv.FormatInt(t.Lo, 10) + ".." + strconv.FormatInt(t.Hi, 10)
	case TEnum:
		return "enum {" + strings.Join(t.Members, ", ") + "}"
	case TScalarset:
		return "scalarset(" + strconv.FormatInt(t.Size, 10) + ")"
	case TUnion:
		parts := make([]string, len(t.Union))
		for i, m := range t.Union {
			parts[i] = m.String()
		}
		return "union {" + strings.Join(parts, ", ") + "}"
	case TRecord:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = f.Name + ": " + f.Type.String()
		}
		return "record {" + strings.Join(parts, "; ") + "}"
	case TArray:
		return "array [" + t.Index.String() + "] of " + t.Elem.String()
	case TMultiset:
		return "multiset [" + strconv.FormatInt(t.Size, 10) + "] of " + t.Elem.String()
	case TMultisetIndex:
		return "multiset index"
	}
	return "invalid type"
}

// FieldIndex returns the index of the named field, or -1.
func (t *Type) FieldIndex(name string) int {
	for i, f := range t.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// ObjKind classifies named objects.
type ObjKind uint8

// Object kinds.
const (
	ObjBad    ObjKind = iota
	ObjConst          // a constant or enum member
	ObjType           // a type name
	ObjVar            // a global state variable
	ObjLocal          // a local variable of a procedure, function, rule or startstate
	ObjParam          // a formal parameter
	ObjQuant          // a quantified name: ruleset parameter, for/forall/exists variable
	ObjAlias          // an alias name
	ObjProc           // a procedure or function
	ObjChoose         // a choose / multisetcount / multisetremovepred index
)

var objKindNames = [...]string{
	ObjBad: "bad object", ObjConst: "constant", ObjType: "type", ObjVar: "variable",
	ObjLocal: "local variable", ObjParam: "parameter", ObjQuant: "quantified variable",
	ObjAlias: "alias", ObjProc: "procedure", ObjChoose: "multiset index",
}

func (k ObjKind) String() string { return objKindNames[k] }

// Object is a named entity: what an Ident refers to.
type Object struct {
	Kind  ObjKind
	Name  string
	Pos   Pos
	Type  *Type
	Value int64 // ObjConst: the constant's value

	VarParam bool // ObjParam: passed by reference
	// ReadOnly marks names that cannot be assigned: constants, value
	// parameters, quantified variables, and aliases of non-designators.
	ReadOnly bool
	// AliasOf is the aliased expression (ObjAlias).
	AliasOf Expr
	// Proc is the declaration of an ObjProc.
	Proc *ProcDecl
	// Quant is the quantifier that binds an ObjQuant.
	Quant *Quantifier
	// Multiset is the multiset designator an ObjChoose indexes.
	Multiset Expr

	// Frame and Slot locate locals, parameters and quantified names; the
	// checker numbers them, the compiler lays them out.
	Owner *Scope
	ID    int // unique id of this object within the model
}

func (o *Object) String() string { return o.Kind.String() + " '" + o.Name + "'" }

// Scope is a lexical scope.
type Scope struct {
	parent *Scope
	names  map[string]*Object
	// Func is the procedure or function whose body this scope belongs to (nil
	// at the top level and in rules).
	Func *ProcDecl
	// Global marks the top-level scope.
	Global bool
}

func newScope(parent *Scope) *Scope {
	s := &Scope{parent: parent, names: make(map[string]*Object)}
	if parent != nil {
		s.Func = parent.Func
	}
	return s
}

// Lookup finds name in s or its parents.
func (s *Scope) Lookup(name string) *Object {
	for ; s != nil; s = s.parent {
		if o := s.names[name]; o != nil {
			return o
		}
	}
	return nil
}

// LookupLocal finds name in s only.
func (s *Scope) LookupLocal(name string) *Object { return s.names[name] }
