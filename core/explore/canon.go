package explore

import (
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/symmetry"
)

// newCanonicalizer returns the in-place normalisation applied to every state
// before it is stored (see symmetry.Normalizer); nil when there is nothing
// to do.
func newCanonicalizer(m *compile.Model, mode SymmetryMode) func([]int64) {
	rm, reduce := reduction(mode)
	return symmetry.Normalizer(m, rm, reduce)
}

// reduction returns the Reducer's mode for mode, and whether mode reduces
// at all.
func reduction(mode SymmetryMode) (symmetry.Mode, bool) {
	switch mode {
	case SymmetryHeuristic:
		return symmetry.Heuristic, true
	case SymmetryExact:
		return symmetry.Exact, true
	}
	return symmetry.Exact, false
}
