package murphi

// This file walks syntax trees without recursion, so that no input, however
// deeply nested, can exhaust the stack of a walk.

// Inspect traverses the tree rooted at n (a *Model or any Node) in depth-first
// order, calling f for each node; if f returns false the node's children are
// skipped.
func Inspect(n any, f func(Node) bool) {
	var stack []Node
	switch n := n.(type) {
	case *Model:
		for i := len(n.Decls) - 1; i >= 0; i-- {
			stack = append(stack, n.Decls[i])
		}
	case Node:
		stack = append(stack, n)
	}
	for len(stack) > 0 {
		node := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if node == nil || !f(node) {
			continue
		}
		mark := len(stack)
		eachChild(node, func(c Node) { stack = append(stack, c) })
		for i, j := mark, len(stack)-1; i < j; i, j = i+1, j-1 {
			stack[i], stack[j] = stack[j], stack[i]
		}
	}
}

// Height returns the number of nodes on the longest path from n down to a
// leaf, and over, the first node found at depth limit+1 (nil if no path is
// longer than limit).
func Height(n Node, limit int) (height int, over Node) {
	type entry struct {
		n     Node
		depth int
	}
	stack := []entry{{n, 1}}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.n == nil {
			continue
		}
		if e.depth > height {
			height = e.depth
		}
		if e.depth == limit+1 && over == nil {
			over = e.n
		}
		eachChild(e.n, func(c Node) { stack = append(stack, entry{c, e.depth + 1}) })
	}
	return height, over
}

// eachChild calls visit for each direct child of n, in source order.
func eachChild(n Node, visit func(Node)) {
	exprs := func(list []Expr) {
		for _, x := range list {
			if x != nil {
				visit(x)
			}
		}
	}
	stmts := func(list []Stmt) {
		for _, s := range list {
			visit(s)
		}
	}
	decls := func(list []Decl) {
		for _, d := range list {
			visit(d)
		}
	}
	quants := func(list []*Quantifier) {
		for _, q := range list {
			visit(q.Name)
			if q.Type != nil {
				visit(q.Type)
			}
			exprs([]Expr{q.From, q.To, q.By})
		}
	}
	aliases := func(list []*AliasDecl) {
		for _, a := range list {
			visit(a.Name)
			visit(a.X)
		}
	}
	switch n := n.(type) {
	case *Ident, *IntLit, *UndefinedLit, *BadExpr, *BooleanType, *BadType, *ErrorStmt, *BadStmt:
	case *ParenExpr:
		visit(n.X)
	case *UnaryExpr:
		visit(n.X)
	case *BinaryExpr:
		visit(n.X)
		visit(n.Y)
	case *CondExpr:
		exprs([]Expr{n.Cond, n.Then, n.Else})
	case *IndexExpr:
		visit(n.X)
		visit(n.Index)
	case *FieldExpr:
		visit(n.X)
		visit(n.Field)
	case *CallExpr:
		visit(n.Func)
		exprs(n.Args)
	case *QuantExpr:
		quants(n.Quants)
		visit(n.Body)
	case *IsUndefinedExpr:
		visit(n.X)
	case *IsMemberExpr:
		visit(n.X)
		visit(n.Type)
	case *MultisetCountExpr:
		visit(n.Var)
		visit(n.Multiset)
		visit(n.Pred)

	case *NamedType:
		visit(n.Name)
	case *RangeType:
		visit(n.Lo)
		visit(n.Hi)
	case *EnumType:
		for _, m := range n.Members {
			visit(m)
		}
	case *RecordType:
		for _, fd := range n.Fields {
			visit(fd)
		}
	case *ArrayType:
		visit(n.Index)
		visit(n.Elem)
	case *ScalarsetType:
		visit(n.Size)
	case *UnionType:
		for _, m := range n.Members {
			visit(m)
		}
	case *MultisetType:
		visit(n.Size)
		visit(n.Elem)

	case *AssignStmt:
		visit(n.Lhs)
		visit(n.Rhs)
	case *IfStmt:
		for _, cl := range n.Clauses {
			visit(cl.Cond)
			stmts(cl.Body)
		}
		stmts(n.Else)
	case *SwitchStmt:
		visit(n.X)
		for _, cl := range n.Cases {
			exprs(cl.Values)
			stmts(cl.Body)
		}
		stmts(n.Else)
	case *ForStmt:
		quants(n.Quants)
		stmts(n.Body)
	case *WhileStmt:
		visit(n.Cond)
		stmts(n.Body)
	case *AliasStmt:
		aliases(n.Aliases)
		stmts(n.Body)
	case *CallStmt:
		visit(n.Call)
	case *ClearStmt:
		visit(n.X)
	case *UndefineStmt:
		visit(n.X)
	case *PropertyStmt:
		visit(n.Cond)
	case *PutStmt:
		if n.X != nil {
			visit(n.X)
		}
	case *ReturnStmt:
		if n.Result != nil {
			visit(n.Result)
		}
	case *MultisetAddStmt:
		visit(n.Elem)
		visit(n.Multiset)
	case *MultisetRemoveStmt:
		visit(n.Index)
		visit(n.Multiset)
	case *MultisetRemovePredStmt:
		visit(n.Var)
		visit(n.Multiset)
		visit(n.Pred)

	case *ConstDecl:
		for _, id := range n.Names {
			visit(id)
		}
		visit(n.Value)
	case *TypeDecl:
		for _, id := range n.Names {
			visit(id)
		}
		visit(n.Type)
	case *VarDecl:
		for _, id := range n.Names {
			visit(id)
		}
		visit(n.Type)
	case *ProcDecl:
		visit(n.Name)
		for _, prm := range n.Params {
			for _, id := range prm.Names {
				visit(id)
			}
			visit(prm.Type)
		}
		if n.Result != nil {
			visit(n.Result)
		}
		decls(n.Decls)
		stmts(n.Body)
	case *SimpleRule:
		if n.Guard != nil {
			visit(n.Guard)
		}
		decls(n.Decls)
		stmts(n.Body)
	case *StartState:
		decls(n.Decls)
		stmts(n.Body)
	case *PropertyRule:
		visit(n.Cond)
	case *Ruleset:
		quants(n.Quants)
		decls(n.Rules)
	case *AliasRule:
		aliases(n.Aliases)
		decls(n.Rules)
	case *ChooseRule:
		visit(n.Var)
		visit(n.Multiset)
		decls(n.Rules)
	default:
		panic("murphi: unexpected node type in a walk")
	}
}
