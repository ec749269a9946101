package murphi

// This file type-checks statements, rules and properties.

func (c *Checker) stmts(list []Stmt) {
	for _, s := range list {
		c.stmt(s)
	}
}

// target checks the destination of an assignment-like statement.
func (c *Checker) target(x Expr, what string) TypeAndValue {
	tv := c.expr(x)
	if tv.Type == InvalidType {
		return tv
	}
	if !tv.Addressable || tv.ReadOnly {
		if root := rootObj(x); root != nil {
			switch root.Kind {
			case ObjConst:
				c.r.errorf(x.Pos(), "cannot %s %s: it is a constant", what, exprString(x))
				return invalid
			case ObjQuant:
				c.r.errorf(x.Pos(), "cannot %s %s: %s is a quantified variable (read-only)", what, exprString(x), root.Name)
				return invalid
			case ObjParam:
				c.r.errorf(x.Pos(), "cannot %s %s: %s is a value parameter (declare it 'var' to modify it)", what, exprString(x), root.Name)
				return invalid
			case ObjAlias:
				c.r.errorf(x.Pos(), "cannot %s %s: alias %s names a value, not a variable", what, exprString(x), root.Name)
				return invalid
			case ObjChoose:
				c.r.errorf(x.Pos(), "cannot %s %s: %s is a multiset index", what, exprString(x), root.Name)
				return invalid
			}
		}
		c.r.errorf(x.Pos(), "cannot %s %s: it is not a variable", what, exprString(x))
		return invalid
	}
	c.noteWrite(x, tv)
	return tv
}

// noteWrite records that designator x (checked as tv) is written: a write to
// the state marks the enclosing function as changing it, and a write
// through one of its var parameters marks that parameter, so that callers
// passing a state variable there change the state too.
func (c *Checker) noteWrite(x Expr, tv TypeAndValue) {
	if tv.Global {
		if c.writes != nil {
			*c.writes = true
		}
		return
	}
	if root := resolvedRoot(x); root != nil && root.Kind == ObjParam && root.VarParam {
		c.info.WritesParam[root] = true
	}
}

// resolvedRoot is rootObj, following aliases to what they name.
func resolvedRoot(x Expr) *Object {
	for i := 0; i < 100; i++ {
		o := rootObj(x)
		if o == nil || o.Kind != ObjAlias || o.AliasOf == nil {
			return o
		}
		x = o.AliasOf
	}
	return nil
}

func (c *Checker) stmt(s Stmt) {
	switch s := s.(type) {
	case *BadStmt:
	case *AssignStmt:
		lhs := c.target(s.Lhs, "assign to")
		if _, undef := s.Rhs.(*UndefinedLit); undef {
			c.record(s.Rhs, TypeAndValue{Type: lhs.Type})
			return
		}
		rhs := c.expr(s.Rhs)
		if lhs.Type == InvalidType || rhs.Type == InvalidType {
			return
		}
		if !compatible(lhs.Type, rhs.Type) {
			c.r.errorf(s.Assign, "cannot assign %s to %s of type %s", rhs.Type, exprString(s.Lhs), lhs.Type)
			return
		}
		if rhs.Const && lhs.Type.Kind == TRange && !c.inRange(lhs.Type, rhs.Value) {
			c.r.warnf(s.Rhs.Pos(), "%s is outside %s's range %s; this assignment fails when it runs", c.fmtInt(rhs.Value), exprString(s.Lhs), lhs.Type)
		}
	case *IfStmt:
		for _, cl := range s.Clauses {
			c.boolExpr(cl.Cond, "an if condition")
			c.block(cl.Body)
		}
		c.block(s.Else)
	case *SwitchStmt:
		tv := c.expr(s.X)
		if tv.Type != InvalidType && !tv.Type.IsSimple() {
			c.r.errorf(s.X.Pos(), "cannot switch on %s: it is not of a simple type", tv.Type)
			tv = invalid
		}
		for _, cl := range s.Cases {
			for _, v := range cl.Values {
				vt := c.expr(v)
				if tv.Type != InvalidType && vt.Type != InvalidType && !compatible(tv.Type, vt.Type) {
					c.r.errorf(v.Pos(), "case label of type %s does not match switch value of type %s", vt.Type, tv.Type)
				}
			}
			c.block(cl.Body)
		}
		c.block(s.Else)
	case *ForStmt:
		c.openScope()
		for _, q := range s.Quants {
			c.quantifier(q)
		}
		c.stmts(s.Body)
		c.closeScope()
	case *WhileStmt:
		c.boolExpr(s.Cond, "a while condition")
		c.block(s.Body)
	case *AliasStmt:
		c.openScope()
		c.aliases(s.Aliases)
		c.stmts(s.Body)
		c.closeScope()
	case *CallStmt:
		c.call(s.Call, true)
	case *ClearStmt:
		c.target(s.X, "clear")
	case *UndefineStmt:
		c.target(s.X, "undefine")
	case *ErrorStmt:
	case *PropertyStmt:
		c.boolExpr(s.Cond, "the condition of "+s.Kind.String())
	case *PutStmt:
		if s.X != nil {
			c.expr(s.X)
		}
	case *ReturnStmt:
		switch {
		case c.fn != nil && c.fn.IsFunc:
			if s.Result == nil {
				c.r.errorf(s.Pos(), "function %s must return a value", c.fn.Name.Name)
				return
			}
			tv := c.expr(s.Result)
			if c.fnResult != nil && tv.Type != InvalidType && c.fnResult != InvalidType && !compatible(c.fnResult, tv.Type) {
				c.r.errorf(s.Result.Pos(), "cannot return %s from function %s, which returns %s", tv.Type, c.fn.Name.Name, c.fnResult)
			}
		case s.Result != nil:
			where := "a rule"
			if c.fn != nil {
				where = "procedure " + c.fn.Name.Name
			}
			c.r.errorf(s.Result.Pos(), "cannot return a value from %s; only functions return values", where)
			c.expr(s.Result)
		}
	case *MultisetAddStmt:
		el := c.expr(s.Elem)
		m := c.target(s.Multiset, "add to")
		if m.Type != InvalidType {
			if m.Type.Kind != TMultiset {
				c.r.errorf(s.Multiset.Pos(), "multisetadd needs a multiset, not %s", m.Type)
			} else if el.Type != InvalidType && !compatible(m.Type.Elem, el.Type) {
				c.r.errorf(s.Elem.Pos(), "cannot add %s to a multiset of %s", el.Type, m.Type.Elem)
			}
		}
	case *MultisetRemoveStmt:
		idx := c.expr(s.Index)
		m := c.target(s.Multiset, "remove from")
		if m.Type != InvalidType {
			if m.Type.Kind != TMultiset {
				c.r.errorf(s.Multiset.Pos(), "multisetremove needs a multiset, not %s", m.Type)
			} else if idx.Type != InvalidType && (idx.Type.Kind != TMultisetIndex || !identical(idx.Type.Elem, m.Type)) {
				c.r.errorf(s.Index.Pos(), "multisetremove needs a choose index over that multiset")
			}
		}
	case *MultisetRemovePredStmt:
		m := c.target(s.Multiset, "remove from")
		c.openScope()
		c.declareChoose(s.Var, s.Multiset, m)
		c.boolExpr(s.Pred, "the condition of multisetremovepred")
		c.closeScope()
	}
}

