package murphi

// This file declares the syntax tree. Node names follow the grammar
// productions of the Murphi 3.1 manual and Rumur's parser.

// Node is any syntax tree node.
type Node interface {
	Pos() Pos // position of the first character
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// TypeExpr is a type expression node.
type TypeExpr interface {
	Node
	typeNode()
}

// Decl is a top-level or local declaration: const, type, var, procedure or
// function. Rules are Decls too, so that a model keeps source order.
type Decl interface {
	Node
	declNode()
}

// ---------------------------------------------------------------------------
// Expressions

type (
	// Ident is a name in an expression, possibly resolved by the checker.
	Ident struct {
		NamePos Pos
		Name    string
		Obj     *Object // set by the checker
	}

	// IntLit is an integer literal.
	IntLit struct {
		ValuePos Pos
		Text     string
		Value    uint64 // exact value (literals are never negative)
	}

	// UndefinedLit is CMurphi's `undefined` in `x := undefined` and as an actual.
	UndefinedLit struct {
		UndefPos Pos
	}

	// ParenExpr is a parenthesised expression.
	ParenExpr struct {
		Lparen Pos
		X      Expr
	}

	// UnaryExpr is !x, -x, +x or ~x.
	UnaryExpr struct {
		OpPos Pos
		Op    Token // NOT, SUB, ADD, TILDE
		X     Expr
	}

	// BinaryExpr is x op y.
	BinaryExpr struct {
		X     Expr
		OpPos Pos
		Op    Token
		Y     Expr
		// Logical is set by the checker when & or | combine booleans
		// (otherwise they are bitwise on integers).
		Logical bool
	}

	// CondExpr is c ? x : y.
	CondExpr struct {
		Cond       Expr
		Question   Pos
		Then, Else Expr
	}

	// IndexExpr is x[i].
	IndexExpr struct {
		X      Expr
		Lbrack Pos
		Index  Expr
	}

	// FieldExpr is x.f.
	FieldExpr struct {
		X     Expr
		Dot   Pos
		Field *Ident
	}

	// CallExpr is f(args) used as an expression or a statement.
	CallExpr struct {
		Func   *Ident
		Lparen Pos
		Args   []Expr
	}

	// QuantExpr is forall q do e end or exists q do e end.
	QuantExpr struct {
		QuantPos Pos
		Op       Token // FORALL or EXISTS
		Quants   []*Quantifier
		Body     Expr
	}

	// IsUndefinedExpr is isundefined(x).
	IsUndefinedExpr struct {
		FuncPos Pos
		X       Expr
	}

	// IsMemberExpr is ismember(x, T).
	IsMemberExpr struct {
		FuncPos Pos
		X       Expr
		Type    TypeExpr
	}

	// MultisetCountExpr is multisetcount(i: m, e).
	MultisetCountExpr struct {
		FuncPos  Pos
		Var      *Ident
		Multiset Expr
		Pred     Expr
	}

	// BadExpr stands in for an expression that failed to parse.
	BadExpr struct {
		From Pos
	}
)

func (x *Ident) Pos() Pos             { return x.NamePos }
func (x *IntLit) Pos() Pos            { return x.ValuePos }
func (x *UndefinedLit) Pos() Pos      { return x.UndefPos }
func (x *ParenExpr) Pos() Pos         { return x.Lparen }
func (x *UnaryExpr) Pos() Pos         { return x.OpPos }
func (x *BinaryExpr) Pos() Pos        { return x.X.Pos() }
func (x *CondExpr) Pos() Pos          { return x.Cond.Pos() }
func (x *IndexExpr) Pos() Pos         { return x.X.Pos() }
func (x *FieldExpr) Pos() Pos         { return x.X.Pos() }
func (x *CallExpr) Pos() Pos          { return x.Func.Pos() }
func (x *QuantExpr) Pos() Pos         { return x.QuantPos }
func (x *IsUndefinedExpr) Pos() Pos   { return x.FuncPos }
func (x *IsMemberExpr) Pos() Pos      { return x.FuncPos }
func (x *MultisetCountExpr) Pos() Pos { return x.FuncPos }
func (x *BadExpr) Pos() Pos           { return x.From }

func (*Ident) exprNode()             {}
func (*IntLit) exprNode()            {}
func (*UndefinedLit) exprNode()      {}
func (*ParenExpr) exprNode()         {}
func (*UnaryExpr) exprNode()         {}
func (*BinaryExpr) exprNode()        {}
func (*CondExpr) exprNode()          {}
func (*IndexExpr) exprNode()         {}
func (*FieldExpr) exprNode()         {}
func (*CallExpr) exprNode()          {}
func (*QuantExpr) exprNode()         {}
func (*IsUndefinedExpr) exprNode()   {}
func (*IsMemberExpr) exprNode()      {}
func (*MultisetCountExpr) exprNode() {}
func (*BadExpr) exprNode()           {}

// Quantifier binds Name over a type (`i: T`) or a range (`i := a to b by s`).
type Quantifier struct {
	Name *Ident
	Type TypeExpr // nil for the range form
	From Expr
	To   Expr
	By   Expr // nil means 1
}

// Pos returns the position of the bound name.
func (q *Quantifier) Pos() Pos { return q.Name.Pos() }

// ---------------------------------------------------------------------------
// Type expressions

type (
	// NamedType refers to a declared type (or the predeclared boolean).
	NamedType struct {
		Name *Ident
	}

	// BooleanType is the keyword boolean.
	BooleanType struct {
		KwPos Pos
	}

	// RangeType is lo .. hi.
	RangeType struct {
		Lo, Hi Expr
	}

	// EnumType is enum { a, b, c }.
	EnumType struct {
		EnumPos Pos
		Members []*Ident
	}

	// RecordType is record fields end.
	RecordType struct {
		RecordPos Pos
		Fields    []*VarDecl
	}

	// ArrayType is array [Index] of Elem.
	ArrayType struct {
		ArrayPos Pos
		Index    TypeExpr
		Elem     TypeExpr
	}

	// ScalarsetType is scalarset(N).
	ScalarsetType struct {
		ScalarsetPos Pos
		Size         Expr
	}

	// UnionType is union { T1, T2, ... } (CMurphi).
	UnionType struct {
		UnionPos Pos
		Members  []TypeExpr
	}

	// MultisetType is multiset [N] of Elem (CMurphi).
	MultisetType struct {
		MultisetPos Pos
		Size        Expr
		Elem        TypeExpr
	}

	// BadType stands in for a type that failed to parse.
	BadType struct {
		From Pos
	}
)

func (t *NamedType) Pos() Pos     { return t.Name.Pos() }
func (t *BooleanType) Pos() Pos   { return t.KwPos }
func (t *RangeType) Pos() Pos     { return t.Lo.Pos() }
func (t *EnumType) Pos() Pos      { return t.EnumPos }
func (t *RecordType) Pos() Pos    { return t.RecordPos }
func (t *ArrayType) Pos() Pos     { return t.ArrayPos }
func (t *ScalarsetType) Pos() Pos { return t.ScalarsetPos }
func (t *UnionType) Pos() Pos     { return t.UnionPos }
func (t *MultisetType) Pos() Pos  { return t.MultisetPos }
func (t *BadType) Pos() Pos       { return t.From }

func (*NamedType) typeNode()     {}
func (*BooleanType) typeNode()   {}
func (*RangeType) typeNode()     {}
func (*EnumType) typeNode()      {}
func (*RecordType) typeNode()    {}
func (*ArrayType) typeNode()     {}
func (*ScalarsetType) typeNode() {}
func (*UnionType) typeNode()     {}
func (*MultisetType) typeNode()  {}
func (*BadType) typeNode()       {}

// ---------------------------------------------------------------------------
// Statements

type (
	// AssignStmt is lhs := rhs (rhs may be UndefinedLit).
	AssignStmt struct {
		Lhs    Expr
		Assign Pos
		Rhs    Expr
	}

	// IfStmt is if c then ... elsif ... else ... end.
	IfStmt struct {
		IfPos   Pos
		Clauses []*IfClause
		Else    []Stmt // nil if absent
		HasElse bool
	}

	// SwitchStmt is switch x case ...: ... else ... end.
	SwitchStmt struct {
		SwitchPos Pos
		X         Expr
		Cases     []*CaseClause
		Else      []Stmt
		HasElse   bool
	}

	// ForStmt is for q {; q} do body end.
	ForStmt struct {
		ForPos Pos
		Quants []*Quantifier
		Body   []Stmt
	}

	// WhileStmt is while c do body end.
	WhileStmt struct {
		WhilePos Pos
		Cond     Expr
		Body     []Stmt
	}

	// AliasStmt is alias a: e {; b: e} do body end.
	AliasStmt struct {
		AliasPos Pos
		Aliases  []*AliasDecl
		Body     []Stmt
	}

	// CallStmt is a procedure call (or a function call whose result is discarded).
	CallStmt struct {
		Call *CallExpr
	}

	// ClearStmt is clear x.
	ClearStmt struct {
		ClearPos Pos
		X        Expr
	}

	// UndefineStmt is undefine x.
	UndefineStmt struct {
		UndefinePos Pos
		X           Expr
	}

	// ErrorStmt is error "msg".
	ErrorStmt struct {
		ErrorPos Pos
		Msg      string
	}

	// PropertyStmt is assert, assume or cover inside a body.
	PropertyStmt struct {
		KwPos Pos
		Kind  Token // ASSERT, ASSUME, COVER
		Cond  Expr
		Msg   string
	}

	// PutStmt is put e or put "string".
	PutStmt struct {
		PutPos Pos
		X      Expr // nil when Str is used
		Str    string
	}

	// ReturnStmt is return [e].
	ReturnStmt struct {
		ReturnPos Pos
		Result    Expr // nil if absent
	}

	// MultisetAddStmt is multisetadd(e, m).
	MultisetAddStmt struct {
		FuncPos  Pos
		Elem     Expr
		Multiset Expr
	}

	// MultisetRemoveStmt is multisetremove(i, m).
	MultisetRemoveStmt struct {
		FuncPos  Pos
		Index    Expr
		Multiset Expr
	}

	// MultisetRemovePredStmt is multisetremovepred(i: m, pred).
	MultisetRemovePredStmt struct {
		FuncPos  Pos
		Var      *Ident
		Multiset Expr
		Pred     Expr
	}

	// BadStmt stands in for a statement that failed to parse.
	BadStmt struct {
		From Pos
	}
)

// IfClause is one "c then stmts" arm of an if statement.
type IfClause struct {
	Cond Expr
	Body []Stmt
}

// CaseClause is "case v1, v2: stmts".
type CaseClause struct {
	CasePos Pos
	Values  []Expr
	Body    []Stmt
}

// AliasDecl is one "name: expr" of an alias statement or rule.
type AliasDecl struct {
	Name *Ident
	X    Expr
}

func (s *AssignStmt) Pos() Pos             { return s.Lhs.Pos() }
func (s *IfStmt) Pos() Pos                 { return s.IfPos }
func (s *SwitchStmt) Pos() Pos             { return s.SwitchPos }
func (s *ForStmt) Pos() Pos                { return s.ForPos }
func (s *WhileStmt) Pos() Pos              { return s.WhilePos }
func (s *AliasStmt) Pos() Pos              { return s.AliasPos }
func (s *CallStmt) Pos() Pos               { return s.Call.Pos() }
func (s *ClearStmt) Pos() Pos              { return s.ClearPos }
func (s *UndefineStmt) Pos() Pos           { return s.UndefinePos }
func (s *ErrorStmt) Pos() Pos              { return s.ErrorPos }
func (s *PropertyStmt) Pos() Pos           { return s.KwPos }
func (s *PutStmt) Pos() Pos                { return s.PutPos }
func (s *ReturnStmt) Pos() Pos             { return s.ReturnPos }
func (s *MultisetAddStmt) Pos() Pos        { return s.FuncPos }
func (s *MultisetRemoveStmt) Pos() Pos     { return s.FuncPos }
func (s *MultisetRemovePredStmt) Pos() Pos { return s.FuncPos }
func (s *BadStmt) Pos() Pos                { return s.From }

func (*AssignStmt) stmtNode()             {}
func (*IfStmt) stmtNode()                 {}
func (*SwitchStmt) stmtNode()             {}
func (*ForStmt) stmtNode()                {}
func (*WhileStmt) stmtNode()              {}
func (*AliasStmt) stmtNode()              {}
func (*CallStmt) stmtNode()               {}
func (*ClearStmt) stmtNode()              {}
func (*UndefineStmt) stmtNode()           {}
func (*ErrorStmt) stmtNode()              {}
func (*PropertyStmt) stmtNode()           {}
func (*PutStmt) stmtNode()                {}
func (*ReturnStmt) stmtNode()             {}
func (*MultisetAddStmt) stmtNode()        {}
func (*MultisetRemoveStmt) stmtNode()     {}
func (*MultisetRemovePredStmt) stmtNode() {}
func (*BadStmt) stmtNode()                {}

// ---------------------------------------------------------------------------
// Declarations

type (
	// ConstDecl is name: value (several names share one value in Rumur).
	ConstDecl struct {
		Names []*Ident
		Value Expr
	}

	// TypeDecl is name: type.
	TypeDecl struct {
		Names []*Ident
		Type  TypeExpr
	}

	// VarDecl is names: type (also used for record fields).
	VarDecl struct {
		Names []*Ident
		Type  TypeExpr
	}

	// ProcDecl is a procedure (Result == nil) or a function.
	ProcDecl struct {
		KwPos    Pos
		IsFunc   bool
		Name     *Ident
		Params   []*Param
		Result   TypeExpr
		Decls    []Decl
		Body     []Stmt
		Obj      *Object // set by the checker
		EndPos   Pos
		HasBegin bool
	}
)

// Param is one formal parameter group: [var] names: type.
type Param struct {
	Var   bool
	Names []*Ident
	Type  TypeExpr
}

func (d *ConstDecl) Pos() Pos { return d.Names[0].Pos() }
func (d *TypeDecl) Pos() Pos  { return d.Names[0].Pos() }
func (d *VarDecl) Pos() Pos   { return d.Names[0].Pos() }
func (d *ProcDecl) Pos() Pos  { return d.KwPos }

func (*ConstDecl) declNode() {}
func (*TypeDecl) declNode()  {}
func (*VarDecl) declNode()   {}
func (*ProcDecl) declNode()  {}

// ---------------------------------------------------------------------------
// Rules

type (
	// SimpleRule is rule [priority] ["name"] [guard ==>] [decls begin] body end.
	SimpleRule struct {
		RulePos     Pos
		Priority    int64
		HasPriority bool
		Name        string
		Guard       Expr // nil means always enabled
		Decls       []Decl
		Body        []Stmt
	}

	// StartState is startstate ["name"] [decls begin] body end.
	StartState struct {
		StartPos Pos
		Name     string
		Decls    []Decl
		Body     []Stmt
	}

	// PropertyRule is a top-level invariant, assume, cover or liveness.
	PropertyRule struct {
		KwPos Pos
		Kind  Token // INVARIANT (also top-level assert), ASSUME, COVER, LIVENESS
		Name  string
		Cond  Expr
	}

	// Ruleset is ruleset q {; q} do rules end.
	Ruleset struct {
		RulesetPos Pos
		Quants     []*Quantifier
		Rules      []Decl
	}

	// AliasRule is alias a: e {; b: e} do rules end.
	AliasRule struct {
		AliasPos Pos
		Aliases  []*AliasDecl
		Rules    []Decl
	}

	// ChooseRule is choose i: m do rules end (CMurphi multisets).
	ChooseRule struct {
		ChoosePos Pos
		Var       *Ident
		Multiset  Expr
		Rules     []Decl
	}
)

func (r *SimpleRule) Pos() Pos   { return r.RulePos }
func (r *StartState) Pos() Pos   { return r.StartPos }
func (r *PropertyRule) Pos() Pos { return r.KwPos }
func (r *Ruleset) Pos() Pos      { return r.RulesetPos }
func (r *AliasRule) Pos() Pos    { return r.AliasPos }
func (r *ChooseRule) Pos() Pos   { return r.ChoosePos }

func (*SimpleRule) declNode()   {}
func (*StartState) declNode()   {}
func (*PropertyRule) declNode() {}
func (*Ruleset) declNode()      {}
func (*AliasRule) declNode()    {}
func (*ChooseRule) declNode()   {}

// Model is a parsed source file: every declaration and rule in source order.
type Model struct {
	File  *File
	Decls []Decl
	// Progress is the model's progress measure, if it has one.
	Progress *ProgressPragma
}

// ProgressPragma is a progress measure for the sweep-line method: a line
// comment "--@progress EXPR" anywhere in the model, where EXPR is an
// integer, enumeration or boolean expression over the state variables and
// constants. Murphi tools that do not know it read a comment.
type ProgressPragma struct {
	At Pos // the '@'
	X  Expr
}
