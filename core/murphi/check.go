package murphi

// This file implements Check, which drives name resolution and type checking
// over a parsed Model, in source order: every name must be declared before it
// is used (Rumur lets sections appear in any order, with that proviso).

import (
	"math"
)

// TypeAndValue records what the checker learned about an expression.
type TypeAndValue struct {
	Type        *Type
	Const       bool  // the value is known at check time
	Value       int64 // valid if Const
	Addressable bool  // a designator of a variable, parameter or lvalue alias
	ReadOnly    bool  // addressable but not assignable (value parameter, ...)
	Global      bool  // addressable and rooted in a global state variable
}

// Info holds everything the compiler needs besides the syntax tree.
type Info struct {
	Types map[Expr]TypeAndValue
	// Calls maps each call to the called procedure or function.
	Calls map[*CallExpr]*ProcDecl
	// WritesGlobal records, per procedure or function, whether it
	// (transitively) assigns to global state.
	WritesGlobal map[*ProcDecl]bool
	// WritesParam holds the var parameters a procedure or function
	// (transitively) assigns through.
	WritesParam map[*Object]bool
}

// Checked is a type-checked model, ready for core/compile.
type Checked struct {
	Model *Model
	Info  *Info
	// Globals are the state variables in declaration order.
	Globals []*Object
	// Scalarsets are the named top-level scalarset types, in declaration
	// order: the types symmetry reduction permutes.
	Scalarsets []*Type
	// Unsigned is set when some integer literal exceeds 2^63-1: all integer
	// values are then unsigned 64-bit.
	Unsigned bool
	// Diagnostics holds the warnings (a Checked model has no errors).
	Diagnostics ErrorList
}

// Checker holds the state of one type-checking run.
type Checker struct {
	r        *reporter
	info     *Info
	scope    *Scope
	universe *Scope
	unsigned bool
	ordinal  int64 // next global ordinal for enum and scalarset values
	typeID   int
	objID    int
	out      *Checked

	// Context of the body being checked.
	fn         *ProcDecl // enclosing procedure or function
	fnResult   *Type
	inRule     bool // a rule, startstate (no return value allowed)
	sideEffect string
	writes     *bool // where to record global writes of the current function

	// bodyDone holds the procedures and functions whose bodies are
	// checked: only those may be run at check time (see fold.go).
	bodyDone map[*ProcDecl]bool

	stateLeaves uint64
	// later maps top-level names to where they are declared, to explain
	// a use before the declaration.
	later map[string]Pos
}

// Check resolves names and types in m. It returns the checked model and all
// diagnostics (errors and warnings); if the list has errors the model must
// not be compiled.
func Check(m *Model) (out *Checked, errs ErrorList) {
	r := newReporter(m.File)
	c := &Checker{
		r: r,
		info: &Info{
			Types:        make(map[Expr]TypeAndValue),
			Calls:        make(map[*CallExpr]*ProcDecl),
			WritesGlobal: make(map[*ProcDecl]bool),
			WritesParam:  make(map[*Object]bool),
		},
		ordinal:  1,
		bodyDone: make(map[*ProcDecl]bool),
	}
	out = &Checked{Model: m, Info: c.info}
	c.out = out
	defer func() {
		errs = r.finish(recover())
		out.Diagnostics = errs
	}()
	c.universe = newScope(nil)
	c.declareUniverse()
	c.unsigned = hasHugeLiteral(m)
	out.Unsigned = c.unsigned
	c.scope = newScope(c.universe)
	c.scope.Global = true
	c.later = topLevelNames(m)
	hasStart := false
	for _, d := range m.Decls {
		c.topDecl(d)
		if containsStartState(d) {
			hasStart = true
		}
	}
	// The Murphi manual makes a model without a startstate an error (Rumur
	// only warns, then explores nothing and reports a pass).
	end := Pos(len(m.File.Src))
	switch {
	case len(m.Decls) == 0:
		r.errorf(end, "the model is empty: a Murphi model needs at least a startstate and a rule")
	case !hasStart:
		r.errorf(end, "the model has no startstate, so no state is reachable; add one, such as: startstate begin ... end;")
	}
	return out, r.list
}

