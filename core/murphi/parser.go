package murphi

// This file implements a recursive-descent parser for the union of the
// languages CMurphi 5.4.9 and Rumur accept. It recovers from errors at
// statement and declaration boundaries so one run reports many problems.

import (
	"strconv"
	"strings"
)

type parser struct {
	sc    *scanner
	ahead []item // tokens scanned past the current one (at most a few)
	i     int    // how many tokens have been consumed: a progress mark
	tok   Token
	pos   Pos
	lit   string
	r     *reporter
	// depth guards against stack exhaustion on pathological nesting.
	depth int
}

// MaxNesting bounds how deeply a model's constructs nest: expressions,
// statements, types and rules, where each operator of a chain such as
// a + b + c, and each selector of a designator such as a.b[c].d, counts as a
// level. Later stages walk the tree recursively and compiled code nests as
// deeply, so this bound keeps all of them within the stack, in a browser's
// Web Worker too (whose stack holds a few thousand such levels).
const MaxNesting = 500

// init starts parsing the tokens of sc, which it scans on demand: a parse
// that stops early never scans (or holds) the rest of a large file.
func (p *parser) init(sc *scanner, r *reporter) {
	p.sc = sc
	p.r = r
	p.i = -1
	p.tok = ILLEGAL
	p.next()
}

// scanned returns the k-th token after the current one (k >= 1).
func (p *parser) scanned(k int) item {
	for len(p.ahead) < k {
		p.ahead = append(p.ahead, p.sc.next())
	}
	return p.ahead[k-1]
}

func (p *parser) next() {
	for p.tok != EOF {
		it := p.scanned(1)
		p.ahead = p.ahead[:copy(p.ahead, p.ahead[1:])]
		p.i++
		p.tok, p.pos, p.lit = it.tok, it.pos, it.lit
		if p.tok != ILLEGAL { // an illegal token was reported by the scanner
			return
		}
	}
}

// peek returns the next token after the current one (skipping illegal ones).
func (p *parser) peek() Token {
	for k := 1; ; k++ {
		if t := p.scanned(k).tok; t != ILLEGAL {
			return t
		}
	}
}

// describe names the current token for an error message.
func (p *parser) describe() string {
	switch p.tok {
	case IDENT:
		return "identifier '" + p.lit + "'"
	case INT:
		return "number " + p.lit
	case STRING:
		return "string \"" + p.lit + "\""
	case EOF:
		return "end of file"
	}
	return "'" + p.tok.String() + "'"
}

func (p *parser) errorExpected(what string) {
	p.r.errorf(p.pos, "expected %s, found %s", what, p.describe())
}

func (p *parser) expect(t Token) Pos {
	pos := p.pos
	if p.tok != t {
		p.errorExpected("'" + t.String() + "'")
		return pos
	}
	p.next()
	return pos
}

func (p *parser) got(t Token) bool {
	if p.tok == t {
		p.next()
		return true
	}
	return false
}

func (p *parser) skipSemis() {
	for p.tok == SEMICOLON {
		p.next()
	}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > MaxNesting {
		p.tooDeep(p.pos)
	}
}

// tooDeep reports nesting beyond MaxNesting at pos and stops parsing: what
// follows is most likely more of the same.
func (p *parser) tooDeep(pos Pos) {
	p.r.errorf(pos, "too deeply nested: more than %d levels of expressions, statements or types (each operator in a chain such as a + b + c counts as a level); split it up", MaxNesting)
	panic(bailout{})
}

// checkHeight rejects a top-level item nested more deeply than MaxNesting
// (the parser's own depth count does not see every way of nesting).
func (p *parser) checkHeight(d Decl) {
	if _, over := Height(d, MaxNesting); over != nil {
		pos := over.Pos()
		if b, ok := over.(*BinaryExpr); ok {
			pos = b.OpPos
		}
		p.tooDeep(pos)
	}
}

func (p *parser) leave() { p.depth-- }

// endTokens maps each block's specific closer to itself; `end` closes any block.
func isEnd(t Token) bool {
	switch t {
	case END, ENDALIAS, ENDCHOOSE, ENDEXISTS, ENDFOR, ENDFORALL, ENDFUNCTION, ENDIF,
		ENDPROCEDURE, ENDRECORD, ENDRULE, ENDRULESET, ENDSTARTSTATE, ENDSWITCH, ENDWHILE:
		return true
	}
	return false
}

