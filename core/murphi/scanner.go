package murphi

import (
	"strings"
	"unicode/utf8"
)

// item is one scanned token.
type item struct {
	tok Token
	pos Pos    // offset of the first byte
	end Pos    // offset just past the last byte
	lit string // identifier spelling, number text, or unquoted string
}

// scanner turns source bytes into tokens. Identifiers are substrings of the
// source, so scanning allocates only the token slice.
type scanner struct {
	src []byte
	off int
	r   *reporter
}

// newScanner returns a scanner of src, past a byte-order mark; errors go to
// r and scanning always goes on.
func newScanner(src []byte, r *reporter) *scanner {
	s := &scanner{src: src, r: r}
	if len(src) >= len(bom) && string(src[:len(bom)]) == bom {
		s.off = len(bom)
	}
	return s
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// unicodeOps are Rumur's Unicode spellings of operators.
var unicodeOps = map[rune]Token{
	'≔': ASSIGN, '≥': GEQ, '≤': LEQ, '≠': NEQ, '→': IMPLIES, '⇒': ARROW,
	'¬': NOT, '∧': AND, '∨': OR, '÷': QUO, '∕': QUO, '−': SUB, '×': MUL,
	'∀': FORALL, '∃': EXISTS,
}

func (s *scanner) next() item {
	s.skipSpace()
	start := s.off
	if s.off >= len(s.src) {
		return item{tok: EOF, pos: Pos(start), end: Pos(start)}
	}
	c := s.src[s.off]
	mk := func(t Token, n int) item {
		s.off += n
		return item{tok: t, pos: Pos(start), end: Pos(s.off)}
	}
	peek := func(k int) byte {
		if s.off+k < len(s.src) {
			return s.src[s.off+k]
		}
		return 0
	}
	switch {
	case isLetter(c) || c == '_':
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off]) || s.src[s.off] == '_') {
			s.off++
		}
		lit := string(s.src[start:s.off])
		if c == '_' {
			s.r.errorf(Pos(start), "identifiers may not begin with '_' (such names are reserved)")
		}
		tok := lookupKeyword(lit)
		if tok == IDENT {
			// true and false are matched in any case (Rumur); they stay
			// identifiers bound in the universe scope.
			if l := strings.ToLower(lit); l == "true" || l == "false" {
				lit = l
			}
		}
		return item{tok: tok, pos: Pos(start), end: Pos(s.off), lit: lit}
	case isDigit(c):
		return s.number()
	case c == '"':
		return s.str(1)
	}
	switch c {
	case ':':
		if peek(1) == '=' {
			return mk(ASSIGN, 2)
		}
		return mk(COLON, 1)
	case ';':
		return mk(SEMICOLON, 1)
	case ',':
		return mk(COMMA, 1)
	case '.':
		if peek(1) == '.' {
			return mk(DOTDOT, 2)
		}
		if isDigit(peek(1)) {
			s.off++
			for s.off < len(s.src) && isDigit(s.src[s.off]) {
				s.off++
			}
			s.r.errorf(Pos(start), "real numbers are not supported")
			return item{tok: INT, pos: Pos(start), end: Pos(s.off), lit: "0"}
		}
		return mk(DOT, 1)
	case '(':
		return mk(LPAREN, 1)
	case ')':
		return mk(RPAREN, 1)
	case '[':
		return mk(LBRACK, 1)
	case ']':
		return mk(RBRACK, 1)
	case '{':
		return mk(LBRACE, 1)
	case '}':
		return mk(RBRACE, 1)
	case '+':
		return mk(ADD, 1)
	case '-':
		if peek(1) == '>' {
			return mk(IMPLIES, 2)
		}
		return mk(SUB, 1)
	case '*':
		return mk(MUL, 1)
	case '/':
		return mk(QUO, 1)
	case '%':
		return mk(REM, 1)
	case '=':
		if peek(1) == '=' && peek(2) == '>' {
			return mk(ARROW, 3)
		}
		if peek(1) == '=' {
			return mk(EQL, 2)
		}
		return mk(EQL, 1)
	case '!':
		if peek(1) == '=' {
			return mk(NEQ, 2)
		}
		return mk(NOT, 1)
	case '<':
		switch peek(1) {
		case '=':
			return mk(LEQ, 2)
		case '<':
			return mk(SHL, 2)
		case '>':
			s.r.errorf(Pos(start), "'<>' is not a Murphi operator; write '!=' for inequality")
			return mk(NEQ, 2)
		}
		return mk(LSS, 1)
	case '>':
		switch peek(1) {
		case '=':
			return mk(GEQ, 2)
		case '>':
			return mk(SHR, 2)
		}
		return mk(GTR, 1)
	case '&':
		if peek(1) == '&' {
			return mk(LAND, 2)
		}
		return mk(AND, 1)
	case '|':
		if peek(1) == '|' {
			return mk(LOR, 2)
		}
		return mk(OR, 1)
	case '?':
		return mk(QUESTION, 1)
	case '^':
		return mk(XOR, 1)
	case '~':
		return mk(TILDE, 1)
	}
	r, n := utf8.DecodeRune(s.src[s.off:])
	if r == '“' {
		return s.str(n)
	}
	if t, ok := unicodeOps[r]; ok {
		return mk(t, n)
	}
	if r == utf8.RuneError && n <= 1 {
		s.r.errorf(Pos(start), "invalid UTF-8 byte 0x%02x", c)
	} else {
		s.r.errorf(Pos(start), "unexpected character %q", r)
	}
	s.off += n
	return item{tok: ILLEGAL, pos: Pos(start), end: Pos(s.off)}
}