func (c *Checker) block(list []Stmt) {
	c.openScope()
	c.stmts(list)
	c.closeScope()
}

func (c *Checker) aliases(list []*AliasDecl) {
	for _, a := range list {
		tv := c.expr(a.X)
		_ = tv
		obj := &Object{Kind: ObjAlias, Name: a.Name.Name, Pos: a.Name.Pos(), Type: tv.Type, AliasOf: a.X,
			ReadOnly: !tv.Addressable || tv.ReadOnly}
		a.Name.Obj = obj
		c.declare(obj)
	}
}

// rule checks a rule, startstate, property, ruleset, alias rule or choose.
func (c *Checker) rule(d Decl) {
	switch d := d.(type) {
	case *SimpleRule:
		c.openScope()
		if d.Guard != nil {
			c.sideEffect = "a rule guard"
			c.boolExpr(d.Guard, "a rule guard")
			c.sideEffect = ""
		}
		c.body(d.Decls, d.Body)
		c.closeScope()
	case *StartState:
		c.openScope()
		c.body(d.Decls, d.Body)
		c.closeScope()
	case *PropertyRule:
		c.sideEffect = "a " + d.Kind.String() + " property"
		c.boolExpr(d.Cond, "the condition of "+d.Kind.String())
		c.sideEffect = ""
	case *Ruleset:
		c.openScope()
		for _, q := range d.Quants {
			c.quantifier(q)
		}
		for _, r := range d.Rules {
			c.rule(r)
		}
		c.closeScope()
	case *AliasRule:
		c.openScope()
		// The bindings are evaluated with each rule's guard (and again
		// for its body): they may not change the state either.
		c.sideEffect = "an alias rule's binding"
		c.aliases(d.Aliases)
		c.sideEffect = ""
		for _, r := range d.Rules {
			c.rule(r)
		}
		c.closeScope()
	case *ChooseRule:
		c.openScope()
		m := c.expr(d.Multiset)
		if m.Type != InvalidType && !m.Addressable {
			c.r.errorf(d.Multiset.Pos(), "choose needs a multiset variable")
		}
		c.declareChoose(d.Var, d.Multiset, m)
		for _, r := range d.Rules {
			c.rule(r)
		}
		c.closeScope()
	}
}

func (c *Checker) body(decls []Decl, body []Stmt) {
	saveFn, saveRes, saveRule, saveWrites := c.fn, c.fnResult, c.inRule, c.writes
	c.fn, c.fnResult, c.inRule, c.writes = nil, nil, true, nil
	for _, ld := range decls {
		c.decl(ld, false)
	}
	c.stmts(body)
	c.fn, c.fnResult, c.inRule, c.writes = saveFn, saveRes, saveRule, saveWrites
}