// expectEnd accepts `end` or one of the given specific closers.
func (p *parser) expectEnd(what string, specific ...Token) Pos {
	pos := p.pos
	if p.tok == END {
		p.next()
		return pos
	}
	for _, t := range specific {
		if p.tok == t {
			p.next()
			return pos
		}
	}
	if isEnd(p.tok) {
		p.r.errorf(p.pos, "'%s' does not close %s; expected 'end' or '%s'", p.tok, what, specific[0])
		p.next()
		return pos
	}
	p.r.errorf(p.pos, "expected 'end' to close %s, found %s", what, p.describe())
	return pos
}

// ---------------------------------------------------------------------------
// Model and declarations

func (p *parser) parseModel() []Decl {
	var decls []Decl
	for p.tok != EOF {
		start, first := p.i, len(decls)
		switch p.tok {
		case CONST, TYPE, VAR:
			decls = append(decls, p.parseDeclSection()...)
		case PROCEDURE, FUNCTION:
			decls = append(decls, p.parseProc())
		case RULE, STARTSTATE, INVARIANT, ASSERT, ASSUME, COVER, LIVENESS, RULESET, ALIAS, CHOOSE:
			if r := p.parseRule(); r != nil {
				decls = append(decls, r)
			}
		case SEMICOLON:
			p.next()
		case EXTERNFUN, EXTERNPROC:
			p.r.errorf(p.pos, "external functions and procedures (%s) are not supported", p.tok)
			p.syncTop()
		default:
			p.errorExpected("a declaration (const, type, var, procedure, function) or a rule")
			p.syncTop()
		}
		for _, d := range decls[first:] {
			p.checkHeight(d)
		}
		if p.i == start { // guarantee progress
			p.next()
		}
	}
	return decls
}

// syncTop skips to the next token that can begin a top-level item.
func (p *parser) syncTop() {
	for {
		switch p.tok {
		case EOF, CONST, TYPE, VAR, PROCEDURE, FUNCTION, RULE, STARTSTATE, INVARIANT,
			RULESET, ASSUME, COVER, LIVENESS, CHOOSE:
			return
		}
		p.next()
	}
}

func isDeclStart(t Token) bool { return t == CONST || t == TYPE || t == VAR }

// parseDecls parses local const/type/var sections.
func (p *parser) parseDecls() []Decl {
	var decls []Decl
	for isDeclStart(p.tok) {
		decls = append(decls, p.parseDeclSection()...)
	}
	return decls
}

// declContinues reports whether the current tokens begin "name :" or "name ,",
// i.e. another declaration in the current section.
func (p *parser) declContinues() bool {
	return p.tok == IDENT && (p.peek() == COLON || p.peek() == COMMA)
}

func (p *parser) parseDeclSection() []Decl {
	kw := p.tok
	p.next()
	var decls []Decl
	for {
		p.skipSemis()
		if !p.declContinues() {
			if p.tok == IDENT {
				p.r.errorf(p.pos, "expected ':' after '%s' in %s declaration", p.lit, kw)
				p.syncDecl()
				continue
			}
			break
		}
		names := p.parseIdentList()
		p.expect(COLON)
		switch kw {
		case CONST:
			decls = append(decls, &ConstDecl{Names: names, Value: p.parseExpr()})
		case TYPE:
			decls = append(decls, &TypeDecl{Names: names, Type: p.parseType()})
		default:
			decls = append(decls, &VarDecl{Names: names, Type: p.parseType()})
		}
		if p.tok != SEMICOLON && p.tok == IDENT && p.declContinues() {
			// Rumur makes the separator optional; nothing to report.
			continue
		}
	}
	return decls
}

func (p *parser) syncDecl() {
	for {
		switch p.tok {
		case SEMICOLON:
			p.next()
			return
		case EOF, CONST, TYPE, VAR, PROCEDURE, FUNCTION, RULE, STARTSTATE, INVARIANT,
			RULESET, ALIAS, ASSUME, COVER, LIVENESS, CHOOSE, BEGIN:
			return
		}
		if isEnd(p.tok) {
			return
		}
		p.next()
	}
}

func (p *parser) parseIdent() *Ident {
	id := &Ident{NamePos: p.pos, Name: p.lit}
	if p.tok != IDENT {
		if p.tok.IsKeyword() {
			p.r.errorf(p.pos, "expected a name, found keyword '%s' (reserved words cannot be used as names)", p.tok)
		} else {
			p.errorExpected("a name")
		}
		id.Name = "_"
		if p.tok != EOF && p.tok != SEMICOLON && p.tok != COLON && p.tok != RPAREN {
			p.next()
		}
		return id
	}
	p.next()
	return id
}

