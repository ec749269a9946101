// This file implements interactive simulation: from a start state the user
// picks the next rule among the enabled ones (CMurphi's -s picks them at
// random), and every state reached is checked against the model's
// assumptions and invariants and for deadlock, as the checker would.

package verify

import (
	"fmt"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
)

// Simulation steps through one model's states. It is not safe for
// concurrent use.
type Simulation struct {
	m        *compile.Model
	mc       *compile.Machine
	deadlock string
	where    func(string) string
}

// SimChoice is something the user may do next: pick a start state, or fire
// an enabled rule instance.
type SimChoice struct {
	Index int    `json:"index"`           // start state or rule instance number
	Name  string `json:"name"`            // as in counterexamples
	Pos   string `json:"pos,omitempty"`   // file:line:col of its declaration
	Error string `json:"error,omitempty"` // the run-time error firing it raises
	Same  bool   `json:"same,omitempty"`  // firing it leads back to the same state
}

// SimState is one state of a simulation, with what can follow it.
type SimState struct {
	Slots   []int64     `json:"-"`       // the state itself, to pass back to Next
	Values  []string    `json:"-"`       // each component, formatted, in Names order
	Choices []SimChoice `json:"choices"` // the enabled rule instances, in model order
	// Violations are the properties the state breaks: invariants, and
	// run-time errors raised while evaluating them (no traces).
	Violations []Violation `json:"violations,omitempty"`
	// Discarded: an assumption is false here, so the checker drops the
	// state without checking or expanding it.
	Discarded bool `json:"discarded,omitempty"`
	// Deadlock: the state is a deadlock under the simulation's deadlock
	// option (no enabled rule leads elsewhere, or none is enabled).
	Deadlock bool `json:"deadlock,omitempty"`

	next [][]int64 // successor of each choice (nil where it raises an error)
}

// NewSimulation compiles the model for simulation. It returns nil and the
// diagnostics if the model is rejected. Of opts only Deadlock matters.
func NewSimulation(filename string, src []byte, opts Options) (*Simulation, []Diagnostic) {
	if _, err := engineOptions(Options{Options: job.Options{Deadlock: opts.Deadlock}}); err != nil {
		return nil, []Diagnostic{{File: filename, Severity: "error", Message: err.Error()}}
	}
	m, diags := Compile(filename, src)
	if m == nil {
		return nil, diags
	}
	return &Simulation{m: m, mc: m.NewMachine(), deadlock: orDefault(opts.Deadlock, "stuttering"), where: rulePositions(m)}, diags
}

// Names lists the state's components, in the order of SimState.Values.
func (s *Simulation) Names() []string {
	out := make([]string, len(s.m.Leaves))
	for i := range s.m.Leaves {
		out[i] = s.m.Leaves[i].Name
	}
	return out
}

// Starts lists the start states to choose from.
func (s *Simulation) Starts() []SimChoice {
	out := make([]SimChoice, len(s.m.Starts))
	for i, st := range s.m.Starts {
		name := "startstate " + st.Name
		out[i] = SimChoice{Index: i, Name: name, Pos: s.where(name)}
	}
	return out
}

// Start runs start state i. A start state that raises a run-time error
// gives no state but that error as a violation.
func (s *Simulation) Start(i int) (*SimState, *Violation) {
	if i < 0 || i >= len(s.m.Starts) {
		return nil, &Violation{Kind: "error", Message: fmt.Sprintf("there is no start state %d", i)}
	}
	rerr, assumed := s.mc.RunStart(i)
	if rerr != nil {
		return nil, s.runtimeViolation(rerr)
	}
	st := s.visit(s.mc.State())
	if assumed {
		st.Discarded = true
		st.Choices, st.next, st.Deadlock = nil, nil, false
	}
	return st, nil
}

// Next fires choice number k of cur (an index into cur.Choices). A rule
// that raises a run-time error gives no state but that error.
func (s *Simulation) Next(cur *SimState, k int) (*SimState, *Violation) {
	if cur == nil || k < 0 || k >= len(cur.Choices) {
		return nil, &Violation{Kind: "error", Message: "that rule is not enabled in this state"}
	}
	if cur.next[k] == nil {
		c := cur.Choices[k]
		_, rerr := s.mc.Fire(cur.Slots, c.Index)
		if rerr == nil {
			return nil, &Violation{Kind: "error", Message: "the rule " + c.Name + " failed"}
		}
		return nil, s.runtimeViolation(rerr)
	}
	return s.visit(cur.next[k]), nil
}

// visit checks the state in slots and lists its enabled rules.
func (s *Simulation) visit(slots []int64) *SimState {
	m := s.m
	st := &SimState{Slots: append([]int64(nil), slots...)}
	st.Values = make([]string, len(m.Leaves))
	for i := range m.Leaves {
		st.Values[i] = m.FormatLeaf(i, st.Slots[i])
	}
	for _, p := range m.Assumes {
		ok, rerr := s.mc.Eval(p, st.Slots)
		if rerr != nil {
			st.Violations = append(st.Violations, *s.runtimeViolation(rerr))
			return st
		}
		if !ok {
			st.Discarded = true
			return st
		}
	}
	for _, p := range m.Invariants {
		ok, rerr := s.mc.Eval(p, st.Slots)
		switch {
		case rerr != nil:
			st.Violations = append(st.Violations, *s.runtimeViolation(rerr))
		case !ok:
			st.Violations = append(st.Violations, Violation{Kind: "invariant", Name: p.Name,
				Message: fmt.Sprintf("invariant %q failed", p.Name), Pos: m.Position(p.Pos).String()})
		}
	}
	changed := false
	enabled := 0
	emit := func(r int, succ []int64) bool {
		same := true
		for i, v := range succ {
			if v != st.Slots[i] {
				same = false
				break
			}
		}
		changed = changed || !same
		name := m.Rules[r].Name
		st.Choices = append(st.Choices, SimChoice{Index: r, Name: name, Pos: s.where(name), Same: same})
		st.next = append(st.next, append([]int64(nil), succ...))
		return true
	}
	for from := 0; ; {
		n, rerr, errRule := s.mc.Expand(st.Slots, from, emit)
		enabled += n
		if rerr == nil {
			break
		}
		name := m.Rules[errRule].Name
		st.Choices = append(st.Choices, SimChoice{Index: errRule, Name: name, Pos: s.where(name), Error: rerr.Msg})
		st.next = append(st.next, nil)
		changed = true // an error is not a deadlock
		from = errRule + 1
	}
	switch s.deadlock {
	case "stuck":
		st.Deadlock = enabled == 0 && len(st.Choices) == 0
	case "stuttering":
		st.Deadlock = !changed
	}
	return st
}

func (s *Simulation) runtimeViolation(e *compile.RuntimeError) *Violation {
	v := runtimeViolationOf(s.m, e)
	return &v
}