// skipSpace skips white space and both comment forms.
func (s *scanner) skipSpace() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.off++
		case c == '-' && s.off+1 < len(s.src) && s.src[s.off+1] == '-':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '*':
			start := s.off
			s.off += 2
			for {
				if s.off+1 >= len(s.src) {
					s.off = len(s.src)
					s.r.errorf(Pos(start), "comment not terminated: '/*' has no matching '*/'")
					return
				}
				if s.src[s.off] == '*' && s.src[s.off+1] == '/' {
					s.off += 2
					break
				}
				s.off++
			}
		case c == 0xC2 && s.off+1 < len(s.src) && s.src[s.off+1] == 0xA0: // no-break space
			s.off += 2
		default:
			return
		}
	}
}

func (s *scanner) number() item {
	start := s.off
	if s.src[s.off] == '0' && s.off+1 < len(s.src) && (s.src[s.off+1] == 'x' || s.src[s.off+1] == 'X') {
		s.off += 2
		for s.off < len(s.src) && isHex(s.src[s.off]) {
			s.off++
		}
		if s.off == start+2 {
			s.r.errorf(Pos(start), "hexadecimal literal has no digits")
			return item{tok: INT, pos: Pos(start), end: Pos(s.off), lit: "0"}
		}
	} else {
		for s.off < len(s.src) && isDigit(s.src[s.off]) {
			s.off++
		}
		// A real literal is digits '.' digits; "0..5" is a range.
		if s.off+1 < len(s.src) && s.src[s.off] == '.' && isDigit(s.src[s.off+1]) {
			s.off++
			for s.off < len(s.src) && isDigit(s.src[s.off]) {
				s.off++
			}
			s.r.errorf(Pos(start), "real numbers are not supported")
			return item{tok: INT, pos: Pos(start), end: Pos(s.off), lit: "0"}
		}
		lit := s.src[start:s.off]
		if len(lit) > 1 && lit[0] == '0' {
			for _, d := range lit {
				if d >= '8' {
					s.r.errorf(Pos(start), "invalid digit %q in octal literal %s (a leading 0 means octal)", d, lit)
					return item{tok: INT, pos: Pos(start), end: Pos(s.off), lit: "0"}
				}
			}
		}
	}
	if s.off < len(s.src) && (isLetter(s.src[s.off]) || s.src[s.off] == '_') {
		end := s.off
		for end < len(s.src) && (isLetter(s.src[end]) || isDigit(s.src[end]) || s.src[end] == '_') {
			end++
		}
		s.r.errorf(Pos(start), "malformed number %q", s.src[start:end])
		s.off = end
		return item{tok: INT, pos: Pos(start), end: Pos(s.off), lit: "0"}
	}
	return item{tok: INT, pos: Pos(start), end: Pos(s.off), lit: string(s.src[start:s.off])}
}

// str scans a string whose opening quote (" or “) is n bytes long; it closes
// at the next " or ”. Backslash escapes the next character (Rumur).
func (s *scanner) str(n int) item {
	start := s.off
	s.off += n
	var b strings.Builder
	for {
		if s.off >= len(s.src) || s.src[s.off] == '\n' {
			s.r.errorf(Pos(start), "string not terminated")
			return item{tok: STRING, pos: Pos(start), end: Pos(s.off), lit: b.String()}
		}
		r, w := utf8.DecodeRune(s.src[s.off:])
		if r == '\\' && s.off+1 < len(s.src) && s.src[s.off+1] != '\n' {
			r2, w2 := utf8.DecodeRune(s.src[s.off+1:])
			b.WriteRune(r2)
			s.off += 1 + w2
			continue
		}
		s.off += w
		if r == '"' || r == '”' {
			return item{tok: STRING, pos: Pos(start), end: Pos(s.off), lit: b.String()}
		}
		b.WriteRune(r)
	}
}
