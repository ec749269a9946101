// Package reference is a second, independent implementation of Murphi's
// semantics, used only by tests: a plain tree-walking interpreter over the
// checked syntax tree of core/murphi, with its own value representation, its
// own breadth-first search and its own symmetry reduction (the least image
// of a state under every permutation of every scalarset).
//
// It is written for clarity, not speed, and shares nothing with
// core/compile, core/explore or core/symmetry: the differential test in
// core/internal/difftest runs generated models under both and compares
// verdicts, counts and every reachable state's successors. It takes from
// core/murphi only the checked tree: types, resolved names, constant values
// of declared constants and type bounds; it evaluates every expression of a
// rule itself (the checker's folding of x*0 is for type bounds).
//
// Where the two reference tools differ, it follows the source named where
// the behaviour is implemented (../shared/MURPHI-LANGUAGE.md cites them):
//
//   - Rumur, for what Rumur implements: 64-bit arithmetic with an error on
//     overflow, total shifts, evaluation of every operand at run time,
//     assume (a failing one in a guard disables the rule), cover (one
//     counter per declaration and per statement), liveness (evaluated as a
//     state is stored), stuck deadlock (no rule fires), the deadlock check
//     after failing rules, a state whose cover or liveness property fails
//     is stored but not expanded.
//   - CMurphi, for what only it has: multisets, unions, priorities, and the
//     raw copy of an enum or scalarset designator (undefined propagates).
//   - Locus's documented choices where both leave it open: the target of an
//     assignment is located before the value is computed, loop and call
//     limits, the order of multiset entries (which only numbers the choose
//     instances), an assume in a property's function fails it as an
//     assertion.
//
// A multiset is a bag: two states whose multisets hold the same entries in
// other places are one state, also for deadlock detection.
package reference
