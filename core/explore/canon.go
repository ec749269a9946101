package explore

import (
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/symmetry"
)

// newCanonicalizer returns the in-place normalisation applied to every state
// before it is stored: multiset reduction (always on, as in CMurphi) and
// scalarset symmetry reduction as mode asks. It is nil when there is
// nothing to do.
func newCanonicalizer(m *compile.Model, mode SymmetryMode) func([]int64) {
	var sym *symmetry.Reducer
	switch mode {
	case SymmetryExact:
		sym = symmetry.New(m, symmetry.Exact)
	case SymmetryHeuristic:
		sym = symmetry.New(m, symmetry.Heuristic)
	}
	if sym == nil {
		if len(m.Multisets) == 0 {
			return nil // nothing to normalise
		}
		return m.SortMultisets
	}
	return sym.Canonicalize
}