// topLevelNames returns the top-level declared names and their positions.
func topLevelNames(m *Model) map[string]Pos {
	out := map[string]Pos{}
	add := func(id *Ident) {
		if _, ok := out[id.Name]; !ok {
			out[id.Name] = id.Pos()
		}
	}
	for _, d := range m.Decls {
		switch d := d.(type) {
		case *ConstDecl:
			for _, n := range d.Names {
				add(n)
			}
		case *TypeDecl:
			for _, n := range d.Names {
				add(n)
			}
			if e, ok := d.Type.(*EnumType); ok {
				for _, n := range e.Members {
					add(n)
				}
			}
		case *VarDecl:
			for _, n := range d.Names {
				add(n)
			}
		case *ProcDecl:
			add(d.Name)
		}
	}
	return out
}

// undefined reports a name that is not in scope, explaining a use before
// the declaration.
func (c *Checker) undefined(id *Ident, what string) {
	if p, ok := c.later[id.Name]; ok && p > id.Pos() {
		e := c.r.errorf(id.Pos(), "undefined: %s (%s is declared later, at line %d; Murphi requires names to be declared before they are used)",
			id.Name, id.Name, c.r.file.Position(p).Line)
		c.r.note(e, p, "%s declared here", id.Name)
		return
	}
	c.r.errorf(id.Pos(), "undefined%s: %s", what, id.Name)
}

func containsStartState(d Decl) bool {
	switch d := d.(type) {
	case *StartState:
		return true
	case *Ruleset:
		for _, r := range d.Rules {
			if containsStartState(r) {
				return true
			}
		}
	case *AliasRule:
		for _, r := range d.Rules {
			if containsStartState(r) {
				return true
			}
		}
	case *ChooseRule:
		for _, r := range d.Rules {
			if containsStartState(r) {
				return true
			}
		}
	}
	return false
}

func (c *Checker) declareUniverse() {
	c.universe.names["boolean"] = &Object{Kind: ObjType, Name: "boolean", Type: BoolType, Pos: NoPos}
	c.universe.names["false"] = &Object{Kind: ObjConst, Name: "false", Type: BoolType, Value: 0, ReadOnly: true, Pos: NoPos}
	c.universe.names["true"] = &Object{Kind: ObjConst, Name: "true", Type: BoolType, Value: 1, ReadOnly: true, Pos: NoPos}
}

// hasHugeLiteral reports whether any integer literal exceeds math.MaxInt64.
func hasHugeLiteral(m *Model) bool {
	found := false
	Inspect(m, func(n Node) bool {
		if lit, ok := n.(*IntLit); ok && lit.Value > math.MaxInt64 {
			found = true
		}
		return !found
	})
	return found
}

func (c *Checker) newTypeID() int {
	c.typeID++
	return c.typeID
}

func (c *Checker) openScope() { c.scope = newScope(c.scope) }

func (c *Checker) closeScope() { c.scope = c.scope.parent }

// declare adds obj to the current scope, reporting redeclarations.
func (c *Checker) declare(obj *Object) {
	if obj.Name == "_" || obj.Name == "" {
		return
	}
	if prev := c.scope.LookupLocal(obj.Name); prev != nil {
		e := c.r.errorf(obj.Pos, "%s redeclared in this scope", obj.Name)
		if prev.Pos.IsValid() {
			c.r.note(e, prev.Pos, "previous declaration of %s", prev)
		}
		return
	}
	if c.scope.parent == c.universe || c.scope == c.universe {
		if u := c.universe.LookupLocal(obj.Name); u != nil && obj.Name == "boolean" {
			c.r.errorf(obj.Pos, "boolean is predeclared and cannot be redeclared")
			return
		}
	}
	c.objID++
	obj.ID = c.objID
	obj.Owner = c.scope
	c.scope.names[obj.Name] = obj
}

// ---------------------------------------------------------------------------
// Declarations

func (c *Checker) topDecl(d Decl) {
	switch d := d.(type) {
	case *ConstDecl, *TypeDecl, *VarDecl:
		c.decl(d, true)
	case *ProcDecl:
		c.procDecl(d)
	default:
		c.rule(d)
	}
}

