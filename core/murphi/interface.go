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
	items := scanAll(src, r)
	var p parser
	p.init(items, r)
	m.Decls = p.parseModel()
	return m, r.list
}
