package compile

import (
	"encoding/binary"
	"fmt"
	mathbits "math/bits"

	"github.com/locus-mc/locus/core/murphi"
)

// Closure signatures of compiled code. Run-time model errors panic with a
// *RuntimeError, recovered once per state expansion rather than per rule.
type (
	intFn  func(*Machine) int64
	boolFn func(*Machine) bool
	stmtFn func(*Machine) bool // reports whether a return statement ran
	addrFn func(*Machine) int
)

// Error kinds of run-time model errors; the words match the conformance
// manifests' failure kinds.
const (
	ErrUndefinedRead = "undefined-read"
	ErrIndex         = "index-out-of-range"
	ErrRangeAssign   = "range-error(assignment)"
	ErrRangeParam    = "range-error(parameter)"
	ErrForStepZero   = "runtime-for-step-zero"
	ErrDivZero       = "division-by-zero"
	ErrOverflow      = "overflow"
	ErrAssertion     = "assertion"
	ErrErrorStmt     = "error-statement"
	ErrMultisetFull  = "multiset-full"
	ErrLoopLimit     = "loop-limit"
	ErrRecursion     = "recursion-limit"
	ErrNoReturn      = "missing-return"
)

// RuntimeError is a run-time model error: the rule (or start state or
// property) that raised it produces no state.
type RuntimeError struct {
	Kind string
	Msg  string
	Pos  murphi.Pos
	Name string // assertion or error message name, if any
}

func (e *RuntimeError) Error() string { return e.Msg }

// assumeAbort is the panic value of a failed assume statement: the
// transition is discarded silently. pos is the statement's, for the error
// it is in a property.
type assumeAbort struct{ pos murphi.Pos }

// MaxLoopIterations bounds one loop (while, for, forall, exists); beyond it
// the rule fails with ErrLoopLimit instead of hanging the checker (CMurphi
// stops while loops at 1000 by default; Rumur never stops).
const MaxLoopIterations = 1 << 20

// maxStack bounds the frame stack (slots).
const maxStack = 1 << 22

// MaxCallDepth bounds nested procedure and function calls.
const MaxCallDepth = 10000

// MaxCallLevels bounds the levels of compiled code (closures, about one per
// expression and statement) that nested calls hold on the stack: a deep
// recursion whose recursive call sits deep inside an expression stops here
// before it exhausts the goroutine's stack (1 GB natively; each level costs a
// few hundred bytes).
const MaxCallLevels = 64 * MaxCallDepth

// yieldLevels is how many levels of nested calls run between two yields of
// the stack under js/wasm (see internal/stackyield): a few hundred levels
// of compiled code are a few thousand frames at most, well inside a Web
// Worker's stack.
const yieldLevels = 256

// DefaultStepLimit bounds the loop iterations and calls of one rule firing
// (or start state, or property evaluation), so that nested loops cannot
// hang the checker.
const DefaultStepLimit = 1 << 26

// Machine executes a Model's compiled code. It owns the working state and the
// frame stack; one Machine per goroutine.
type Machine struct {
	M *Model
	// mem is the working state ([0, NumSlots)) and above it the frame
	// stack. Compiled code that may write a state slot marks it in
	// written (see mark), so that a successor is packed and the state
	// restored by visiting only the slots a rule wrote.
	mem     []int64
	written []uint64 // bit i: state slot i may differ from Expand's state
	// allWritten: any state slot may differ (the state was loaded or
	// reset), written is not to be trusted.
	allWritten bool
	fp         int // current frame base
	sp         int // first free slot
	base       int // NumSlots
	undef      int64

	// CoverHits counts executions of each cover statement.
	CoverHits []int64
	// Put, if set, receives the output of put statements.
	Put func(string)

	enabled []bool
	cur     []int64

	// StepLimit bounds loop iterations and calls per rule firing.
	StepLimit int64
	steps     int64
	depth     int // nested calls
	levels    int // levels of compiled code the nested calls hold (MaxCallLevels)
	// sinceYield counts the levels entered since the stack was last
	// yielded (js/wasm only).
	sinceYield int
	// prioBodies: the last Expand of a model with priorities was firing
	// bodies (not running guards) when it stopped.
	prioBodies bool
}

// NewMachine returns a Machine for m.
func (m *Model) NewMachine() *Machine {
	mc := &Machine{M: m, undef: m.Undef, base: m.NumSlots, StepLimit: DefaultStepLimit}
	mc.mem = make([]int64, m.NumSlots+m.maxFrame+1024)
	mc.CoverHits = make([]int64, len(m.CoverStmts))
	mc.enabled = make([]bool, len(m.Rules))
	mc.cur = make([]int64, m.NumSlots)
	mc.written = make([]uint64, (m.NumSlots+63)/64)
	mc.allWritten = true
	return mc
}