// parseIdentList parses a comma-separated list of names (a trailing comma is
// allowed, as in Rumur).
func (p *parser) parseIdentList() []*Ident {
	list := []*Ident{p.parseIdent()}
	for p.tok == COMMA {
		p.next()
		if p.tok != IDENT {
			break
		}
		list = append(list, p.parseIdent())
	}
	return list
}

func (p *parser) parseProc() *ProcDecl {
	d := &ProcDecl{KwPos: p.pos, IsFunc: p.tok == FUNCTION}
	kind := p.tok
	p.next()
	d.Name = p.parseIdent()
	p.expect(LPAREN)
	for p.tok != RPAREN && p.tok != EOF {
		start := p.i
		prm := &Param{}
		if p.tok == VAR {
			prm.Var = true
			p.next()
		}
		prm.Names = p.parseIdentList()
		p.expect(COLON)
		prm.Type = p.parseType()
		d.Params = append(d.Params, prm)
		if p.tok == COMMA {
			p.r.errorf(p.pos, "formal parameters are separated by ';', not ','")
			p.next()
		}
		p.skipSemis()
		if p.i == start {
			break
		}
	}
	p.expect(RPAREN)
	if p.tok == COLON {
		p.next()
		d.Result = p.parseType()
		if kind == PROCEDURE {
			p.r.errorf(d.Result.Pos(), "a procedure has no result type; declare '%s' as a function", d.Name.Name)
		}
	} else if kind == FUNCTION {
		p.r.errorf(p.pos, "function '%s' needs a result type: function %s(...): type", d.Name.Name, d.Name.Name)
	}
	p.skipSemis()
	d.Decls = p.parseDecls()
	if p.tok == BEGIN {
		d.HasBegin = true
		p.next()
	} else if len(d.Decls) > 0 && p.tok != IDENT && !isStmtStart(p.tok) && !isEnd(p.tok) {
		p.errorExpected("'begin'")
	}
	d.Body = p.parseStmtList()
	d.EndPos = p.expectEnd("the "+kind.String()+" '"+d.Name.Name+"'", ENDFUNCTION, ENDPROCEDURE)
	return d
}

// ---------------------------------------------------------------------------
// Types

func (p *parser) parseType() TypeExpr {
	p.enter()
	defer p.leave()
	pos := p.pos
	switch p.tok {
	case BOOLEAN:
		p.next()
		return &BooleanType{KwPos: pos}
	case ENUM:
		p.next()
		t := &EnumType{EnumPos: pos}
		p.expect(LBRACE)
		for p.tok == IDENT {
			t.Members = append(t.Members, p.parseIdent())
			if p.tok == IDENT {
				p.r.errorf(p.pos, "enum members are separated by ','")
				continue
			}
			if !p.got(COMMA) {
				break
			}
		}
		if len(t.Members) == 0 {
			p.r.errorf(pos, "an enum needs at least one member")
		}
		p.expect(RBRACE)
		return t
	case RECORD:
		p.next()
		t := &RecordType{RecordPos: pos}
		for {
			p.skipSemis()
			if p.tok != IDENT {
				break
			}
			start := p.i
			names := p.parseIdentList()
			p.expect(COLON)
			t.Fields = append(t.Fields, &VarDecl{Names: names, Type: p.parseType()})
			if p.i == start {
				break
			}
		}
		p.expectEnd("the record", ENDRECORD)
		return t
	case ARRAY:
		p.next()
		t := &ArrayType{ArrayPos: pos}
		p.expect(LBRACK)
		t.Index = p.parseType()
		p.expect(RBRACK)
		p.expect(OF)
		t.Elem = p.parseType()
		return t
	case SCALARSET:
		p.next()
		t := &ScalarsetType{ScalarsetPos: pos}
		p.expect(LPAREN)
		t.Size = p.parseExpr()
		p.expect(RPAREN)
		return t
	case UNION:
		p.next()
		t := &UnionType{UnionPos: pos}
		p.expect(LBRACE)
		for p.tok != RBRACE && p.tok != EOF {
			start := p.i
			t.Members = append(t.Members, p.parseType())
			if !p.got(COMMA) || p.i == start {
				break
			}
		}
		p.expect(RBRACE)
		return t
	case MULTISET:
		p.next()
		t := &MultisetType{MultisetPos: pos}
		p.expect(LBRACK)
		t.Size = p.parseExpr()
		p.expect(RBRACK)
		p.expect(OF)
		t.Elem = p.parseType()
		return t
	case REAL:
		p.r.errorf(pos, "real types are not supported (a CMurphi extension)")
		p.next()
		if p.got(LPAREN) {
			for p.tok != RPAREN && p.tok != EOF && p.tok != SEMICOLON {
				p.next()
			}
			p.got(RPAREN)
		}
		return &BadType{From: pos}
	}
	if !isExprStart(p.tok) {
		p.errorExpected("a type")
		return &BadType{From: pos}
	}
	lo := p.parseExpr()
	if p.tok == DOTDOT {
		p.next()
		return &RangeType{Lo: lo, Hi: p.parseExpr()}
	}
	if id, ok := lo.(*Ident); ok {
		return &NamedType{Name: id}
	}
	p.r.errorf(pos, "expected a type, found an expression (a subrange is written lo .. hi)")
	return &BadType{From: pos}
}

