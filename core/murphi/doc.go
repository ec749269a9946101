// Package murphi is Locus's front end for the Murphi language as CMurphi
// 5.4.9 and Rumur accept it.
//
// The pipeline is scan → parse (ParseFile) → check (Check): the checker
// resolves names, computes types and constant values, and validates the
// rules, producing a checked Model that core/compile turns into an
// executable model. Every stage reports located diagnostics
// ("file:line:col: message") and keeps going, so one run shows many
// problems; no input makes any stage panic.
package murphi
