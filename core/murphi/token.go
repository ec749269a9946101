package murphi

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Token is the kind of a lexical token.
type Token uint8

// The tokens of the Murphi language (CMurphi 5.4.9 and Rumur spellings).
const (
	ILLEGAL Token = iota
	EOF

	IDENT  // x, pid, L0 (true and false are identifiers bound in the universe)
	INT    // 42, 0x2a, 052
	STRING // "name"

	// Operators and delimiters.
	ASSIGN    // := ≔
	COLON     // :
	SEMICOLON // ;
	COMMA     // ,
	DOT       // .
	DOTDOT    // ..
	LPAREN    // (
	RPAREN    // )
	LBRACK    // [
	RBRACK    // ]
	LBRACE    // {
	RBRACE    // }
	ADD       // +
	SUB       // - −
	MUL       // * ×
	QUO       // / ÷ ∕
	REM       // %
	EQL       // = ==
	NEQ       // != ≠
	LSS       // <
	LEQ       // <= ≤
	GTR       // >
	GEQ       // >= ≥
	NOT       // ! ¬
	AND       // & ∧ (logical on booleans, bitwise on integers)
	OR        // | ∨ (logical on booleans, bitwise on integers)
	LAND      // &&
	LOR       // ||
	IMPLIES   // -> →
	ARROW     // ==> ⇒
	QUESTION  // ?
	XOR       // ^
	TILDE     // ~
	SHL       // <<
	SHR       // >>

	keywordBeg
	ALIAS
	ARRAY
	ASSERT
	ASSUME
	BEGIN
	BOOLEAN
	BY
	CASE
	CHOOSE
	CLEAR
	CONST
	COVER
	DO
	ELSE
	ELSIF
	END
	ENDALIAS
	ENDCHOOSE
	ENDEXISTS
	ENDFOR
	ENDFORALL
	ENDFUNCTION
	ENDIF
	ENDPROCEDURE
	ENDRECORD
	ENDRULE
	ENDRULESET
	ENDSTARTSTATE
	ENDSWITCH
	ENDWHILE
	ENUM
	ERROR
	EXISTS
	FOR
	FORALL
	FUNCTION
	IF
	INVARIANT
	ISMEMBER
	ISUNDEFINED
	LIVENESS
	MULTISET
	MULTISETADD
	MULTISETCOUNT
	MULTISETREMOVE
	MULTISETREMOVEPRED
	OF
	PROCEDURE
	PUT
	RECORD
	RETURN
	RULE
	RULESET
	SCALARSET
	STARTSTATE
	SWITCH
	THEN
	TO
	TYPE
	UNDEFINE
	UNDEFINED
	UNION
	VAR
	WHILE
	// Reserved words the language keeps but Locus does not implement.
	REAL
	EXTERNFUN
	EXTERNPROC
	INTERLEAVED
	PROCESS
	PROGRAM
	TRACEUNTIL
	IN
	keywordEnd
)

var tokenNames = [...]string{
	ILLEGAL: "illegal token",
	EOF:     "end of file",
	IDENT:   "identifier",
	INT:     "integer",
	STRING:  "string",

	ASSIGN: ":=", COLON: ":", SEMICOLON: ";", COMMA: ",", DOT: ".", DOTDOT: "..",
	LPAREN: "(", RPAREN: ")", LBRACK: "[", RBRACK: "]", LBRACE: "{", RBRACE: "}",
	ADD: "+", SUB: "-", MUL: "*", QUO: "/", REM: "%", EQL: "=", NEQ: "!=",
	LSS: "<", LEQ: "<=", GTR: ">", GEQ: ">=", NOT: "!", AND: "&", OR: "|",
	LAND: "&&", LOR: "||", IMPLIES: "->", ARROW: "==>", QUESTION: "?", XOR: "^",
	TILDE: "~", SHL: "<<", SHR: ">>",

	ALIAS: "alias", ARRAY: "array", ASSERT: "assert", ASSUME: "assume", BEGIN: "begin",
	BOOLEAN: "boolean", BY: "by", CASE: "case", CHOOSE: "choose", CLEAR: "clear",
	CONST: "const", COVER: "cover", DO: "do", ELSE: "else", ELSIF: "elsif", END: "end",
	ENDALIAS: "endalias", ENDCHOOSE: "endchoose", ENDEXISTS: "endexists", ENDFOR: "endfor",
	ENDFORALL: "endforall", ENDFUNCTION: "endfunction", ENDIF: "endif",
	ENDPROCEDURE: "endprocedure", ENDRECORD: "endrecord", ENDRULE: "endrule",
	ENDRULESET: "endruleset", ENDSTARTSTATE: "endstartstate", ENDSWITCH: "endswitch",
	ENDWHILE: "endwhile", ENUM: "enum", ERROR: "error", EXISTS: "exists", FOR: "for",
	FORALL: "forall", FUNCTION: "function", IF: "if", INVARIANT: "invariant",
	ISMEMBER: "ismember", ISUNDEFINED: "isundefined", LIVENESS: "liveness",
	MULTISET: "multiset", MULTISETADD: "multisetadd", MULTISETCOUNT: "multisetcount",
	MULTISETREMOVE: "multisetremove", MULTISETREMOVEPRED: "multisetremovepred", OF: "of",
	PROCEDURE: "procedure", PUT: "put", RECORD: "record", RETURN: "return", RULE: "rule",
	RULESET: "ruleset", SCALARSET: "scalarset", STARTSTATE: "startstate", SWITCH: "switch",
	THEN: "then", TO: "to", TYPE: "type", UNDEFINE: "undefine", UNDEFINED: "undefined",
	UNION: "union", VAR: "var", WHILE: "while",
	REAL: "real", EXTERNFUN: "externfun", EXTERNPROC: "externproc",
	INTERLEAVED: "interleaved", PROCESS: "process", PROGRAM: "program",
	TRACEUNTIL: "traceuntil", IN: "in",
}