// ---------------------------------------------------------------------------
// Rules

func isRuleStart(t Token) bool {
	switch t {
	case RULE, STARTSTATE, INVARIANT, ASSERT, ASSUME, COVER, LIVENESS, RULESET, ALIAS, CHOOSE:
		return true
	}
	return false
}

// parseRules parses the rules inside a ruleset, alias or choose.
func (p *parser) parseRules() []Decl {
	var rules []Decl
	for {
		p.skipSemis()
		start := p.i
		switch {
		case isRuleStart(p.tok):
			if r := p.parseRule(); r != nil {
				rules = append(rules, r)
			}
		case p.tok == PROCEDURE || p.tok == FUNCTION:
			p.r.errorf(p.pos, "a %s cannot be declared inside a ruleset, alias or choose; declare it at the top level", p.tok)
			p.parseProc()
		case isDeclStart(p.tok):
			p.r.errorf(p.pos, "'%s' declarations cannot appear inside a ruleset, alias or choose", p.tok)
			p.parseDeclSection()
		default:
			return rules
		}
		if p.i == start {
			return rules
		}
	}
}

func (p *parser) parseRule() Decl {
	p.enter()
	defer p.leave()
	pos := p.pos
	switch p.tok {
	case RULE:
		p.next()
		r := &SimpleRule{RulePos: pos}
		if p.tok == INT {
			r.Priority = int64(p.intValue())
			r.HasPriority = true
			p.next()
		}
		if p.tok == STRING {
			r.Name = p.lit
			p.next()
		}
		switch {
		case p.tok == BEGIN:
			p.next()
		case isDeclStart(p.tok):
			r.Decls = p.parseDecls()
			p.expect(BEGIN)
		default:
			r.Guard = p.parseExpr()
			if p.tok != ARROW {
				if p.tok == ASSIGN {
					p.r.errorf(p.pos, "expected '==>' after a rule guard; a rule without guard or declarations must start its body with 'begin'")
				} else {
					p.errorExpected("'==>' after the rule guard")
				}
				p.syncStmt()
			} else {
				p.next()
			}
			if isDeclStart(p.tok) {
				r.Decls = p.parseDecls()
				p.expect(BEGIN)
			} else {
				p.got(BEGIN)
			}
		}
		r.Body = p.parseStmtList()
		p.expectEnd("the rule", ENDRULE)
		return r
	case STARTSTATE:
		p.next()
		s := &StartState{StartPos: pos}
		if p.tok == STRING {
			s.Name = p.lit
			p.next()
		}
		if isDeclStart(p.tok) {
			s.Decls = p.parseDecls()
			p.expect(BEGIN)
		} else {
			p.got(BEGIN)
		}
		s.Body = p.parseStmtList()
		p.expectEnd("the startstate", ENDSTARTSTATE)
		return s
	case INVARIANT, ASSERT, ASSUME, COVER, LIVENESS:
		kind := p.tok
		if kind == ASSERT {
			kind = INVARIANT // Rumur: a top-level assert is an invariant
		}
		p.next()
		r := &PropertyRule{KwPos: pos, Kind: kind}
		r.Name, r.Cond = p.parsePropertyBody()
		return r
	case RULESET:
		p.next()
		r := &Ruleset{RulesetPos: pos}
		r.Quants = p.parseQuantifiers()
		p.parseDo()
		r.Rules = p.parseRules()
		p.expectEnd("the ruleset", ENDRULESET)
		return r
	case ALIAS:
		p.next()
		r := &AliasRule{AliasPos: pos}
		r.Aliases = p.parseAliases()
		p.parseDo()
		r.Rules = p.parseRules()
		p.expectEnd("the alias", ENDALIAS)
		return r
	case CHOOSE:
		p.next()
		r := &ChooseRule{ChoosePos: pos}
		r.Var = p.parseIdent()
		p.expect(COLON)
		r.Multiset = p.parseDesignator()
		p.parseDo()
		r.Rules = p.parseRules()
		p.expectEnd("the choose", ENDCHOOSE)
		return r
	}
	p.errorExpected("a rule")
	p.next()
	return nil
}

