package murphi

// This file prints syntax trees back as Murphi source: used for messages,
// rule names in traces, and the parse→print→parse round-trip tests.

import (
	"strconv"
	"strings"
)

// exprString prints an expression compactly, fully parenthesising binary
// operators so that the printed text re-parses to the same tree.
func exprString(x Expr) string {
	var b strings.Builder
	writeExpr(&b, x)
	return b.String()
}

// ExprString is the exported form of exprString.
func ExprString(x Expr) string { return exprString(x) }

func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func writeExpr(b *strings.Builder, x Expr) {
	switch x := x.(type) {
	case *Ident:
		b.WriteString(x.Name)
	case *IntLit:
		b.WriteString(strconv.FormatUint(x.Value, 10))
	case *UndefinedLit:
		b.WriteString("undefined")
	case *ParenExpr:
		// Operators print their own parentheses.
		writeExpr(b, x.X)
	case *UnaryExpr:
		b.WriteString(x.Op.String())
		b.WriteByte('(')
		writeExpr(b, x.X)
		b.WriteByte(')')
	case *BinaryExpr:
		b.WriteByte('(')
		writeExpr(b, x.X)
		b.WriteByte(' ')
		b.WriteString(x.Op.String())
		b.WriteByte(' ')
		writeExpr(b, x.Y)
		b.WriteByte(')')
	case *CondExpr:
		b.WriteByte('(')
		writeExpr(b, x.Cond)
		b.WriteString(" ? ")
		writeExpr(b, x.Then)
		b.WriteString(" : ")
		writeExpr(b, x.Else)
		b.WriteByte(')')
	case *IndexExpr:
		writeExpr(b, x.X)
		b.WriteByte('[')
		writeExpr(b, x.Index)
		b.WriteByte(']')
	case *FieldExpr:
		writeExpr(b, x.X)
		b.WriteByte('.')
		b.WriteString(x.Field.Name)
	case *CallExpr:
		b.WriteString(x.Func.Name)
		b.WriteByte('(')
		for i, a := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteByte(')')
	case *QuantExpr:
		b.WriteString(x.Op.String())
		b.WriteByte(' ')
		writeQuants(b, x.Quants)
		b.WriteString(" do ")
		writeExpr(b, x.Body)
		b.WriteString(" end")
	case *IsUndefinedExpr:
		b.WriteString("isundefined(")
		writeExpr(b, x.X)
		b.WriteByte(')')
	case *IsMemberExpr:
		b.WriteString("ismember(")
		writeExpr(b, x.X)
		b.WriteString(", ")
		writeType(b, x.Type, 0)
		b.WriteByte(')')
	case *MultisetCountExpr:
		b.WriteString("multisetcount(")
		b.WriteString(x.Var.Name)
		b.WriteString(": ")
		writeExpr(b, x.Multiset)
		b.WriteString(", ")
		writeExpr(b, x.Pred)
		b.WriteByte(')')
	case *BadExpr:
		b.WriteString("<bad expression>")
	default:
		b.WriteString("<?>")
	}
}

func writeQuants(b *strings.Builder, qs []*Quantifier) {
	for i, q := range qs {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(q.Name.Name)
		if q.Type != nil {
			b.WriteString(": ")
			writeType(b, q.Type, 0)
			continue
		}
		b.WriteString(" := ")
		writeExpr(b, q.From)
		b.WriteString(" to ")
		writeExpr(b, q.To)
		if q.By != nil {
			b.WriteString(" by ")
			writeExpr(b, q.By)
		}
	}
}

func indent(b *strings.Builder, n int) {
	for i := 0; i < n; i++ {
		b.WriteString("  ")
	}
}

func writeType(b *strings.Builder, t TypeExpr, depth int) {
	switch t := t.(type) {
	case *NamedType:
		b.WriteString(t.Name.Name)
	case *BooleanType:
		b.WriteString("boolean")
	case *RangeType:
		writeExpr(b, t.Lo)
		b.WriteString(" .. ")
		writeExpr(b, t.Hi)
	case *EnumType:
		b.WriteString("enum { ")
		for i, m := range t.Members {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(m.Name)
		}
		b.WriteString(" }")
	case *RecordType:
		b.WriteString("record\n")
		for _, f := range t.Fields {
			indent(b, depth+1)
			writeNames(b, f.Names)
			b.WriteString(": ")
			writeType(b, f.Type, depth+1)
			b.WriteString(";\n")
		}
		indent(b, depth)
		b.WriteString("end")
	case *ArrayType:
		b.WriteString("array [")
		writeType(b, t.Index, depth)
		b.WriteString("] of ")
		writeType(b, t.Elem, depth)
	case *ScalarsetType:
		b.WriteString("scalarset(")
		writeExpr(b, t.Size)
		b.WriteByte(')')
	case *UnionType:
		b.WriteString("union { ")
		for i, m := range t.Members {
			if i > 0 {
				b.WriteString(", ")
			}
			writeType(b, m, depth)
		}
		b.WriteString(" }")
	case *MultisetType:
		b.WriteString("multiset [")
		writeExpr(b, t.Size)
		b.WriteString("] of ")
		writeType(b, t.Elem, depth)
	default:
		b.WriteString("<bad type>")
	}
}

