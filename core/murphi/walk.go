package murphi

// Inspect traverses the tree rooted at n (a *Model or any Node) in depth-first
// order, calling f for each node; if f returns false the node's children are
// skipped.
func Inspect(n any, f func(Node) bool) {
	switch n := n.(type) {
	case *Model:
		for _, d := range n.Decls {
			Inspect(d, f)
		}
		return
	case nil:
		return
	}
	node, ok := n.(Node)
	if !ok || node == nil || !f(node) {
		return
	}
	exprs := func(list []Expr) {
		for _, x := range list {
			if x != nil {
				Inspect(x, f)
			}
		}
	}
	stmts := func(list []Stmt) {
		for _, s := range list {
			Inspect(s, f)
		}
	}
	decls := func(list []Decl) {
		for _, d := range list {
			Inspect(d, f)
		}
	}
	quants := func(list []*Quantifier) {
		for _, q := range list {
			Inspect(q.Name, f)
			if q.Type != nil {
				Inspect(q.Type, f)
			}
			exprs([]Expr{q.From, q.To, q.By})
		}
	}
	aliases := func(list []*AliasDecl) {
		for _, a := range list {
			Inspect(a.Name, f)
			Inspect(a.X, f)
		}
	}
	switch n := n.(type) {
	case *Ident, *IntLit, *UndefinedLit, *BadExpr, *BooleanType, *BadType, *ErrorStmt, *BadStmt:
	case *ParenExpr:
		Inspect(n.X, f)
	case *UnaryExpr:
		Inspect(n.X, f)
	case *BinaryExpr:
		Inspect(n.X, f)
		Inspect(n.Y, f)
	case *CondExpr:
		exprs([]Expr{n.Cond, n.Then, n.Else})
	case *IndexExpr:
		Inspect(n.X, f)
		Inspect(n.Index, f)
	case *FieldExpr:
		Inspect(n.X, f)
		Inspect(n.Field, f)
	case *CallExpr:
		Inspect(n.Func, f)
		exprs(n.Args)
	case *QuantExpr:
		quants(n.Quants)
		Inspect(n.Body, f)
	case *IsUndefinedExpr:
		Inspect(n.X, f)
	case *IsMemberExpr:
		Inspect(n.X, f)
		Inspect(n.Type, f)
	case *MultisetCountExpr:
		Inspect(n.Var, f)
		Inspect(n.Multiset, f)
		Inspect(n.Pred, f)

	case *NamedType:
		Inspect(n.Name, f)
	case *RangeType:
		Inspect(n.Lo, f)
		Inspect(n.Hi, f)
	case *EnumType:
		for _, m := range n.Members {
			Inspect(m, f)
		}
	case *RecordType:
		for _, fd := range n.Fields {
			Inspect(fd, f)
		}
	case *ArrayType:
		Inspect(n.Index, f)
		Inspect(n.Elem, f)
	case *ScalarsetType:
		Inspect(n.Size, f)
	case *UnionType:
		for _, m := range n.Members {
			Inspect(m, f)
		}
	case *MultisetType:
		Inspect(n.Size, f)
		Inspect(n.Elem, f)

	case *AssignStmt:
		Inspect(n.Lhs, f)
		Inspect(n.Rhs, f)
	case *IfStmt:
		for _, cl := range n.Clauses {
			Inspect(cl.Cond, f)
			stmts(cl.Body)
		}
		stmts(n.Else)
	case *SwitchStmt:
		Inspect(n.X, f)
		for _, cl := range n.Cases {
			exprs(cl.Values)
			stmts(cl.Body)
		}
		stmts(n.Else)
	case *ForStmt:
		quants(n.Quants)
		stmts(n.Body)
	case *WhileStmt:
		Inspect(n.Cond, f)
		stmts(n.Body)
	case *AliasStmt:
		aliases(n.Aliases)
		stmts(n.Body)
	case *CallStmt:
		Inspect(n.Call, f)
	case *ClearStmt:
		Inspect(n.X, f)
	case *UndefineStmt:
		Inspect(n.X, f)
	case *PropertyStmt:
		Inspect(n.Cond, f)
	case *PutStmt:
		if n.X != nil {
			Inspect(n.X, f)
		}
	case *ReturnStmt:
		if n.Result != nil {
			Inspect(n.Result, f)
		}
	case *MultisetAddStmt:
		Inspect(n.Elem, f)
		Inspect(n.Multiset, f)
	case *MultisetRemoveStmt:
		Inspect(n.Index, f)
		Inspect(n.Multiset, f)
	case *MultisetRemovePredStmt:
		Inspect(n.Var, f)
		Inspect(n.Multiset, f)
		Inspect(n.Pred, f)

	case *ConstDecl:
		for _, id := range n.Names {
			Inspect(id, f)
		}
		Inspect(n.Value, f)
	case *TypeDecl:
		for _, id := range n.Names {
			Inspect(id, f)
		}
		Inspect(n.Type, f)
	case *VarDecl:
		for _, id := range n.Names {
			Inspect(id, f)
		}
		Inspect(n.Type, f)
	case *ProcDecl:
		Inspect(n.Name, f)
		for _, prm := range n.Params {
			for _, id := range prm.Names {
				Inspect(id, f)
			}
			Inspect(prm.Type, f)
		}
		if n.Result != nil {
			Inspect(n.Result, f)
		}
		decls(n.Decls)
		stmts(n.Body)
	case *SimpleRule:
		if n.Guard != nil {
			Inspect(n.Guard, f)
		}
		decls(n.Decls)
		stmts(n.Body)
	case *StartState:
		decls(n.Decls)
		stmts(n.Body)
	case *PropertyRule:
		Inspect(n.Cond, f)
	case *Ruleset:
		quants(n.Quants)
		decls(n.Rules)
	case *AliasRule:
		aliases(n.Aliases)
		decls(n.Rules)
	case *ChooseRule:
		Inspect(n.Var, f)
		Inspect(n.Multiset, f)
		decls(n.Rules)
	default:
		panic("murphi.Inspect: unexpected node type")
	}
}
