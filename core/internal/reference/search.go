package reference

// This file explores the state space breadth-first, counting as Locus and
// Rumur count (see Check), and builds the whole reachable graph with every
// state's outcomes (see Graph).

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/locus-mc/locus/core/murphi"
)

// ErrTooBig is returned when a model has more states than Options allow.
var ErrTooBig = errors.New("reference: too many states")

// Options select what a search does.
type Options struct {
	Symmetry  bool   // exact symmetry reduction
	Deadlock  string // "stuttering" (default), "stuck" or "off"
	MaxErrors int    // stop after this many violations; 0 means 1
	Bound     int    // do not expand states at this BFS depth; 0 = no bound
	MaxStates int    // give up (ErrTooBig) beyond this many states; 0 = 100000
	// MaxWork bounds the loop iterations and calls of a whole search
	// (ErrTooBig beyond it); 0 = 50 million.
	MaxWork int64
	// Deadline, if set, ends a search that is still running then
	// (ErrTooBig).
	Deadline time.Time
	// PerRule keys each step of a Graph by its rule instance (meaningful
	// only without symmetry: under symmetry a representative's instances
	// are another representative's permuted ones).
	PerRule bool
}

// budget starts a search's work budget.
func (m *Model) budget(o Options) {
	m.work, m.maxWork, m.deadline = 0, o.MaxWork, o.Deadline
	if m.maxWork <= 0 {
		m.maxWork = 50_000_000
	}
}

// overBudget recovers from a search that ran out of its work budget.
func overBudget(err *error) {
	if x := recover(); x != nil {
		if _, ok := x.(tooMuchWork); !ok {
			panic(x)
		}
		*err = ErrTooBig
	}
}

func (o Options) maxStates() int {
	if o.MaxStates > 0 {
		return o.MaxStates
	}
	return 100000
}

// step is the outcome of one rule instance from one state: a run-time
// error or a successor (before canonicalisation).
type step struct {
	rule int
	err  *Error
	succ []*Value
}

