package murphi

import (
	"fmt"
	"sort"
	"strings"
)

// Severity tells errors from warnings.
type Severity uint8

// Severities.
const (
	SevError Severity = iota
	SevWarning
)

func (s Severity) String() string {
	if s == SevWarning {
		return "warning"
	}
	return "error"
}

// Error is one diagnostic: a located message, with optional notes that point
// at related places ("previous declaration here").
type Error struct {
	Pos      Position
	Offset   Pos
	Severity Severity
	Msg      string
	Notes    []Note
}

// Note is a secondary location attached to an Error.
type Note struct {
	Pos Position
	Msg string
}

func (e *Error) Error() string {
	s := e.Pos.String() + ": "
	if e.Severity == SevWarning {
		s += "warning: "
	}
	s += e.Msg
	for _, n := range e.Notes {
		s += "\n\t" + n.Pos.String() + ": " + n.Msg
	}
	return s
}

// ErrorList is a list of diagnostics. The zero value is an empty list ready to use.
type ErrorList []*Error

// Len, Less and Swap sort the list by position.
func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool {
	if l[i].Offset != l[j].Offset {
		return l[i].Offset < l[j].Offset
	}
	return l[i].Msg < l[j].Msg
}

// Sort orders the list by position.
func (l ErrorList) Sort() { sort.Stable(l) }

// HasErrors reports whether the list holds any error (not just warnings).
func (l ErrorList) HasErrors() bool {
	for _, e := range l {
		if e.Severity == SevError {
			return true
		}
	}
	return false
}

// Errors returns only the errors.
func (l ErrorList) Errors() ErrorList {
	var out ErrorList
	for _, e := range l {
		if e.Severity == SevError {
			out = append(out, e)
		}
	}
	return out
}

// Err returns the list as an error if it holds errors, else nil.
func (l ErrorList) Err() error {
	if !l.HasErrors() {
		return nil
	}
	return l
}

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// reporter collects diagnostics for one file, dropping repeats at one spot.
type reporter struct {
	file   *File
	list   ErrorList
	nerr   int
	max    int // bail out after this many errors; 0 = no limit
	lastAt Pos // where the last error was reported (-2: none yet)
}

func newReporter(f *File) *reporter { return &reporter{file: f, max: MaxErrors, lastAt: -2} }

// bailout is the private panic value used to stop after too many errors.
type bailout struct{}

// finish ends a stage: x is what the stage's deferred recover returned (a
// bailout after too many errors is expected; anything else is a bug and
// keeps panicking). It returns the diagnostics sorted by position.
func (r *reporter) finish(x any) ErrorList {
	if x != nil {
		if _, ok := x.(bailout); !ok {
			panic(x)
		}
	}
	r.list.Sort()
	return r.list
}

func (r *reporter) errorf(p Pos, format string, args ...any) *Error {
	return r.add(p, SevError, fmt.Sprintf(format, args...))
}

func (r *reporter) warnf(p Pos, format string, args ...any) *Error {
	return r.add(p, SevWarning, fmt.Sprintf(format, args...))
}

func (r *reporter) add(p Pos, sev Severity, msg string) *Error {
	if sev == SevError && p.IsValid() && p == r.lastAt {
		// A second error at the same spot is a consequence of the first
		// (as "expected ')'" after "expected an expression").
		return nil
	}
	e := &Error{Pos: r.file.Position(p), Offset: p, Severity: sev, Msg: msg}
	r.list = append(r.list, e)
	if sev == SevError {
		r.lastAt = p
		r.nerr++
		if r.max > 0 && r.nerr >= r.max {
			panic(bailout{})
		}
	}
	return e
}

func (r *reporter) note(e *Error, p Pos, format string, args ...any) {
	if e == nil {
		return
	}
	e.Notes = append(e.Notes, Note{Pos: r.file.Position(p), Msg: fmt.Sprintf(format, args...)})
}