func writeNames(b *strings.Builder, names []*Ident) {
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n.Name)
	}
}

// Format prints a whole model as Murphi source.
func Format(m *Model) string {
	var b strings.Builder
	for _, d := range m.Decls {
		writeDecl(&b, d, 0)
	}
	if m.Progress != nil {
		b.WriteString("--" + progressPragma + " ")
		writeExpr(&b, m.Progress.X)
		b.WriteString("\n")
	}
	return b.String()
}

func writeDecls(b *strings.Builder, decls []Decl, depth int) {
	for _, d := range decls {
		writeDecl(b, d, depth)
	}
}

func writeDecl(b *strings.Builder, d Decl, depth int) {
	indent(b, depth)
	switch d := d.(type) {
	case *ConstDecl:
		b.WriteString("const ")
		writeNames(b, d.Names)
		b.WriteString(": ")
		writeExpr(b, d.Value)
		b.WriteString(";\n")
	case *TypeDecl:
		b.WriteString("type ")
		writeNames(b, d.Names)
		b.WriteString(": ")
		writeType(b, d.Type, depth)
		b.WriteString(";\n")
	case *VarDecl:
		b.WriteString("var ")
		writeNames(b, d.Names)
		b.WriteString(": ")
		writeType(b, d.Type, depth)
		b.WriteString(";\n")
	case *ProcDecl:
		if d.IsFunc {
			b.WriteString("function ")
		} else {
			b.WriteString("procedure ")
		}
		b.WriteString(d.Name.Name)
		b.WriteByte('(')
		for i, prm := range d.Params {
			if i > 0 {
				b.WriteString("; ")
			}
			if prm.Var {
				b.WriteString("var ")
			}
			writeNames(b, prm.Names)
			b.WriteString(": ")
			writeType(b, prm.Type, depth)
		}
		b.WriteByte(')')
		if d.Result != nil {
			b.WriteString(": ")
			writeType(b, d.Result, depth)
		}
		b.WriteString(";\n")
		writeDecls(b, d.Decls, depth+1)
		indent(b, depth)
		b.WriteString("begin\n")
		writeStmts(b, d.Body, depth+1)
		indent(b, depth)
		b.WriteString("end;\n")
	case *SimpleRule:
		b.WriteString("rule ")
		if d.HasPriority {
			b.WriteString(strconv.FormatInt(d.Priority, 10))
			b.WriteByte(' ')
		}
		if d.Name != "" {
			b.WriteString(quote(d.Name))
			b.WriteByte(' ')
		}
		if d.Guard != nil {
			g := exprString(d.Guard)
			if g != "" && g[0] >= '0' && g[0] <= '9' {
				g = "(" + g + ")" // else it would read as a priority
			}
			b.WriteString(g)
			b.WriteString(" ==>")
		}
		b.WriteByte('\n')
		writeDecls(b, d.Decls, depth+1)
		indent(b, depth)
		b.WriteString("begin\n")
		writeStmts(b, d.Body, depth+1)
		indent(b, depth)
		b.WriteString("end;\n")
	case *StartState:
		b.WriteString("startstate ")
		if d.Name != "" {
			b.WriteString(quote(d.Name))
		}
		b.WriteByte('\n')
		writeDecls(b, d.Decls, depth+1)
		indent(b, depth)
		b.WriteString("begin\n")
		writeStmts(b, d.Body, depth+1)
		indent(b, depth)
		b.WriteString("end;\n")
	case *PropertyRule:
		b.WriteString(d.Kind.String())
		b.WriteByte(' ')
		if d.Name != "" {
			b.WriteString(quote(d.Name))
			b.WriteByte(' ')
		}
		writeExpr(b, d.Cond)
		b.WriteString(";\n")
	case *Ruleset:
		b.WriteString("ruleset ")
		writeQuants(b, d.Quants)
		b.WriteString(" do\n")
		writeDecls(b, d.Rules, depth+1)
		indent(b, depth)
		b.WriteString("end;\n")
	case *AliasRule:
		b.WriteString("alias ")
		writeAliases(b, d.Aliases)
		b.WriteString(" do\n")
		writeDecls(b, d.Rules, depth+1)
		indent(b, depth)
		b.WriteString("end;\n")
	case *ChooseRule:
		b.WriteString("choose ")
		b.WriteString(d.Var.Name)
		b.WriteString(": ")
		writeExpr(b, d.Multiset)
		b.WriteString(" do\n")
		writeDecls(b, d.Rules, depth+1)
		indent(b, depth)
		b.WriteString("end;\n")
	}
}