// mark records a write to slot a, which may be a state slot.
func (mc *Machine) mark(a int) {
	if a < mc.base {
		mc.written[a>>6] |= 1 << uint(a&63)
	}
}

// markRange records writes to the n slots from a.
func (mc *Machine) markRange(a, n int) {
	for end := min(a+n, mc.base); a < end; a++ {
		mc.written[a>>6] |= 1 << uint(a&63)
	}
}

// restore makes the working state equal cur again, rewriting only the
// slots written since it last did, and forgets the writes.
func (mc *Machine) restore(cur []int64) {
	n := mc.base
	if mc.allWritten {
		copy(mc.mem[:n], cur)
		clear(mc.written)
		mc.allWritten = false
		return
	}
	st, cur := mc.mem[:n], cur[:n]
	for w, bits := range mc.written {
		if bits == 0 {
			continue
		}
		mc.written[w] = 0
		for ; bits != 0; bits &= bits - 1 {
			i := w<<6 | mathbits.TrailingZeros64(bits)
			st[i] = cur[i]
		}
	}
}

// Differs reports whether the working state differs from cur, the state
// Expand is expanding; call it from an Emit.
func (mc *Machine) Differs(cur []int64) bool {
	n := mc.base
	st, cur := mc.mem[:n], cur[:n]
	if mc.allWritten {
		for i := range st {
			if st[i] != cur[i] {
				return true
			}
		}
		return false
	}
	for w, bits := range mc.written {
		for ; bits != 0; bits &= bits - 1 {
			i := w<<6 | mathbits.TrailingZeros64(bits)
			if st[i] != cur[i] {
				return true
			}
		}
	}
	return false
}

// PackSuccessor writes the packed form of the working state into dst: cur
// is the state Expand is expanding and curPacked its packed form. Only the
// slots the rule wrote are encoded. Call it from an Emit, before anything
// changes the working state. It reports whether the successor differs
// from cur.
func (mc *Machine) PackSuccessor(dst, curPacked []byte, cur []int64) (differs bool) {
	m := mc.M
	if mc.allWritten {
		return m.PackFrom(dst, curPacked, cur, mc.mem[:mc.base])
	}
	n := m.StateBytes
	dst = dst[:n]
	copy(dst, curPacked[:n])
	st, cur := mc.mem[:mc.base], cur[:mc.base]
	codes, fast, undef := m.packing.codes, m.packing.words, m.Undef
	for w, bits := range mc.written {
		for ; bits != 0; bits &= bits - 1 {
			i := w<<6 | mathbits.TrailingZeros64(bits)
			v := st[i]
			if v == cur[i] {
				continue
			}
			differs = true
			c := &codes[i]
			if !fast || c.keep == 0 {
				m.setLeaf(dst, i, m.code(i, v))
				continue
			}
			e := uint64(v-c.lo) + 1
			if v == undef {
				e = 0
			}
			sh := c.shift & 63
			x := binary.LittleEndian.Uint64(dst[c.at:])
			binary.LittleEndian.PutUint64(dst[c.at:], x&^(c.mask<<sh)|e<<sh)
		}
	}
	return differs
}

// State returns the working state's slots (valid until the next call).
func (mc *Machine) State() []int64 { return mc.mem[:mc.base] }

// Load copies slots into the working state.
func (mc *Machine) Load(slots []int64) {
	copy(mc.mem[:mc.base], slots)
	mc.allWritten = true
}

// enter sets up a fresh frame of size n at the bottom of the stack, with
// the local variables in init undefined (every other frame slot is written
// before it is read).
func (mc *Machine) enter(n int, init span) {
	mc.steps = 0
	mc.depth = 0
	mc.levels = 0
	mc.sinceYield = 0
	mc.fp = mc.base
	mc.sp = mc.base + n
	if mc.sp > len(mc.mem) {
		mc.grow(mc.sp)
	}
	if init.Hi > init.Lo {
		f := mc.mem[mc.fp+init.Lo : mc.fp+init.Hi]
		for i := range f {
			f[i] = mc.undef
		}
	}
}

// step counts one loop iteration or call against the step limit. It is
// small enough to inline into every loop and call.
func (mc *Machine) step(pos murphi.Pos) {
	mc.steps++
	if mc.steps > mc.StepLimit {
		mc.stepLimitReached(pos)
	}
}

