package verify

// Deep calls at every entry point of compiled code. The compiled machine
// keeps the working state and the call frames in one slice that grows
// (moves) when a deep call needs more room; code that held the old slice
// across such a call once lost a rule's effect and reported a wrong PASS.
// Each model below walks a counter d from 0 to K and makes a call nested
// D(d)+1 deep at one entry point. D takes every depth up to 1200 (the first
// growth points, each crossed at the first depth that needs it), then steps
// of 24 up to the call-depth limit, so a single run crosses every growth
// point of the stack at that entry point, within a few calls of it.

import (
	"context"
	"fmt"
	"github.com/locus-mc/locus/core/job"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/compile"
)

// deepPrelude declares the counter d, the depth schedule D and f, which
// returns its argument after recursing n+1 calls deep. The local array
// makes frames large, so the stack grows many times before the limit.
const deepPrelude = `
const N: %d; -- the largest index
const DENSE: %d; -- D(i) = i up to here
const STEP: %d; -- then steps of this size
const TOP: %d; -- D(N)
type depth: 0..TOP+1;
var d: 0..N;
var hit: boolean;
function D(i: 0..N): depth;
begin
  if i = N then return TOP; endif;
  if i <= DENSE then return i; endif;
  return DENSE + (i - DENSE) * STEP;
end;
function f(n: depth): depth;
var pad: array[0..7] of boolean;
begin
  if n = 0 then return 0; else return f(n - 1) + 1; endif;
end;
`

// deepSchedule returns the prelude parameters for walking up to a call of
// f nested calls deep (D(N) = calls-1).
func deepSchedule(calls int) (n, dense, step, top int) {
	dense, step, top = 1200, 24, calls-1
	if top <= dense {
		return top, top, 1, top
	}
	n = dense + (top-dense-1)/step + 1
	return n, dense, step, top
}

type deepCase struct {
	name    string
	body    string // the model after the prelude
	symOff  bool   // run with symmetry off
	deadOff bool   // deadlock detection off
	// Expected outcome for the largest n the depth limit allows.
	verdict string
	kind    string              // violation kind when verdict is fail
	states  func(n int64) int64 // reachable states when verdict is pass
	rules   func(n int64) int64 // rules fired when verdict is pass
}

// walk is the common skeleton: d counts up while hit is false; "probe"
// sets hit (its guard or body makes the deep call, per case), "reset"
// clears it. Reachable: (d, hit) for d in 0..N: 2(N+1) states; rules:
// deeper at d < N, probe at every (d, false), reset at every (d, true).
const walk = `
startstate begin d := 0; hit := false; end;
rule "deeper" !hit & d < N ==> begin d := d + 1; end;
rule "reset" hit ==> begin hit := false; end;
`

const symWalk = `
type pid: scalarset(2);
var owner: pid;
ruleset p: pid do startstate begin owner := p; d := 0; hit := false; end; endruleset;
rule "deeper" !hit & d < N ==> begin d := d + 1; end;
rule "reset" hit ==> begin hit := false; end;
ruleset p: pid do
  rule "probe" !hit & owner = p ==> begin if f(D(d)) = D(d) then hit := true; endif; end;
endruleset;
`

