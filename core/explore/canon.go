package explore

import (
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/symmetry"
)

// newCanonicalizer returns the in-place normalisation applied to every state
// before it is stored (see symmetry.Normalizer); nil when there is nothing
// to do.
func newCanonicalizer(m *compile.Model, mode SymmetryMode) func([]int64) {
	if mode == SymmetryHeuristic {
		return symmetry.Normalizer(m, symmetry.Heuristic, true)
	}
	return symmetry.Normalizer(m, symmetry.Exact, mode == SymmetryExact)
}