//go:noinline
func (mc *Machine) stepLimitReached(pos murphi.Pos) {
	panic(&RuntimeError{Kind: ErrLoopLimit, Pos: pos,
		Msg: fmt.Sprintf("a single rule execution ran more than %d loop iterations and calls", mc.StepLimit)})
}

func (mc *Machine) grow(need int) {
	if need > maxStack {
		panic(&RuntimeError{Kind: ErrRecursion, Msg: fmt.Sprintf("recursion too deep (more than %d stack slots)", maxStack)})
	}
	n := 2 * len(mc.mem)
	if n < need {
		n = need
	}
	mem := make([]int64, n)
	copy(mem, mc.mem)
	mc.mem = mem
}

// catch converts a recovered panic value into a RuntimeError (or reports an
// assume abort); anything else is an internal bug and keeps panicking.
func catch(x any) (err *RuntimeError, assume bool) {
	switch v := x.(type) {
	case *RuntimeError:
		return v, false
	case assumeAbort:
		return nil, true
	}
	panic(x)
}

// RunStart runs start state i on a fresh all-undefined state. On success the
// working state holds the result. assumed reports a failed assume statement.
func (mc *Machine) RunStart(i int) (err *RuntimeError, assumed bool) {
	defer func() {
		if x := recover(); x != nil {
			err, assumed = catch(x)
		}
	}()
	s := mc.M.Starts[i]
	st := mc.mem[:mc.base]
	for j := range st {
		st[j] = mc.undef
	}
	mc.allWritten = true
	mc.enter(s.Frame, s.Init)
	runBody(mc, s.Body)
	return nil, false
}

func runBody(mc *Machine, body []stmtFn) {
	for _, s := range body {
		if s(mc) {
			return
		}
	}
}

// Emit receives each successor of an expansion: the rule instance index and
// the successor's slots (valid only during the call). Returning false stops
// the expansion.
type Emit func(rule int, succ []int64) bool

// Expand fires, from the state cur, every enabled rule instance with index >=
// from, calling emit for each successor. It returns how many rule instances
// were enabled. If a rule raises a run-time error, Expand stops and returns
// it with the rule's index; call again with from = errRule+1 to go on (the
// enabled count is then only partial).
func (mc *Machine) Expand(cur []int64, from int, emit Emit) (enabled int, err *RuntimeError, errRule int) {
	errRule = -1
	r := from
	m := mc.M
	defer func() {
		if x := recover(); x != nil {
			err, _ = catch(x)
			errRule = r
		}
	}()
	// The working state is mc.mem[:n]. Compiled code may grow the stack and
	// so move mc.mem (a deep call in a guard or body), so the slice is taken
	// afresh after every call into compiled code, never held across one.
	n := mc.base
	copy(mc.mem[:n], cur)
	clear(mc.written)
	mc.allWritten = false
	minPrio := int64(0)
	if m.HasPriorities {
		// Only enabled rules of the lowest priority value fire (CMurphi),
		// so every guard runs first, and a failing guard is reported
		// before any body fires (as CMurphi, which stops there). Resuming
		// after a guard's error (from = its index + 1) reports the next
		// failing guard, if any, and then fires every body from the
		// first; resuming after a body's error fires the bodies after it.
		// A guard that failed leaves its rule disabled.
		resumeBodies := from > 0 && mc.prioBodies
		mc.prioBodies = false
		first := true
		for g := 0; g < len(m.Rules); g++ {
			ok, gerr := mc.guardCaught(m.Rules[g])
			if gerr != nil && !resumeBodies && g >= from {
				return enabled, gerr, g
			}
			mc.enabled[g] = ok
			if ok {
				if p := m.Rules[g].Priority; first || p < minPrio {
					minPrio, first = p, false
				}
			}
		}
		if !resumeBodies {
			r = 0
		}
		mc.prioBodies = true
	}
	// Guards write no state: the state needs restoring only after a body
	// ran (and emit saw the successor).
	written := false
	for ; r < len(m.Rules); r++ {
		rule := m.Rules[r]
		if m.HasPriorities {
			if !mc.enabled[r] {
				continue
			}
			enabled++
			if rule.Priority != minPrio {
				continue
			}
		} else {
			if written {
				mc.restore(cur)
				written = false
			}
			if rule.hasQuick {
				// An undefined slot falls through to the full guard,
				// which reports the read.
				if v := mc.mem[rule.quickSlot]; v != rule.quickVal && v != mc.undef {
					continue
				}
			}
			if rule.plainGuard {
				if rule.Guard != nil && !rule.Guard(mc) {
					continue
				}
			} else if m.hasAssume {
				if !mc.guardSafe(rule) {
					continue
				}
			} else if !mc.guard(rule) {
				continue
			}
			enabled++
		}
		if written {
			mc.restore(cur)
		}
		written = true
		if m.hasAssume {
			if !mc.bodySafe(rule) {
				continue
			}
		} else {
			mc.runBody(rule)
		}
		if !emit(r, mc.mem[:n]) {
			break
		}
	}
	if written {
		mc.restore(cur)
	}
	return enabled, nil, -1
}

