package reference

// This file expands a checked model into rule, start state and property
// instances: one per combination of enclosing ruleset parameter values and
// choose indices, in Rumur's order (declaration order, the first-declared
// quantifier outermost, each from least to greatest value).

import (
	"fmt"
	"strings"
	"time"

	"github.com/locus-mc/locus/core/murphi"
)

// maxInstances bounds the instances the reference expands a model to.
const maxInstances = 1 << 16

// Model is a checked model prepared for interpretation.
type Model struct {
	ck          *murphi.Checked
	info        *murphi.Info
	num         num
	globals     []*murphi.Object
	globalIndex map[*murphi.Object]int

	Starts     []*Instance
	Rules      []*Instance
	Invariants []*Instance
	Assumes    []*Instance
	Covers     []*Instance
	Liveness   []*Instance
	// HasPriorities: some rule has a CMurphi priority.
	HasPriorities bool

	perms []perm // every permutation of the symmetric scalarsets

	// work counts loop iterations and calls in the current search, which
	// gives up (ErrTooBig) beyond maxWork.
	work, maxWork int64
	deadline      time.Time
	spent         int64 // calls of spend, to look at the clock now and then
}

// spend counts n units of work against the search's budget, and gives up
// beyond it or past the deadline.
func (m *Model) spend(n int64) {
	m.work += n
	m.spent++
	if m.work > m.maxWork || m.spent%1024 == 0 && !m.deadline.IsZero() && time.Now().After(m.deadline) {
		panic(tooMuchWork{})
	}
}

// Instance is one start state, rule or property with its enclosures.
type Instance struct {
	Name     string
	Pos      murphi.Pos // of the declaration
	Priority int64
	// PerElement: inside a ruleset over a permuted scalarset.
	PerElement bool

	encl  []enclosure
	rule  *murphi.SimpleRule
	start *murphi.StartState
	prop  *murphi.PropertyRule
}

// enclosure is one ruleset parameter value, alias group or choose index
// around an instance, outermost first.
type enclosure struct {
	quant   *murphi.Object
	value   int64
	aliases []*murphi.AliasDecl
	choose  *murphi.Object
	ms      murphi.Expr
}

// New prepares a checked model. It fails if the model has a feature the
// reference does not interpret or expands to too many instances.
func New(ck *murphi.Checked) (m *Model, err error) {
	m = &Model{ck: ck, info: ck.Info, num: num{unsigned: ck.Unsigned}, globalIndex: map[*murphi.Object]int{}, maxWork: 1 << 62}
	for i, g := range ck.Globals {
		m.globals = append(m.globals, g)
		m.globalIndex[g] = i
	}
	defer func() {
		if x := recover(); x != nil {
			e, ok := x.(*Error)
			if !ok {
				panic(x)
			}
			m, err = nil, fmt.Errorf("%s: %s", m.position(e.Pos), e.Msg)
		}
	}()
	for _, d := range ck.Model.Decls {
		switch d.(type) {
		case *murphi.ConstDecl, *murphi.TypeDecl, *murphi.VarDecl, *murphi.ProcDecl:
			continue
		}
		m.expand(d, nil, nil, false)
	}
	m.perms = m.permutations()
	return m, nil
}

func (m *Model) position(p murphi.Pos) string { return m.ck.Model.File.Position(p).String() }

func (m *Model) count() int {
	return len(m.Starts) + len(m.Rules) + len(m.Invariants) + len(m.Assumes) + len(m.Covers) + len(m.Liveness)
}