// String returns the token's spelling ("begin", ":=") or its class ("identifier").
func (t Token) String() string {
	if int(t) < len(tokenNames) && tokenNames[t] != "" {
		return tokenNames[t]
	}
	return "token(" + itoa(int(t)) + ")"
}

// IsKeyword reports whether t is a reserved word.
func (t Token) IsKeyword() bool { return keywordBeg < t && t < keywordEnd }

var keywords map[string]Token

func init() {
	keywords = make(map[string]Token, keywordEnd-keywordBeg)
	for t := keywordBeg + 1; t < keywordEnd; t++ {
		keywords[tokenNames[t]] = t
	}
}

// lookupKeyword maps an identifier spelling to its keyword token, ignoring
// case as Murphi does, or IDENT.
func lookupKeyword(s string) Token {
	if len(s) < 2 || len(s) > 18 {
		return IDENT
	}
	var buf [18]byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	if t, ok := keywords[string(buf[:len(s)])]; ok {
		return t
	}
	return IDENT
}

// Pos is a byte offset into a File's source; NoPos is -1.
type Pos int32

// NoPos is the zero-information position.
const NoPos Pos = -1

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p >= 0 }

// File is one source text with its line table, for turning Pos into line:col.
type File struct {
	Name  string
	Src   []byte
	lines []int32 // offset of the first byte of each line
}

// NewFile returns a File for src.
func NewFile(name string, src []byte) *File {
	f := &File{Name: name, Src: src, lines: []int32{0}}
	for i, c := range src {
		if c == '\n' {
			f.lines = append(f.lines, int32(i+1))
		}
	}
	return f
}

// Position is a human-readable source location; Col counts characters from 1.
type Position struct {
	File string
	Line int
	Col  int
}

func (p Position) String() string {
	s := p.File
	if s == "" {
		s = "<input>"
	}
	if p.Line > 0 {
		s += ":" + itoa(p.Line) + ":" + itoa(p.Col)
	}
	return s
}

// Position converts p into line and column.
func (f *File) Position(p Pos) Position {
	if f == nil {
		return Position{}
	}
	if !p.IsValid() {
		return Position{File: f.Name}
	}
	off := int(p)
	if off > len(f.Src) {
		off = len(f.Src)
	}
	i := sort.Search(len(f.lines), func(i int) bool { return int(f.lines[i]) > off }) - 1
	if i < 0 {
		i = 0
	}
	start := int(f.lines[i])
	if start == 0 && off >= len(bom) && string(f.Src[:len(bom)]) == bom {
		start = len(bom) // editors do not show the byte-order mark
	}
	col := utf8.RuneCount(f.Src[start:off]) + 1
	return Position{File: f.Name, Line: i + 1, Col: col}
}

// Line returns the text of the given 1-based line without its newline.
func (f *File) Line(n int) string {
	if n < 1 || n > len(f.lines) {
		return ""
	}
	start := int(f.lines[n-1])
	end := len(f.Src)
	if n < len(f.lines) {
		end = int(f.lines[n]) - 1
	}
	return strings.TrimRight(string(f.Src[start:end]), "\r")
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