// guardSafe evaluates a guard that may call a function with an assume
// statement: if one fails the rule is not enabled, and the other rules go
// on (Rumur: the guard returns without an error).
func (mc *Machine) guardSafe(rule *Rule) (ok bool) {
	defer func() {
		if x := recover(); x != nil {
			if _, isAssume := x.(assumeAbort); !isAssume {
				panic(x)
			}
			ok = false
		}
	}()
	return mc.guard(rule)
}

// guardCaught evaluates a guard, returning its run-time error (a failed
// assume statement leaves the rule disabled, without an error).
func (mc *Machine) guardCaught(rule *Rule) (ok bool, err *RuntimeError) {
	defer func() {
		if x := recover(); x != nil {
			err, _ = catch(x)
			ok = false
		}
	}()
	return mc.guard(rule), nil
}

// bodySafe runs a rule body, reporting false if an assume statement failed.
func (mc *Machine) bodySafe(rule *Rule) (fired bool) {
	defer func() {
		if x := recover(); x != nil {
			if _, ok := x.(assumeAbort); !ok {
				panic(x)
			}
			fired = false
		}
	}()
	mc.runBody(rule)
	return true
}

// runBody runs a rule instance's body on the working state, in a fresh
// frame with its alias bindings evaluated first.
func (mc *Machine) runBody(rule *Rule) {
	mc.enter(rule.Frame, rule.Init)
	for _, s := range rule.Prelude {
		s(mc)
	}
	rule.body(mc)
}

// guard evaluates a rule instance's guard on the working state.
func (mc *Machine) guard(rule *Rule) bool {
	if rule.Guard == nil && len(rule.Prelude) == 0 {
		return true
	}
	mc.enter(rule.Frame, rule.Init)
	for _, s := range rule.Prelude {
		if s(mc) {
			return false // a choose entry the aliases read is absent
		}
	}
	if rule.Guard == nil {
		return true
	}
	return rule.Guard(mc)
}

// Fire runs rule instance r from the state cur. On success the working
// state holds the successor. fired is false if the guard is false or an
// assume statement failed.
func (mc *Machine) Fire(cur []int64, r int) (fired bool, err *RuntimeError) {
	defer func() {
		if x := recover(); x != nil {
			var assumed bool
			err, assumed = catch(x)
			if assumed {
				fired, err = false, nil
			}
		}
	}()
	mc.Load(cur)
	rule := mc.M.Rules[r]
	if !mc.guard(rule) {
		return false, nil
	}
	mc.runBody(rule)
	return true, nil
}

// Measure evaluates the progress measure p on the state slots.
func (mc *Machine) Measure(p *Measure, slots []int64) (v int64, err *RuntimeError) {
	defer func() {
		if x := recover(); x != nil {
			var assumed bool
			err, assumed = catch(x)
			if assumed {
				err = &RuntimeError{Kind: ErrAssertion, Msg: "assume statement in the progress measure"}
			}
		}
	}()
	mc.Load(slots)
	mc.enter(p.Frame, span{})
	return p.Value(mc), nil
}

// Eval evaluates property p on the state slots.
func (mc *Machine) Eval(p *Property, slots []int64) (ok bool, err *RuntimeError) {
	defer func() {
		if x := recover(); x != nil {
			var assumed bool
			err, assumed = catch(x)
			if assumed {
				err = &RuntimeError{Kind: ErrAssertion, Msg: "assume statement in a property", Pos: x.(assumeAbort).pos}
			}
		}
	}()
	if len(slots) == 0 || &slots[0] != &mc.mem[0] {
		mc.Load(slots) // (engines often pass the working state itself)
	}
	mc.enter(p.Frame, span{})
	for _, s := range p.Pre {
		if s(mc) {
			return p.Vacuous, nil // a choose entry the aliases read is absent
		}
	}
	return p.Cond(mc), nil
}