// expand adds the instances of rule declaration d under the enclosures
// encl; params names their parameter values.
func (m *Model) expand(d murphi.Decl, encl []enclosure, params []string, perElement bool) {
	if m.count() > maxInstances {
		panic(&Error{Kind: "too-many-instances", Pos: d.Pos(), Msg: "too many instances"})
	}
	name := func(base string) string {
		if len(params) == 0 {
			return base
		}
		return base + " [" + strings.Join(params, ", ") + "]"
	}
	inst := func() *Instance {
		return &Instance{Pos: d.Pos(), encl: append([]enclosure(nil), encl...), PerElement: perElement}
	}
	switch d := d.(type) {
	case *murphi.SimpleRule:
		in := inst()
		in.rule, in.Priority, in.Name = d, d.Priority, name("rule "+d.Name)
		if d.HasPriority {
			m.HasPriorities = true
		}
		m.Rules = append(m.Rules, in)
	case *murphi.StartState:
		in := inst()
		in.start, in.Name = d, name("startstate "+d.Name)
		m.Starts = append(m.Starts, in)
	case *murphi.PropertyRule:
		in := inst()
		in.prop, in.Name = d, name(d.Kind.String()+" "+d.Name)
		switch d.Kind {
		case murphi.INVARIANT:
			m.Invariants = append(m.Invariants, in)
		case murphi.ASSUME:
			m.Assumes = append(m.Assumes, in)
		case murphi.COVER:
			m.Covers = append(m.Covers, in)
		case murphi.LIVENESS:
			m.Liveness = append(m.Liveness, in)
		}
	case *murphi.Ruleset:
		m.ruleset(d, d.Quants, encl, params, perElement)
	case *murphi.AliasRule:
		inner := append(append([]enclosure(nil), encl...), enclosure{aliases: d.Aliases})
		for _, r := range d.Rules {
			m.expand(r, inner, params, perElement)
		}
	case *murphi.ChooseRule:
		mt := m.info.Types[d.Multiset].Type
		for k := int64(0); k < mt.Size; k++ {
			inner := append(append([]enclosure(nil), encl...), enclosure{choose: d.Var.Obj, value: k, ms: d.Multiset})
			p := append(append([]string(nil), params...), fmt.Sprintf("%s:%d", d.Var.Name, k))
			for _, r := range d.Rules {
				m.expand(r, inner, p, perElement)
			}
		}
	}
}

func (m *Model) ruleset(d *murphi.Ruleset, qs []*murphi.Quantifier, encl []enclosure, params []string, perElement bool) {
	if len(qs) == 0 {
		for _, r := range d.Rules {
			m.expand(r, encl, params, perElement)
		}
		return
	}
	q := qs[0]
	obj := q.Name.Obj
	for _, v := range m.quantValues(q, encl) {
		inner := append(append([]enclosure(nil), encl...), enclosure{quant: obj, value: v})
		p := append(append([]string(nil), params...), q.Name.Name+":"+m.num.scalarText(obj.Type, scalar(obj.Type, v)))
		m.ruleset(d, qs[1:], inner, p, perElement || m.permuted(obj.Type))
	}
}

// quantValues lists a ruleset parameter's values. The bounds of the range
// form are constants, possibly in terms of outer parameters.
func (m *Model) quantValues(q *murphi.Quantifier, encl []enclosure) []int64 {
	if q.Type != nil {
		return indexValues(q.Name.Obj.Type)
	}
	mc := &machine{m: m, num: m.num, env: env{}}
	for _, e := range encl {
		if e.quant != nil {
			mc.env[e.quant] = scalar(e.quant.Type, e.value)
		}
		if e.choose != nil {
			mc.env[e.choose] = scalar(e.choose.Type, e.value)
		}
	}
	var out []int64
	mc.loop([]*murphi.Quantifier{q}, func() bool {
		out = append(out, mc.env[q.Name.Obj].Int)
		if len(out) > maxInstances {
			panic(&Error{Kind: "too-many-instances", Pos: q.Pos(), Msg: "ruleset parameter has too many values"})
		}
		return false
	})
	return out
}