// successors fires every rule instance from state, in instance order. Only
// enabled instances fire; with priorities (CMurphi), only the enabled
// instances of the least priority value, every guard being evaluated first.
// A failed assume statement discards the transition, in a guard as in a
// body (Rumur: the guard or rule returns without an error).
func (m *Model) successors(state []*Value, covers map[murphi.Pos]int64) []step {
	var out []step
	fireOne := func(r int) {
		succ, o := m.fire(state, m.Rules[r], covers)
		switch {
		case o.err != nil:
			out = append(out, step{rule: r, err: o.err})
		case !o.assumed:
			out = append(out, step{rule: r, succ: succ})
		}
	}
	if !m.HasPriorities {
		for r, in := range m.Rules {
			enabled, o := m.guard(state, in, covers)
			if o.err != nil {
				out = append(out, step{rule: r, err: o.err})
				continue
			}
			if enabled {
				fireOne(r)
			}
		}
		return out
	}
	var enabled []int
	for r, in := range m.Rules {
		ok, o := m.guard(state, in, covers)
		if o.err != nil {
			out = append(out, step{rule: r, err: o.err})
			continue
		}
		if ok {
			enabled = append(enabled, r)
		}
	}
	if len(enabled) == 0 {
		return out
	}
	minPrio := m.Rules[enabled[0]].Priority
	for _, r := range enabled {
		if p := m.Rules[r].Priority; p < minPrio {
			minPrio = p
		}
	}
	for _, r := range enabled {
		if m.Rules[r].Priority == minPrio {
			fireOne(r)
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// Check

// Violation is one property failure or run-time model error.
type Violation struct {
	Kind string // the words Locus reports: invariant, deadlock, cover, liveness, or a run-time error kind
	Pos  murphi.Pos
	Msg  string
}

// Result is what Check found.
type Result struct {
	Verdict    string // "pass", "fail" or "incomplete" (the bound cut the search)
	Violations []Violation
	States     int64
	RulesFired int64
	Depth      int
	// Covers counts cover properties (states where they held, summed over
	// a declaration's instances: Rumur keeps one counter per declaration)
	// and cover statements (executions where they held), by position.
	Covers map[murphi.Pos]int64
	// SymmetryOff: symmetry was asked for but a liveness property inside a
	// ruleset over a scalarset made the search explore the full graph.
	SymmetryOff bool
}

type checker struct {
	m       *Model
	opts    Options
	sym     bool
	res     *Result
	stop    bool
	tooBig  bool
	cut     bool // the bound left states unexpanded
	index   map[string]int
	states  [][]*Value
	depth   []int
	queue   []int
	edges   [][]int
	live    [][]bool // per stored state, which liveness properties hold
	covers  map[murphi.Pos]int64
	maxErrs int
}

// Check explores the model breadth-first from its start states, as Locus
// does (and Rumur with one thread): a successor is canonicalised, then
// assumption properties (a false one discards it) and invariants (a false
// one is a violation, and the state is not stored) are checked, then it is
// stored if new and its cover properties counted. Rules fired counts every
// successful body execution. A state is deadlocked, with "stuttering"
// detection, if no rule leads to a different state (compared before
// canonicalisation, as Rumur and CMurphi do); with "stuck", if no rule
// fires at all (Rumur). The search stops after MaxErrors violations; a
// complete search then checks that every cover held somewhere and every
// liveness property (from every state, some state satisfying it is
// reachable).
func (m *Model) Check(opts Options) (res *Result, err error) {
	m.budget(opts)
	defer overBudget(&err)
	c := &checker{m: m, opts: opts, sym: opts.Symmetry && m.Symmetric(), index: map[string]int{},
		covers: map[murphi.Pos]int64{}, res: &Result{Covers: map[murphi.Pos]int64{}}, maxErrs: opts.MaxErrors}
	if c.maxErrs <= 0 {
		c.maxErrs = 1
	}
	if c.sym {
		for _, l := range m.Liveness {
			if l.PerElement {
				// A liveness property per scalarset element is not
				// preserved by the quotient graph (Locus's choice, noted
				// to the user): explore the full graph.
				c.sym = false
				c.res.SymmetryOff = true
			}
		}
	}
	c.startStates()
	for head := 0; head < len(c.queue) && !c.stop; head++ {
		c.expand(c.queue[head])
	}
	if c.tooBig {
		return nil, ErrTooBig
	}
	c.finish()
	return c.res, nil
}

func (c *checker) violation(kind string, pos murphi.Pos, msg string) {
	c.res.Violations = append(c.res.Violations, Violation{Kind: kind, Pos: pos, Msg: msg})
	if len(c.res.Violations) >= c.maxErrs {
		c.stop = true
	}
}

func (c *checker) runtimeError(e *Error) { c.violation(e.Kind, e.Pos, e.Msg) }

func (c *checker) startStates() {
	for _, in := range c.m.Starts {
		st, o := c.m.startState(in, c.covers)
		switch {
		case o.assumed:
			continue
		case o.err != nil:
			c.runtimeError(o.err)
		default:
			c.admit(st, -1, 0)
		}
		if c.stop {
			return
		}
	}
}

// admit handles a state reached at depth from state number parent (-1 for
// a start state).
func (c *checker) admit(st []*Value, parent, depth int) {
	canon, text := c.m.canonical(st, c.sym, true)
	if i, ok := c.index[text]; ok {
		c.edge(parent, i)
		return
	}
	for _, a := range c.m.Assumes {
		ok, err := c.m.holds(canon, a, c.covers)
		if err != nil {
			c.runtimeError(err)
			return
		}
		if !ok {
			return
		}
	}
	for _, inv := range c.m.Invariants {
		ok, err := c.m.holds(canon, inv, c.covers)
		if err != nil {
			c.runtimeError(err)
			return
		}
		if !ok {
			c.violation("invariant", inv.Pos, "invariant "+inv.Name+" failed")
			return
		}
	}
	n := len(c.states)
	c.index[text] = n
	c.states = append(c.states, canon)
	c.depth = append(c.depth, depth)
	c.edges = append(c.edges, nil)
	c.live = append(c.live, make([]bool, len(c.m.Liveness)))
	c.edge(parent, n)
	if len(c.states) > c.opts.maxStates() {
		c.tooBig, c.stop = true, true
		return
	}
	for _, cv := range c.m.Covers {
		ok, err := c.m.holds(canon, cv, c.covers)
		if err != nil {
			c.runtimeError(err)
			return // stored, but not expanded
		}
		if ok {
			c.res.Covers[cv.Pos]++
		}
	}
	// Liveness properties are evaluated as the state is stored too (Rumur
	// checks them after the covers), and decided after the search.
	for i, l := range c.m.Liveness {
		ok, err := c.m.holds(canon, l, c.covers)
		if err != nil {
			c.runtimeError(err)
			return
		}
		c.live[n][i] = ok
	}
	if depth > c.res.Depth {
		c.res.Depth = depth
	}
	c.queue = append(c.queue, n)
}

func (c *checker) edge(from, to int) {
	if from >= 0 {
		c.edges[from] = append(c.edges[from], to)
	}
}

func (c *checker) expand(n int) {
	if c.opts.Bound > 0 && c.depth[n] >= c.opts.Bound {
		c.cut = true
		return
	}
	cur := c.states[n]
	curText := c.m.StateText(cur)
	changed, fired := false, 0
	for _, s := range c.m.successors(cur, c.covers) {
		if s.err != nil {
			c.runtimeError(s.err)
			if c.stop {
				return
			}
			continue
		}
		c.res.RulesFired++
		fired++
		if c.m.StateText(s.succ) != curText {
			changed = true
		}
		c.admit(s.succ, n, c.depth[n]+1)
		if c.stop {
			return
		}
	}
	// Rumur checks for deadlock even when a rule failed (the failing rule
	// just does not count as leaving the state).
	switch c.opts.Deadlock {
	case "off":
	case "stuck":
		if fired == 0 {
			c.violation("deadlock", murphi.NoPos, "deadlock: no rule can fire")
		}
	default:
		if !changed {
			c.violation("deadlock", murphi.NoPos, "deadlock: no rule leads to a different state")
		}
	}
}

func (c *checker) finish() {
	r := c.res
	r.States = int64(len(c.states))
	for p, n := range c.covers {
		r.Covers[p] += n
	}
	if !c.stop && !c.cut {
		c.coverMisses()
		if !c.stop {
			c.checkLiveness()
		}
	}
	switch {
	case len(r.Violations) > 0:
		r.Verdict = "fail"
	case c.cut:
		r.Verdict = "incomplete"
	default:
		r.Verdict = "pass"
	}
}

// coverMisses reports every cover (per declaration; every cover statement
// in the model, as Rumur numbers them) that never held.
func (c *checker) coverMisses() {
	seen := map[murphi.Pos]bool{}
	for _, cv := range c.m.Covers {
		if seen[cv.Pos] {
			continue
		}
		seen[cv.Pos] = true
		if c.res.Covers[cv.Pos] == 0 {
			c.violation("cover", cv.Pos, "cover "+cv.Name+" never held")
			if c.stop {
				return
			}
		}
	}
	for _, p := range c.m.coverStmts() {
		if c.res.Covers[p] == 0 {
			c.violation("cover", p, "cover statement never held")
			if c.stop {
				return
			}
		}
	}
}

// coverStmts lists the positions of the model's cover statements in
// source order.
func (m *Model) coverStmts() []murphi.Pos {
	var out []murphi.Pos
	murphi.Inspect(m.ck.Model, func(n murphi.Node) bool {
		if s, ok := n.(*murphi.PropertyStmt); ok && s.Kind == murphi.COVER {
			out = append(out, s.Pos())
		}
		return true
	})
	return out
}

// checkLiveness checks each liveness instance: from every stored state
// some state where it holds is reachable.
func (c *checker) checkLiveness() {
	n := len(c.states)
	preds := make([][]int, n)
	for from, tos := range c.edges {
		for _, to := range tos {
			preds[to] = append(preds[to], from)
		}
	}
	for k, l := range c.m.Liveness {
		good := make([]bool, n)
		var work []int
		for i := range c.states {
			if c.live[i][k] {
				good[i] = true
				work = append(work, i)
			}
		}
		for len(work) > 0 {
			v := work[len(work)-1]
			work = work[:len(work)-1]
			for _, u := range preds[v] {
				if !good[u] {
					good[u] = true
					work = append(work, u)
				}
			}
		}
		for i := range good {
			if !good[i] {
				c.violation("liveness", l.Pos, "liveness "+l.Name+" fails")
				break
			}
		}
		if c.stop {
			return
		}
	}
}

// ---------------------------------------------------------------------------
// Graph

// Graph is the reachable state graph with every state's outcomes, as text
// that does not depend on how states are represented.
type Graph struct {
	// Starts holds each start state instance's outcome: "-> " and the
	// canonical state, "error " and a kind, or "assumed".
	Starts []string
	// Nodes maps each reachable canonical state's text to its outcomes.
	Nodes map[string]*Node
	// Asymmetric explains why the model is not symmetric ("" if it is,
	// or if symmetry was not asked for): then symmetry reduction may
	// legitimately give different counts with different representatives.
	Asymmetric string
}

// Node is what happens at one state.
type Node struct {
	// Props is the first assumption or invariant that does not hold
	// ("assume false", "invariant false", "... error KIND"); such a state
	// is not expanded.
	Props string
	// Steps lists the outcome of each rule instance that fired or failed,
	// sorted: "-> STATE" or "error KIND", prefixed by "rN " with PerRule.
	Steps []string
	// Changed: some step leads to a state different from this one
	// (before canonicalisation).
	Changed bool
}

// Record prints a node on one line per item, for comparisons.
func (n *Node) Record() string {
	s := "props: " + n.Props + "\n"
	s += fmt.Sprintf("changed: %v\n", n.Changed)
	for _, st := range n.Steps {
		s += st + "\n"
	}
	return s
}

// StepText formats one step as Graph does.
func StepText(perRule bool, rule int, errKind, succ string) string {
	s := ""
	if perRule {
		s = fmt.Sprintf("r%d ", rule)
	}
	if errKind != "" {
		return s + "error " + errKind
	}
	return s + "-> " + succ
}

// Graph explores every state reachable from the start states through rules
// that fire, ignoring MaxErrors and the bound, and records each state's
// outcomes. States that violate an assumption or an invariant are nodes
// but are not expanded (Locus and Rumur never store them).
func (m *Model) Graph(opts Options) (g *Graph, err error) {
	m.budget(opts)
	defer overBudget(&err)
	sym := opts.Symmetry && m.Symmetric()
	perRule := opts.PerRule && !sym
	g = &Graph{Nodes: map[string]*Node{}}
	var queue [][]*Value
	visit := func(st []*Value) string {
		canon, text := m.canonical(st, sym, true)
		if _, ok := g.Nodes[text]; !ok {
			g.Nodes[text] = nil
			queue = append(queue, canon)
		}
		return text
	}
	for _, in := range m.Starts {
		st, o := m.startState(in, nil)
		switch {
		case o.assumed:
			g.Starts = append(g.Starts, "assumed")
		case o.err != nil:
			g.Starts = append(g.Starts, "error "+o.err.Kind)
		default:
			g.Starts = append(g.Starts, "-> "+visit(st))
		}
	}
	checked := 0
	for len(queue) > 0 {
		if len(g.Nodes) > opts.maxStates() {
			return nil, ErrTooBig
		}
		cur := queue[0]
		queue = queue[1:]
		_, text := m.canonical(cur, sym, true)
		node := m.node(cur, sym, perRule)
		g.Nodes[text] = node.Node
		for _, s := range node.succs {
			visit(s)
		}
		node.succs = nil
		if sym && g.Asymmetric == "" && checked < maxSymmetryChecks {
			// Under every permutation, at the first states reached (at
			// all of them would cost a search per permutation).
			g.Asymmetric = m.checkSymmetric(cur, node)
			checked++
		}
	}
	return g, nil
}

// node computes the outcomes at state st.
func (m *Model) node(st []*Value, sym, perRule bool) *nodeWork {
	n := &nodeWork{Node: &Node{}}
	check := func(kind string, props []*Instance) bool {
		for _, p := range props {
			ok, err := m.holds(st, p, nil)
			if err != nil {
				n.Props = kind + " error " + err.Kind
				return false
			}
			if !ok {
				n.Props = kind + " false"
				return false
			}
		}
		return true
	}
	if !check("assume", m.Assumes) || !check("invariant", m.Invariants) {
		return n
	}
	cur := m.StateText(st)
	for _, s := range m.successors(st, nil) {
		if s.err != nil {
			n.Steps = append(n.Steps, StepText(perRule, s.rule, s.err.Kind, ""))
			continue
		}
		if m.StateText(s.succ) != cur {
			n.Changed = true
		}
		_, text := m.canonical(s.succ, sym, true)
		n.Steps = append(n.Steps, StepText(perRule, s.rule, "", text))
		n.succs = append(n.succs, s.succ)
	}
	sort.Strings(n.Steps)
	return n
}

// nodeWork is a Node with the successors still to visit.
type nodeWork struct {
	*Node
	succs [][]*Value
}

// maxSymmetryChecks is how many states Graph checks for symmetry.
const maxSymmetryChecks = 200

// checkSymmetric checks that every image of st under a permutation behaves
// as st does, permuted: the same assumption and invariant outcomes, the
// same errors, and as successors the images of st's successors (compared
// as concrete states, so no canonical form is needed).
func (m *Model) checkSymmetric(st []*Value, n *nodeWork) string {
	props := n.Props
	var errs []string
	var succs [][]*Value
	if props == "" {
		for _, s := range m.successors(st, nil) {
			if s.err != nil {
				errs = append(errs, s.err.Kind)
			} else {
				succs = append(succs, s.succ)
			}
		}
	}
	for _, p := range m.perms {
		img := p.applyState(st)
		ip := m.node(img, false, false).Props
		if ip != props {
			return fmt.Sprintf("state %s: %q, its image %s: %q", m.StateText(st), props, m.StateText(img), ip)
		}
		if props != "" {
			continue
		}
		var want, got, gotErrs []string
		for _, s := range succs {
			want = append(want, m.StateText(p.applyState(s)))
		}
		for _, s := range m.successors(img, nil) {
			if s.err != nil {
				gotErrs = append(gotErrs, s.err.Kind)
			} else {
				got = append(got, m.StateText(s.succ))
			}
		}
		sort.Strings(want)
		sort.Strings(got)
		sort.Strings(errs)
		sort.Strings(gotErrs)
		if strings.Join(want, "\n") != strings.Join(got, "\n") || strings.Join(errs, " ") != strings.Join(gotErrs, " ") {
			return fmt.Sprintf("state %s and its image %s step differently:\n  images of the steps: %v %v\n  steps of the image:  %v %v",
				m.StateText(st), m.StateText(img), want, errs, got, gotErrs)
		}
	}
	return ""
}
