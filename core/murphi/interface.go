package murphi

// MaxErrors is how many errors one run reports before giving up.
const MaxErrors = 50

// ParseFile parses one Murphi source file. It always returns a Model (possibly
// partial) and the syntax errors found, sorted by position. It never panics.
func ParseFile(filename string, src []byte) (m *Model, errs ErrorList) {
	f := NewFile(filename, src)
	r := &reporter{file: f, max: MaxErrors}
	m = &Model{File: f}
	defer func() { errs = r.finish(recover()) }()
	items, pragmas := scanFile(src, r)
	var p parser
	p.init(items, r)
	m.Decls = p.parseModel()
	for _, pr := range pragmas {
		if m.Progress != nil {
			r.errorf(pr.at, "a second progress measure (the first is at line %d)", f.Position(m.Progress.At).Line)
			continue
		}
		var q parser
		q.init(scanRange(src, pr.start, pr.end, r), r)
		if q.tok == EOF {
			r.errorf(pr.at, "the progress measure has no expression: write --@progress EXPR")
			continue
		}
		x := q.parseExpr()
		if q.tok != EOF {
			q.errorExpected("the end of the progress measure")
		}
		m.Progress = &ProgressPragma{At: pr.at, X: x}
	}
	return m, r.list
}