// permuted reports whether symmetry reduction permutes values of type t
// (a named scalarset, or a union with one).
func (m *Model) permuted(t *murphi.Type) bool {
	for _, s := range m.ck.Scalarsets {
		if s.Size < 2 {
			continue
		}
		if t.ID == s.ID && t.Kind == murphi.TScalarset {
			return true
		}
		if t.Kind == murphi.TUnion {
			for _, u := range t.Union {
				if u.ID == s.ID {
					return true
				}
			}
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// Running instances

// outcome is how one execution ended.
type outcome struct {
	err       *Error
	assumed   bool       // an assume statement failed
	assumePos murphi.Pos // where
	absent    bool       // a choose enclosure's entry is absent: no such instance here
}

// newMachine returns a machine for one execution over state.
func (m *Model) newMachine(state []*Value, covers map[murphi.Pos]int64) *machine {
	mc := &machine{m: m, num: m.num, state: state, env: env{}, covers: covers}
	mc.work()
	return mc
}

// run executes f, turning run-time errors and failed assume statements
// into an outcome.
func run(f func()) (o outcome) {
	defer func() {
		if x := recover(); x != nil {
			switch v := x.(type) {
			case *Error:
				o.err = v
			case assumeFailed:
				o.assumed, o.assumePos = true, v.pos
			default:
				panic(x)
			}
		}
	}()
	f()
	return o
}

// enter binds an instance's enclosures in nesting order: parameter values,
// alias bindings (evaluated now, so they may fail) and choose indices,
// whose entry must be present. It reports false if one is absent.
func (mc *machine) enter(in *Instance) bool {
	for _, e := range in.encl {
		switch {
		case e.quant != nil:
			mc.env[e.quant] = scalar(e.quant.Type, e.value)
		case e.choose != nil:
			mc.env[e.choose] = scalar(e.choose.Type, e.value)
			if mc.locate(e.ms).Elems[e.value] == nil {
				return false
			}
		default:
			for _, a := range e.aliases {
				mc.bindAlias(a)
			}
		}
	}
	return true
}

// guard evaluates a rule instance's guard on state.
func (m *Model) guard(state []*Value, in *Instance, covers map[murphi.Pos]int64) (enabled bool, o outcome) {
	mc := m.newMachine(state, covers)
	o = run(func() {
		if !mc.enter(in) {
			return
		}
		enabled = in.rule.Guard == nil || mc.cond(in.rule.Guard)
	})
	return enabled && o.err == nil && !o.assumed, o
}

// fire runs a rule instance's body on a copy of state.
func (m *Model) fire(state []*Value, in *Instance, covers map[murphi.Pos]int64) ([]*Value, outcome) {
	succ := cloneState(state)
	mc := m.newMachine(succ, covers)
	o := run(func() {
		if !mc.enter(in) {
			panic("reference: firing an instance whose choose entry is absent")
		}
		mc.declareLocals(in.rule.Decls)
		mc.exec(in.rule.Body)
	})
	return succ, o
}

// startState runs a start state instance on a fresh, all-undefined state
// (CMurphi resets the world, Rumur zeroes it).
func (m *Model) startState(in *Instance, covers map[murphi.Pos]int64) ([]*Value, outcome) {
	state := make([]*Value, len(m.globals))
	for i, g := range m.globals {
		state[i] = newValue(g.Type)
	}
	mc := m.newMachine(state, covers)
	o := run(func() {
		if !mc.enter(in) {
			panic("reference: a start state inside a choose")
		}
		mc.declareLocals(in.start.Decls)
		mc.exec(in.start.Body)
	})
	return state, o
}

// holds evaluates a property instance on state. An assume statement in a
// property's functions fails the property as an assertion (Locus's choice;
// Rumur treats it as the property failing without a message).
func (m *Model) holds(state []*Value, in *Instance, covers map[murphi.Pos]int64) (ok bool, err *Error) {
	mc := m.newMachine(state, covers)
	o := run(func() {
		if !mc.enter(in) {
			// A choose entry it is declared in is absent: there is no
			// such instance, so an invariant or assumption holds and a
			// cover or liveness property is not satisfied.
			k := in.prop.Kind
			ok = k == murphi.INVARIANT || k == murphi.ASSUME
			return
		}
		ok = mc.cond(in.prop.Cond)
	})
	if o.assumed {
		return false, &Error{Kind: ErrAssertion, Pos: o.assumePos, Msg: "assume statement in a property"}
	}
	return ok, o.err
}

func cloneState(s []*Value) []*Value {
	out := make([]*Value, len(s))
	for i, v := range s {
		out[i] = v.clone()
	}
	return out
}