// parsePropertyBody parses `"name" expr` or `expr ["name"]`.
func (p *parser) parsePropertyBody() (string, Expr) {
	if p.tok == STRING {
		name := p.lit
		p.next()
		return name, p.parseExpr()
	}
	x := p.parseExpr()
	name := ""
	if p.tok == STRING {
		name = p.lit
		p.next()
	}
	return name, x
}

func (p *parser) parseDo() {
	if p.tok == DO || p.tok == COLON { // CMurphi lets ':' stand for 'do'
		p.next()
		return
	}
	p.errorExpected("'do'")
}

func (p *parser) parseQuantifiers() []*Quantifier {
	qs := []*Quantifier{p.parseQuantifier()}
	for p.tok == SEMICOLON {
		p.skipSemis()
		if p.tok != IDENT {
			break
		}
		qs = append(qs, p.parseQuantifier())
	}
	return qs
}

func (p *parser) parseQuantifier() *Quantifier {
	q := &Quantifier{Name: p.parseIdent()}
	switch p.tok {
	case COLON:
		p.next()
		q.Type = p.parseType()
	case ASSIGN:
		p.next()
		q.From = p.parseExpr()
		p.expect(TO)
		q.To = p.parseExpr()
		if p.got(BY) {
			q.By = p.parseExpr()
		}
	default:
		p.errorExpected("':' or ':=' in the quantifier")
		q.Type = &BadType{From: p.pos}
	}
	return q
}

func (p *parser) parseAliases() []*AliasDecl {
	var list []*AliasDecl
	for {
		start := p.i
		a := &AliasDecl{Name: p.parseIdent()}
		p.expect(COLON)
		a.X = p.parseExpr()
		list = append(list, a)
		if p.tok == COMMA {
			p.r.errorf(p.pos, "aliases are separated by ';', not ','")
			p.next()
			continue
		}
		p.skipSemis()
		if p.tok != IDENT || p.i == start {
			return list
		}
	}
}

// ---------------------------------------------------------------------------
// Statements

func isStmtStart(t Token) bool {
	switch t {
	case IDENT, IF, SWITCH, FOR, WHILE, ALIAS, CLEAR, UNDEFINE, ERROR, ASSERT, ASSUME, COVER,
		PUT, RETURN, MULTISETADD, MULTISETREMOVE, MULTISETREMOVEPRED, LIVENESS:
		return true
	}
	return false
}

// parseStmtList parses statements separated by ';' until a token that cannot
// start a statement (end, else, elsif, case, ...).
func (p *parser) parseStmtList() []Stmt {
	var list []Stmt
	sep := true
	for {
		if p.tok == SEMICOLON {
			p.skipSemis()
			sep = true
			continue
		}
		if !isStmtStart(p.tok) {
			if isDeclStart(p.tok) {
				p.r.errorf(p.pos, "declarations must come before 'begin'")
				p.parseDeclSection()
				continue
			}
			return list
		}
		if !sep {
			p.r.errorf(p.pos, "expected ';' between statements, found %s", p.describe())
		}
		start := p.i
		list = append(list, p.parseStmt())
		sep = false
		if p.i == start {
			p.next()
		}
	}
}

// syncStmt skips to a likely statement boundary after a syntax error.
func (p *parser) syncStmt() {
	for {
		switch p.tok {
		case EOF, SEMICOLON, ELSE, ELSIF, CASE, THEN, DO, BEGIN, ARROW:
			return
		}
		if isEnd(p.tok) || (isStmtStart(p.tok) && p.tok != IDENT) || isRuleStart(p.tok) {
			return
		}
		p.next()
	}
}

