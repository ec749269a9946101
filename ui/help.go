// This file holds the words the page uses for the engine's terms: option
// labels and their explanations, and violation kinds in plain words, so
// that the options menus, the verdict and the trace all say the same thing.

package ui

import "strings"

// Option labels, shared by the menus and the verdict's summary (the
// algorithms' come from the engine registry).
var (
	symmetryLabels = map[string]string{"exact": "Exact", "heuristic": "Heuristic (faster)", "off": "Off"}
	deadlockLabels = map[string]string{"stuttering": "No rule changes the state", "stuck": "No rule is enabled", "off": "Do not check"}
)

// label returns the menu label of an option value, or the value itself.
func label(labels map[string]string, v string) string {
	if l, ok := labels[v]; ok {
		return l
	}
	return v
}

// OptionHelp explains each option in a sentence or two, shown beside it.
var OptionHelp = map[string]string{
	"memory": "The most memory the checker may use for the states it has seen and the ones it still has to visit. " +
		"When the queue of states to visit outgrows its share, it spills to the browser's storage; when the table of " +
		"states seen fills the budget, the run stops and the verdict is “incomplete” (nothing was proved).",
	"workers": "How many Web Workers (threads) the search may spread over; each keeps its share of the memory budget. " +
		"A model the checker runs in code generated for it (most models without symmetry reduction) runs fastest on one, " +
		"whatever this says; the others run on the compiled model in parallel, with the same result as on one. " +
		"Automatic leaves a core to the page and uses the others (at most four) where the page can share memory between Workers: on a two-core machine, one. " +
		"Models of a few tens of thousands of states run no faster on more.",
	"deadlock": "A deadlock is a reachable state with no way forward. “No rule changes the state” (as CMurphi) also " +
		"counts states where every enabled rule leaves the state as it is (stuttering); “No rule is enabled” counts " +
		"only states where no rule's guard holds. “Do not check” turns the check off.",
	"symmetry": "Scalarset types say which values are interchangeable (such as process ids). Symmetry reduction " +
		"visits one state of each group of states that differ only by renaming them: far fewer states, same verdict. " +
		"Exact finds one representative per group (CMurphi's counts with -sym1); Heuristic is faster but may keep a " +
		"few equivalent states; Off visits every state. Models without scalarsets are unaffected.",
}

// kindWords says what each violation kind means, in plain words.
var kindWords = map[string]string{
	"invariant":               "An invariant is false",
	"assertion":               "An assertion failed",
	"deadlock":                "Deadlock: the model cannot move on",
	"error-statement":         "The model reached an error statement",
	"liveness":                "A liveness property can never hold again",
	"cover":                   "A cover property is never reached",
	"undefined-read":          "A variable was read before it was given a value",
	"index-out-of-range":      "An array index is out of range",
	"range-error(assignment)": "A value outside its type's range was assigned",
	"range-error(parameter)":  "A value outside its type's range was passed to a parameter",
	"runtime-for-step-zero":   "A for loop has a step of zero",
	"division-by-zero":        "Division by zero",
	"overflow":                "An arithmetic result is too large",
	"multiset-full":           "A multiset is full",
	"loop-limit":              "A rule ran too long (a loop that does not end?)",
	"recursion-limit":         "Recursion too deep",
	"missing-return":          "A function ended without returning a value",
	"error":                   "Error",
}

// KindWords names a violation kind in plain words.
func KindWords(kind string) string {
	if w, ok := kindWords[kind]; ok {
		return w
	}
	return sentence(strings.ReplaceAll(kind, "-", " "))
}

// HelpSection is one part of the Murphi quick reference.
type HelpSection struct {
	Title string
	Text  string // one or two sentences
	Code  string // an example
}

// QuickReference is the Murphi quick reference shown in the Help tab.
var QuickReference = []HelpSection{
	{"A model", "A Murphi model declares constants, types and global variables (the state), start states, rules that change the state, and properties that must hold. Comments start with -- or are between /* and */.",
		"const N: 2;\ntype pid: 1..N;\nvar count: 0..10;\nstartstate begin count := 0; end;\nrule \"tick\" count < 10 ==> begin count := count + 1; end;\ninvariant \"bounded\" count <= 10;"},
	{"Types", "Booleans, integer subranges, enumerations, records, arrays indexed by a finite type, and scalarsets (interchangeable values, for symmetry reduction). Multisets and unions also exist.",
		"type\n  id: scalarset(3);\n  state: enum { idle, busy };\n  node: record s: state; owner: id; end;\nvar nodes: array [id] of node;"},
	{"Rules and rulesets", "A rule has a guard (a condition) and a body; the checker fires every enabled rule from every state. A ruleset makes one rule per value of its parameters.",
		"ruleset i: pid do\n  rule \"enter\" pc[i] = idle & !locked ==>\n  begin\n    locked := true; pc[i] := critical;\n  end;\nend;"},
	{"Start states", "A startstate sets every variable; unset ones are undefined, and reading them is an error. Several start states (or one in a ruleset) give several starting points.",
		"startstate \"init\"\nbegin\n  for i: pid do pc[i] := idle; end;\n  locked := false;\nend;"},
	{"Properties", "An invariant must hold in every reachable state; assert checks a condition inside a rule; error stops with a message. Counterexamples show how a violation is reached.",
		"invariant \"mutual exclusion\"\n  forall i: pid do forall j: pid do\n    (i != j & pc[i] = critical) -> pc[j] != critical\n  end end;"},
	{"Statements", "Assignment :=, if/elsif/else/endif, switch/case, for and while loops, procedure calls, clear (set a variable to its first values), undefine, alias, assert, error, return.",
		"if x = 0 then y := 1; elsif x < 3 then y := 2; else y := 3; endif;\nfor i: pid do a[i] := false; end;"},
	{"Expressions", "Arithmetic + - * / %, comparisons = != < <= > >=, logic ! & | -> (implies), conditional c ? a : b, quantifiers forall/exists, isundefined(x), functions.",
		"exists i: pid do pc[i] = critical end\nforall i: pid do flag[i] -> turn = i end"},
	{"Options and results", "Pass means every reachable state was checked. Fail comes with a counterexample. Incomplete means a limit stopped the search before it finished, so nothing is proved. Rejected means the model has errors.",
		""},
}
