package murphi

// MaxErrors is how many errors one run reports before giving up.
const MaxErrors = 50

// MaxSourceBytes bounds the size of a model's text, fifty times the largest
// model of the reference corpora. It bounds what the front end holds in
// memory: every later stage grows with the text (and with the expansion of
// rulesets, which the compiler bounds separately).
const MaxSourceBytes = 8 << 20

// bom is the UTF-8 encoding of the byte-order mark, which some editors put
// at the start of a file; it is skipped like white space.
const bom = "\uFEFF"

// ParseFile parses one Murphi source file. It always returns a Model (possibly
// partial) and the syntax errors found, sorted by position. It never panics.
func ParseFile(filename string, src []byte) (m *Model, errs ErrorList) {
	f := NewFile(filename, src)
	r := newReporter(f)
	m = &Model{File: f}
	if len(src) > MaxSourceBytes {
		r.errorf(0, "the model is too large: its text is more than %d MiB, the most Locus reads", MaxSourceBytes>>20)
		return m, r.list
	}
	defer func() { errs = r.finish(recover()) }()
	var p parser
	p.init(newScanner(src, r), r)
	m.Decls = p.parseModel()
	return m, r.list
}