func (p *parser) parseStmt() Stmt {
	p.enter()
	defer p.leave()
	pos := p.pos
	switch p.tok {
	case IDENT:
		if p.peek() == LPAREN {
			call := p.parseCall()
			if p.tok == ASSIGN {
				p.r.errorf(p.pos, "cannot assign to a function call")
				p.syncStmt()
			}
			return &CallStmt{Call: call}
		}
		lhs := p.parseDesignator()
		if p.tok != ASSIGN {
			if p.tok == EQL {
				p.r.errorf(p.pos, "expected ':=' in assignment, found '=' (use ':=' to assign)")
			} else {
				p.errorExpected("':=' after '" + exprString(lhs) + "'")
			}
			p.syncStmt()
			return &BadStmt{From: pos}
		}
		apos := p.pos
		p.next()
		var rhs Expr
		if p.tok == UNDEFINED {
			rhs = &UndefinedLit{UndefPos: p.pos}
			p.next()
		} else {
			rhs = p.parseExpr()
		}
		return &AssignStmt{Lhs: lhs, Assign: apos, Rhs: rhs}
	case IF:
		p.next()
		s := &IfStmt{IfPos: pos}
		cond := p.parseExpr()
		p.expect(THEN)
		s.Clauses = append(s.Clauses, &IfClause{Cond: cond, Body: p.parseStmtList()})
		for p.tok == ELSIF {
			p.next()
			c := p.parseExpr()
			p.expect(THEN)
			s.Clauses = append(s.Clauses, &IfClause{Cond: c, Body: p.parseStmtList()})
		}
		if p.tok == ELSE {
			p.next()
			s.HasElse = true
			s.Else = p.parseStmtList()
		}
		p.expectEnd("the if statement", ENDIF)
		return s
	case SWITCH:
		p.next()
		s := &SwitchStmt{SwitchPos: pos, X: p.parseExpr()}
		for p.tok == CASE {
			c := &CaseClause{CasePos: p.pos}
			p.next()
			for {
				c.Values = append(c.Values, p.parseExpr())
				if !p.got(COMMA) {
					break
				}
			}
			p.expect(COLON)
			c.Body = p.parseStmtList()
			s.Cases = append(s.Cases, c)
		}
		if p.tok == ELSE {
			p.next()
			s.HasElse = true
			s.Else = p.parseStmtList()
		}
		p.expectEnd("the switch statement", ENDSWITCH)
		return s
	case FOR:
		p.next()
		s := &ForStmt{ForPos: pos, Quants: p.parseQuantifiers()}
		p.parseDo()
		s.Body = p.parseStmtList()
		p.expectEnd("the for loop", ENDFOR)
		return s
	case WHILE:
		p.next()
		s := &WhileStmt{WhilePos: pos, Cond: p.parseExpr()}
		p.parseDo()
		s.Body = p.parseStmtList()
		p.expectEnd("the while loop", ENDWHILE)
		return s
	case ALIAS:
		p.next()
		s := &AliasStmt{AliasPos: pos, Aliases: p.parseAliases()}
		p.parseDo()
		s.Body = p.parseStmtList()
		p.expectEnd("the alias statement", ENDALIAS)
		return s
	case CLEAR:
		p.next()
		return &ClearStmt{ClearPos: pos, X: p.parseDesignator()}
	case UNDEFINE:
		p.next()
		return &UndefineStmt{UndefinePos: pos, X: p.parseDesignator()}
	case ERROR:
		p.next()
		s := &ErrorStmt{ErrorPos: pos}
		if p.tok == STRING {
			s.Msg = p.lit
			p.next()
		} else {
			p.errorExpected("a message string after 'error'")
		}
		return s
	case ASSERT, ASSUME, COVER:
		kind := p.tok
		p.next()
		s := &PropertyStmt{KwPos: pos, Kind: kind}
		s.Msg, s.Cond = p.parsePropertyBody()
		return s
	case LIVENESS:
		p.r.errorf(pos, "liveness properties can only be declared at the top level, not as statements")
		p.next()
		p.parsePropertyBody()
		return &BadStmt{From: pos}
	case PUT:
		p.next()
		s := &PutStmt{PutPos: pos}
		if p.tok == STRING {
			s.Str = p.lit
			p.next()
		} else {
			s.X = p.parseExpr()
		}
		return s
	case RETURN:
		p.next()
		s := &ReturnStmt{ReturnPos: pos}
		if isExprStart(p.tok) {
			s.Result = p.parseExpr()
		}
		return s
	case MULTISETADD:
		p.next()
		s := &MultisetAddStmt{FuncPos: pos}
		p.expect(LPAREN)
		s.Elem = p.parseExpr()
		p.expect(COMMA)
		s.Multiset = p.parseDesignator()
		p.expect(RPAREN)
		return s
	case MULTISETREMOVE:
		p.next()
		s := &MultisetRemoveStmt{FuncPos: pos}
		p.expect(LPAREN)
		s.Index = p.parseExpr()
		p.expect(COMMA)
		s.Multiset = p.parseDesignator()
		p.expect(RPAREN)
		return s
	case MULTISETREMOVEPRED:
		p.next()
		s := &MultisetRemovePredStmt{FuncPos: pos}
		p.expect(LPAREN)
		s.Var = p.parseIdent()
		p.expect(COLON)
		s.Multiset = p.parseDesignator()
		p.expect(COMMA)
		s.Pred = p.parseExpr()
		p.expect(RPAREN)
		return s
	}
	p.errorExpected("a statement")
	p.syncStmt()
	return &BadStmt{From: pos}
}

