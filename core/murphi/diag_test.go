package murphi_test

// This file checks the parser's and checker's diagnostics against
// testdata files that state them inline, in the style of go/types: a
// comment /* ERROR "rx" */ right after the offending token expects an error
// there whose message matches the regular expression rx; /* WARNING "rx" */
// expects a warning. A line comment -- ERROR "rx" expects one anywhere on
// its line. Every diagnostic must be expected and every expectation met.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/murphi"
)

// expectation is one inline ERROR or WARNING comment.
type expectation struct {
	severity murphi.Severity
	rx       *regexp.Regexp
	line     int
	col      int // 0: anywhere on the line
	text     string
	met      bool
}

var expectRx = regexp.MustCompile(`(/\*|--)\s*(ERROR|WARNING)\s+"((?:[^"\\]|\\.)*)"\s*(\*/)?`)

// multiOps are the operators longer than one character, longest first: the
// token before a comment may be one of them.
var multiOps = []string{"==>", ":=", "..", "->", "<=", ">=", "!=", "==", "&&", "||", "<<", ">>"}

// tokenBefore returns the offset where the token ending before offset end
// starts (white space and other expectation comments skipped).
func tokenBefore(src string, end int) int {
	i := end
	for {
		for i > 0 && strings.ContainsRune(" \t\r\n", rune(src[i-1])) {
			i--
		}
		if !strings.HasSuffix(src[:i], "*/") {
			break
		}
		i = strings.LastIndex(src[:i], "/*")
	}
	isWord := func(c byte) bool {
		return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	switch {
	case i == 0:
		return 0
	case isWord(src[i-1]):
		for i > 0 && isWord(src[i-1]) {
			i--
		}
		return i
	case src[i-1] == '"':
		return strings.LastIndexByte(src[:i-1], '"')
	}
	for _, op := range multiOps {
		if strings.HasSuffix(src[:i], op) {
			return i - len(op)
		}
	}
	return i - 1
}

// expectations reads the inline expectations of src.
func expectations(t *testing.T, f *murphi.File, src string) []*expectation {
	t.Helper()
	var out []*expectation
	for _, m := range expectRx.FindAllStringSubmatchIndex(src, -1) {
		kind, pattern := src[m[4]:m[5]], src[m[6]:m[7]]
		rx, err := regexp.Compile(strings.ReplaceAll(pattern, `\"`, `"`))
		if err != nil {
			t.Fatalf("bad expectation %q: %v", pattern, err)
		}
		e := &expectation{rx: rx, text: src[m[0]:m[1]]}
		if kind == "WARNING" {
			e.severity = murphi.SevWarning
		}
		if src[m[2]:m[3]] == "--" {
			e.line = f.Position(murphi.Pos(m[0])).Line
		} else {
			p := f.Position(murphi.Pos(tokenBefore(src, m[0])))
			e.line, e.col = p.Line, p.Col
		}
		out = append(out, e)
	}
	return out
}

// diagnostics runs the front end: the syntax errors if there are any, else
// the checker's errors and warnings.
func diagnostics(name string, src []byte) murphi.ErrorList {
	m, errs := murphi.ParseFile(name, src)
	if errs.HasErrors() {
		return errs
	}
	_, cerrs := murphi.Check(m)
	return append(errs, cerrs...)
}

func TestDiagnosticFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/diag/*.m")
	if len(files) == 0 {
		t.Fatal("no testdata/diag files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			f := murphi.NewFile(file, src)
			exps := expectations(t, f, string(src))
			for _, d := range diagnostics(file, src) {
				if !meet(exps, d) {
					t.Errorf("%s: unexpected %s: %s", d.Pos, d.Severity, d.Msg)
				}
			}
			for _, e := range exps {
				if !e.met {
					at := fmt.Sprintf("%s:%d", file, e.line)
					if e.col > 0 {
						at += fmt.Sprintf(":%d", e.col)
					}
					t.Errorf("%s: missing %s %q", at, e.severity, e.rx)
				}
			}
		})
	}
}

// meet marks the first unmet expectation that d satisfies.
func meet(exps []*expectation, d *murphi.Error) bool {
	for _, e := range exps {
		if e.met || e.severity != d.Severity || e.line != d.Pos.Line || (e.col != 0 && e.col != d.Pos.Col) {
			continue
		}
		if e.rx.MatchString(d.Msg) {
			e.met = true
			return true
		}
	}
	return false
}
