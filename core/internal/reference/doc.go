// Package reference is a second, independent implementation of Murphi's
// semantics, used only by tests: a plain tree-walking interpreter over the
// checked syntax tree of core/murphi, with its own value representation, its
// own breadth-first search and its own symmetry reduction (the least image
// of a state under every permutation of every scalarset).
//
// It is written for clarity, not speed, and shares nothing with
// core/compile, core/explore or core/symmetry: the differential test in
// core/internal/difftest runs generated models under both and compares
// verdicts, counts and every reachable state's successors. Where the two
// reference tools disagree, this package follows the source named in the
// comment at that point (../shared/MURPHI-LANGUAGE.md cites them): Rumur
// for everything Rumur implements, CMurphi for multisets, unions and
// priorities, and Locus's documented choices where both tools leave the
// behaviour open (evaluation order, loop and recursion limits).
package reference