// ---------------------------------------------------------------------------
// Expressions

func isExprStart(t Token) bool {
	switch t {
	case IDENT, INT, LPAREN, NOT, SUB, ADD, TILDE, FORALL, EXISTS, ISUNDEFINED, ISMEMBER,
		MULTISETCOUNT:
		return true
	}
	return false
}

// Binary operator precedences, lowest first; ?: is handled separately and
// unary ! sits between & (7) and the comparisons (9), as in both references.
func binaryPrec(t Token) int {
	switch t {
	case IMPLIES:
		return 2
	case LOR:
		return 3
	case LAND:
		return 4
	case OR:
		return 5
	case XOR:
		return 6
	case AND:
		return 7
	case EQL, NEQ, LSS, LEQ, GTR, GEQ:
		return 9
	case SHL, SHR:
		return 10
	case ADD, SUB:
		return 11
	case MUL, QUO, REM:
		return 12
	}
	return 0
}

const (
	precNot   = 8
	precCmp   = 9
	precUnary = 13
)

func isComparison(t Token) bool { return binaryPrec(t) == precCmp }

func (p *parser) parseExpr() Expr {
	p.enter()
	defer p.leave()
	x := p.parseBinary(2)
	if p.tok == QUESTION {
		q := p.pos
		p.next()
		then := p.parseExpr()
		p.expect(COLON)
		els := p.parseExpr()
		return &CondExpr{Cond: x, Question: q, Then: then, Else: els}
	}
	return x
}

func (p *parser) parseBinary(minPrec int) Expr {
	p.enter()
	defer p.leave()
	x := p.parseUnary()
	for chain := 1; ; chain++ {
		prec := binaryPrec(p.tok)
		if prec == 0 || prec < minPrec {
			return x
		}
		op, opPos := p.tok, p.pos
		if chain > MaxNesting {
			// Stop a long chain early; checkHeight sees the exact depth.
			p.tooDeep(opPos)
		}
		p.next()
		var y Expr
		switch {
		case op == IMPLIES:
			y = p.parseBinary(prec) // right-associative
		default:
			y = p.parseBinary(prec + 1)
		}
		x = &BinaryExpr{X: x, OpPos: opPos, Op: op, Y: y}
		if isComparison(op) && isComparison(p.tok) {
			p.r.errorf(p.pos, "comparisons cannot be chained (%s after %s); use parentheses or '&'", p.tok, op)
		}
	}
}

func (p *parser) parseUnary() Expr {
	p.enter()
	defer p.leave()
	pos := p.pos
	switch p.tok {
	case NOT:
		p.next()
		return &UnaryExpr{OpPos: pos, Op: NOT, X: p.parseBinary(precCmp)}
	case SUB, ADD, TILDE:
		op := p.tok
		p.next()
		return &UnaryExpr{OpPos: pos, Op: op, X: p.parseUnary()}
	}
	return p.parsePrimary()
}

func (p *parser) intValue() uint64 {
	text := p.lit
	var v uint64
	var err error
	switch {
	case strings.HasPrefix(text, "0x") || strings.HasPrefix(text, "0X"):
		v, err = strconv.ParseUint(text[2:], 16, 64)
	case len(text) > 1 && text[0] == '0':
		v, err = strconv.ParseUint(text[1:], 8, 64)
	default:
		v, err = strconv.ParseUint(text, 10, 64)
	}
	if err != nil {
		p.r.errorf(p.pos, "integer literal %s is too large (at most 64 bits)", text)
		return 0
	}
	return v
}