func writeAliases(b *strings.Builder, as []*AliasDecl) {
	for i, a := range as {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(a.Name.Name)
		b.WriteString(": ")
		writeExpr(b, a.X)
	}
}

// writeDoBody writes " do", the statements, and the closing "end".
func writeDoBody(b *strings.Builder, body []Stmt, depth int) {
	b.WriteString(" do\n")
	writeStmts(b, body, depth+1)
	indent(b, depth)
	b.WriteString("end")
}

func writeStmts(b *strings.Builder, list []Stmt, depth int) {
	for _, s := range list {
		indent(b, depth)
		writeStmt(b, s, depth)
		b.WriteString(";\n")
	}
}

func writeStmt(b *strings.Builder, s Stmt, depth int) {
	switch s := s.(type) {
	case *AssignStmt:
		writeExpr(b, s.Lhs)
		b.WriteString(" := ")
		writeExpr(b, s.Rhs)
	case *IfStmt:
		for i, c := range s.Clauses {
			if i == 0 {
				b.WriteString("if ")
			} else {
				indent(b, depth)
				b.WriteString("elsif ")
			}
			writeExpr(b, c.Cond)
			b.WriteString(" then\n")
			writeStmts(b, c.Body, depth+1)
		}
		if s.HasElse {
			indent(b, depth)
			b.WriteString("else\n")
			writeStmts(b, s.Else, depth+1)
		}
		indent(b, depth)
		b.WriteString("end")
	case *SwitchStmt:
		b.WriteString("switch ")
		writeExpr(b, s.X)
		b.WriteByte('\n')
		for _, c := range s.Cases {
			indent(b, depth)
			b.WriteString("case ")
			for i, v := range c.Values {
				if i > 0 {
					b.WriteString(", ")
				}
				writeExpr(b, v)
			}
			b.WriteString(":\n")
			writeStmts(b, c.Body, depth+1)
		}
		if s.HasElse {
			indent(b, depth)
			b.WriteString("else\n")
			writeStmts(b, s.Else, depth+1)
		}
		indent(b, depth)
		b.WriteString("end")
	case *ForStmt:
		b.WriteString("for ")
		writeQuants(b, s.Quants)
		writeDoBody(b, s.Body, depth)
	case *WhileStmt:
		b.WriteString("while ")
		writeExpr(b, s.Cond)
		writeDoBody(b, s.Body, depth)
	case *AliasStmt:
		b.WriteString("alias ")
		writeAliases(b, s.Aliases)
		writeDoBody(b, s.Body, depth)
	case *CallStmt:
		writeExpr(b, s.Call)
	case *ClearStmt:
		b.WriteString("clear ")
		writeExpr(b, s.X)
	case *UndefineStmt:
		b.WriteString("undefine ")
		writeExpr(b, s.X)
	case *ErrorStmt:
		b.WriteString("error ")
		b.WriteString(quote(s.Msg))
	case *PropertyStmt:
		b.WriteString(s.Kind.String())
		b.WriteByte(' ')
		writeExpr(b, s.Cond)
		if s.Msg != "" {
			b.WriteByte(' ')
			b.WriteString(quote(s.Msg))
		}
	case *PutStmt:
		b.WriteString("put ")
		if s.X != nil {
			writeExpr(b, s.X)
		} else {
			b.WriteString(quote(s.Str))
		}
	case *ReturnStmt:
		b.WriteString("return")
		if s.Result != nil {
			b.WriteByte(' ')
			writeExpr(b, s.Result)
		}
	case *MultisetAddStmt:
		b.WriteString("multisetadd(")
		writeExpr(b, s.Elem)
		b.WriteString(", ")
		writeExpr(b, s.Multiset)
		b.WriteByte(')')
	case *MultisetRemoveStmt:
		b.WriteString("multisetremove(")
		writeExpr(b, s.Index)
		b.WriteString(", ")
		writeExpr(b, s.Multiset)
		b.WriteByte(')')
	case *MultisetRemovePredStmt:
		b.WriteString("multisetremovepred(")
		b.WriteString(s.Var.Name)
		b.WriteString(": ")
		writeExpr(b, s.Multiset)
		b.WriteString(", ")
		writeExpr(b, s.Pred)
		b.WriteByte(')')
	default:
		b.WriteString("<bad statement>")
	}
}