// decl checks a const, type or var declaration; global says whether it is at
// the top level (variables are then state variables).
func (c *Checker) decl(d Decl, global bool) {
	switch d := d.(type) {
	case *ConstDecl:
		tv := c.expr(d.Value)
		if !tv.Const {
			if tv.Type != InvalidType {
				c.r.errorf(d.Value.Pos(), "the value of constant %s is not a constant expression", d.Names[0].Name)
			}
			tv.Value = 0
		}
		typ := tv.Type
		if typ.Kind == TRange {
			typ = IntType
		}
		for _, n := range d.Names {
			obj := &Object{Kind: ObjConst, Name: n.Name, Pos: n.Pos(), Type: typ, Value: tv.Value, ReadOnly: true}
			n.Obj = obj
			c.declare(obj)
		}
	case *TypeDecl:
		typ := c.typeExpr(d.Type)
		for i, n := range d.Names {
			t := typ
			if _, named := d.Type.(*NamedType); !named {
				if _, isBool := d.Type.(*BooleanType); !isBool && t.Name == "" && i == 0 {
					t.Name = n.Name
				}
			}
			obj := &Object{Kind: ObjType, Name: n.Name, Pos: n.Pos(), Type: t}
			n.Obj = obj
			c.declare(obj)
			if global && t.Kind == TScalarset && t.Name == n.Name {
				c.out.Scalarsets = append(c.out.Scalarsets, t)
			}
		}
	case *VarDecl:
		typ := c.typeExpr(d.Type)
		if typ.Kind == TScalarset && typ.Name == "" {
			c.r.warnf(d.Type.Pos(), "an anonymous scalarset type gives no symmetry reduction; declare it as a named type")
		}
		kind := ObjLocal
		if global {
			kind = ObjVar
		}
		for _, n := range d.Names {
			obj := &Object{Kind: kind, Name: n.Name, Pos: n.Pos(), Type: typ}
			n.Obj = obj
			c.declare(obj)
			if global {
				c.out.Globals = append(c.out.Globals, obj)
				c.stateLeaves += Leaves(typ)
				if c.stateLeaves > maxLeaves && c.stateLeaves-Leaves(typ) <= maxLeaves {
					c.r.errorf(n.Pos(), "the state has more than %d scalar components; Locus cannot store it", maxLeaves)
				}
			}
		}
	}
}

func (c *Checker) procDecl(d *ProcDecl) {
	var result *Type
	if d.Result != nil {
		// The result type is resolved outside the parameter scope (Rumur:
		// a parameter named like a type does not shadow it here).
		result = c.typeExpr(d.Result)
		if !result.IsSimple() && result.Kind != TRecord && result.Kind != TArray {
			if result != InvalidType {
				c.r.errorf(d.Result.Pos(), "a function cannot return a %s", result)
			}
		}
	}
	obj := &Object{Kind: ObjProc, Name: d.Name.Name, Pos: d.Name.Pos(), Type: result, Proc: d, ReadOnly: true}
	d.Name.Obj = obj
	d.Obj = obj
	c.declare(obj)

	c.openScope()
	c.scope.Func = d
	for _, prm := range d.Params {
		t := c.typeExpr(prm.Type)
		for _, n := range prm.Names {
			o := &Object{Kind: ObjParam, Name: n.Name, Pos: n.Pos(), Type: t, VarParam: prm.Var, ReadOnly: !prm.Var}
			n.Obj = o
			c.declare(o)
		}
	}
	saveFn, saveRes, saveRule, saveWrites := c.fn, c.fnResult, c.inRule, c.writes
	c.fn, c.fnResult, c.inRule = d, result, false
	writes := false
	c.writes = &writes
	c.openScope()
	for _, ld := range d.Decls {
		c.decl(ld, false)
	}
	c.stmts(d.Body)
	c.closeScope()
	c.info.WritesGlobal[d] = writes
	c.bodyDone[d] = true
	c.fn, c.fnResult, c.inRule, c.writes = saveFn, saveRes, saveRule, saveWrites
	c.closeScope()
}