func (p *parser) parsePrimary() Expr {
	pos := p.pos
	switch p.tok {
	case INT:
		x := &IntLit{ValuePos: pos, Text: p.lit, Value: p.intValue()}
		p.next()
		return x
	case IDENT:
		if p.peek() == LPAREN {
			return p.parseCall()
		}
		return p.parseDesignator()
	case LPAREN:
		p.next()
		x := &ParenExpr{Lparen: pos, X: p.parseExpr()}
		p.expect(RPAREN)
		return x
	case FORALL, EXISTS:
		op := p.tok
		p.next()
		x := &QuantExpr{QuantPos: pos, Op: op, Quants: p.parseQuantifiers()}
		p.parseDo()
		x.Body = p.parseExpr()
		if op == FORALL {
			p.expectEnd("the forall", ENDFORALL)
		} else {
			p.expectEnd("the exists", ENDEXISTS)
		}
		return x
	case ISUNDEFINED:
		p.next()
		p.expect(LPAREN)
		x := &IsUndefinedExpr{FuncPos: pos, X: p.parseDesignatorArg("isundefined")}
		p.expect(RPAREN)
		return x
	case ISMEMBER:
		p.next()
		p.expect(LPAREN)
		x := &IsMemberExpr{FuncPos: pos, X: p.parseDesignatorArg("ismember")}
		p.expect(COMMA)
		x.Type = p.parseType()
		p.expect(RPAREN)
		return x
	case MULTISETCOUNT:
		p.next()
		p.expect(LPAREN)
		x := &MultisetCountExpr{FuncPos: pos, Var: p.parseIdent()}
		p.expect(COLON)
		x.Multiset = p.parseDesignator()
		p.expect(COMMA)
		x.Pred = p.parseExpr()
		p.expect(RPAREN)
		return x
	case UNDEFINED:
		p.next()
		return &UndefinedLit{UndefPos: pos}
	case NOT, SUB, ADD, TILDE:
		return p.parseUnary()
	}
	p.errorExpected("an expression")
	if p.tok != EOF && p.tok != SEMICOLON && !isEnd(p.tok) && p.tok != RPAREN && p.tok != RBRACK &&
		p.tok != THEN && p.tok != DO && p.tok != ARROW && p.tok != BEGIN {
		p.next()
	}
	return &BadExpr{From: pos}
}

// parseDesignatorArg parses the designator argument of isundefined/ismember,
// with a clear message when an arbitrary expression was written instead.
func (p *parser) parseDesignatorArg(fn string) Expr {
	if p.tok != IDENT {
		p.r.errorf(p.pos, "the argument of %s must be a variable (a designator), found %s", fn, p.describe())
		x := p.parseExpr()
		return &BadExpr{From: x.Pos()}
	}
	d := p.parseDesignator()
	if p.tok != RPAREN && p.tok != COMMA {
		p.r.errorf(p.pos, "the argument of %s must be a variable (a designator), not an expression", fn)
		p.parseBinaryTail(d)
		return &BadExpr{From: d.Pos()}
	}
	return d
}

// parseBinaryTail consumes the rest of an expression whose first operand was
// already parsed (used only for error recovery).
func (p *parser) parseBinaryTail(x Expr) {
	for binaryPrec(p.tok) > 0 || p.tok == QUESTION || p.tok == COLON {
		p.next()
		p.parseUnary()
	}
}

func (p *parser) parseCall() *CallExpr {
	call := &CallExpr{Func: p.parseIdent(), Lparen: p.pos}
	p.expect(LPAREN)
	for p.tok != RPAREN && p.tok != EOF {
		start := p.i
		call.Args = append(call.Args, p.parseExpr())
		if !p.got(COMMA) || p.i == start {
			break
		}
	}
	p.expect(RPAREN)
	return call
}

// parseDesignator parses ID {.ID | [expr]}.
func (p *parser) parseDesignator() Expr {
	var x Expr = p.parseIdent()
	for chain := 1; ; chain++ {
		if (p.tok == DOT || p.tok == LBRACK) && chain > MaxNesting {
			p.tooDeep(p.pos)
		}
		switch p.tok {
		case DOT:
			dot := p.pos
			p.next()
			x = &FieldExpr{X: x, Dot: dot, Field: p.parseIdent()}
		case LBRACK:
			lb := p.pos
			p.next()
			idx := p.parseExpr()
			p.expect(RBRACK)
			x = &IndexExpr{X: x, Lbrack: lb, Index: idx}
		default:
			return x
		}
	}
}