func twoPerDepth(n int64) int64 { return 2 * (n + 1) }
func walkRules(n int64) int64   { return n + (n + 1) + (n + 1) }
func deepCases() []deepCase {
	return []deepCase{
		{name: "guard", body: walk + `rule "probe" !hit & f(D(d)) = D(d) ==> begin hit := true; end;`,
			verdict: Pass, states: twoPerDepth, rules: walkRules},
		{name: "rule body", body: walk + `rule "probe" !hit ==> begin if f(D(d)) = D(d) then hit := true; endif; end;`,
			verdict: Pass, states: twoPerDepth, rules: walkRules},
		{name: "rule body fails at the bottom", body: walk + `rule "probe" !hit ==> begin if f(D(d)) = D(d) then hit := true; endif; assert f(D(d)) < TOP "below the bottom"; end;`,
			verdict: Fail, kind: compile.ErrAssertion},
		{name: "start states", body: `
ruleset i: 0..N do startstate begin d := f(D(i)) - D(i) + i; hit := false; end; endruleset;
rule "flip" true ==> begin hit := !hit; end;`,
			verdict: Pass, states: twoPerDepth, rules: func(n int64) int64 { return 2 * (n + 1) }},
		{name: "invariant holds", body: walk + `rule "probe" !hit ==> begin hit := true; end;
invariant "f is the identity" f(D(d)) = D(d);`,
			verdict: Pass, states: twoPerDepth, rules: walkRules},
		{name: "invariant fails at the bottom", body: walk + `rule "probe" !hit ==> begin hit := true; end;
invariant "above the bottom" f(D(d)) < TOP;`,
			verdict: Fail, kind: "invariant"},
		{name: "assume", body: walk + `rule "probe" !hit ==> begin hit := true; end;
assume "not at the bottom" f(D(d)) < TOP;`,
			// (N, false) and (N, true) are discarded; (N-1, *) keep "deeper"
			// enabled but its successor is dropped.
			verdict: Pass, states: func(n int64) int64 { return 2 * n },
			rules: func(n int64) int64 { return n + n + n }},
		{name: "cover", body: walk + `rule "probe" !hit ==> begin hit := true; end;
cover "reaches the bottom" f(D(d)) = TOP;`,
			verdict: Pass, states: twoPerDepth, rules: walkRules},
		{name: "cover never", body: walk + `rule "probe" !hit ==> begin hit := true; end;
cover "beyond the bottom" f(D(d)) = TOP + 1;`,
			verdict: Fail, kind: "cover"},
		{name: "liveness", body: walk + `rule "probe" !hit ==> begin hit := true; end;
liveness "bottom reachable" f(D(d)) = TOP;`,
			verdict: Pass, states: twoPerDepth, rules: walkRules},
		{name: "liveness fails", body: walk + `rule "probe" !hit ==> begin hit := true; end;
liveness "back to the top" f(D(d)) = 0;`,
			verdict: Fail, kind: "liveness"},
		{name: "ruleset parameter", body: walk + `ruleset i: 0..N do
  rule "probe" !hit & d = i ==> begin if f(D(i)) = D(d) then hit := true; endif; end;
endruleset;`,
			verdict: Pass, states: twoPerDepth, rules: walkRules},
		// The scalarset only rides along, so no symmetric instance of the
		// probe can stand in for a lost one.
		{name: "symmetry", body: symWalk,
			verdict: Pass, states: twoPerDepth, rules: walkRules},
		{name: "symmetry off", symOff: true, body: symWalk,
			verdict: Pass, states: func(n int64) int64 { return 2 * twoPerDepth(n) },
			rules: func(n int64) int64 { return 2 * walkRules(n) }},
	}
}

func TestDeepCalls(t *testing.T) {
	// The deepest nesting the machine allows (lower under js/wasm).
	limit := compile.MaxCallDepth
	if testing.Short() {
		limit = 1200
	}
	for _, tc := range deepCases() {
		t.Run(tc.name, func(t *testing.T) {
			res, n := runDeep(t, tc, limit)
			if res.Verdict != tc.verdict {
				t.Fatalf("N=%d: verdict %s (%s %v), want %s", n, res.Verdict, res.Reason, kindOf(res), tc.verdict)
			}
			if tc.verdict == Fail {
				if k := kindOf(res); k != tc.kind {
					t.Fatalf("N=%d: violation kind %q, want %q", n, k, tc.kind)
				}
			} else {
				if res.States == nil || *res.States != tc.states(int64(n)) {
					t.Fatalf("N=%d: %v states, want %d", n, statesOf(res), tc.states(int64(n)))
				}
				if res.RulesFired != tc.rules(int64(n)) {
					t.Fatalf("N=%d: %d rules fired, want %d", n, res.RulesFired, tc.rules(int64(n)))
				}
			}
			if testing.Short() {
				return
			}
			// One call deeper than the limit: the run must end with the
			// depth-limit error, never a pass.
			res, n = runDeep(t, tc, limit+1)
			if res.Verdict != Fail || kindOf(res) != compile.ErrRecursion {
				t.Fatalf("N=%d: verdict %s kind %q, want fail %q", n, res.Verdict, kindOf(res), compile.ErrRecursion)
			}
		})
	}
}

// runDeep checks tc with the schedule whose deepest call nests calls deep;
// it returns the result and the model's N.
func runDeep(t *testing.T, tc deepCase, calls int) (*Result, int) {
	t.Helper()
	n, dense, step, top := deepSchedule(calls)
	src := fmt.Sprintf(deepPrelude, n, dense, step, top) + tc.body
	opts := Options{Options: job.Options{Trace: "none"}}
	if tc.symOff {
		opts.Symmetry = "off"
	}
	if tc.deadOff {
		opts.Deadlock = "off"
	}
	res := Check(context.Background(), "deep.m", []byte(src), opts)
	if res.Verdict == Rejected {
		var msgs []string
		for _, d := range res.Diagnostics {
			msgs = append(msgs, fmt.Sprintf("%d:%d: %s", d.Line, d.Col, d.Message))
		}
		t.Fatalf("rejected:\n%s", strings.Join(msgs, "\n"))
	}
	return res, n
}

func kindOf(r *Result) string {
	if r.Violation == nil {
		return ""
	}
	return r.Violation.Kind
}

func statesOf(r *Result) any {
	if r.States == nil {
		return "unknown"
	}
	return *r.States
}
