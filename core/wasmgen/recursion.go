package wasmgen

// This file lets procedures and functions call themselves. Their frames
// stack already (a callee's frame starts at its caller's frame top), but
// what the generator proves of code without recursion (the frame area it
// needs, the loop iterations and calls of a rule against the closures'
// step limit) it checks at run time here, and it traps wherever the
// closures could stop with an error (too deep a recursion, too many
// steps): the host then runs the search again on the closures, which
// report the error exactly. So a model that recurses deeply runs on the
// closures; one that recurses a little runs here.

import "github.com/locus-mc/locus/core/murphi"

const (
	// recursionDepth bounds nested calls: far below the closures' bounds
	// (compile.MaxCallDepth, and the levels of code and stack slots that
	// nested calls hold), so that no recursion the closures would stop
	// runs on here.
	recursionDepth = 100
	// recursionFrameBytes is the frame area added for recursive calls.
	recursionFrameBytes = 1 << 20
)

// recursion is what a module whose procedures recurse keeps at run time:
// the depth of nested calls (i32), the steps of the rule or property being
// run (i64: an upper bound of the closures' count), and where the frame
// area ends (i32).
type recursion struct {
	gDepth, gSteps, gFrameLimit uint32
	// limit is the address of the info word (InfoLimit) a trap at one
	// of these bounds sets, so the host can tell it from a run-time
	// check of the model's.
	limit uint32
	// tops are the rule and property functions with their steps known
	// at generation time (all but the recursive calls'), which set gSteps
	// when entered.
	tops []topSteps
}

type topSteps struct {
	f     *fn
	steps uint64
}

// findRecursion reports whether some procedure or function calls itself,
// directly or through others.
func (g *gen) findRecursion() bool {
	calls := map[*murphi.ProcDecl][]*murphi.ProcDecl{}
	for _, d := range g.info.Calls {
		if _, ok := calls[d]; ok {
			continue
		}
		calls[d] = nil
		murphi.Inspect(d, func(n murphi.Node) bool {
			if c, ok := n.(*murphi.CallExpr); ok && g.info.Calls[c] != nil {
				calls[d] = append(calls[d], g.info.Calls[c])
			}
			return true
		})
	}
	const (
		unseen = iota
		open
		done
	)
	state := map[*murphi.ProcDecl]int{}
	var cycle func(d *murphi.ProcDecl) bool
	cycle = func(d *murphi.ProcDecl) bool {
		state[d] = open
		for _, c := range calls[d] {
			switch state[c] {
			case open:
				return true
			case unseen:
				if cycle(c) {
					return true
				}
			}
		}
		state[d] = done
		return false
	}
	for d := range calls {
		if state[d] == unseen && cycle(d) {
			return true
		}
	}
	return false
}

// newRecursion adds the globals of a recursive model's checks.
func (g *gen) newRecursion() {
	g.rec = &recursion{gDepth: g.mod.addGlobal(i32, 0), gSteps: g.mod.addGlobal(i64, 0), gFrameLimit: g.mod.addGlobal(i32, 0),
		limit: g.lay.stats + 8*InfoLimit}
}

// trapOver traps, noting a bound met, if global g (an i64 if wide) is
// above limit.
func (r *recursion) trapOver(f *fn, g uint32, limit int64, wide bool) {
	f.globalGet(g)
	if wide {
		f.i64Const(limit)
		f.i64GtU()
	} else {
		f.i32Const(int32(limit))
		f.i32GtU()
	}
	r.trapIf(f)
}

// trapIf traps, noting a bound met, if the i32 on the stack is not 0.
func (r *recursion) trapIf(f *fn) {
	f.if_()
	f.i32Const(int32(r.limit))
	f.i64Const(1)
	f.i64Store(0)
	f.unreachable()
	f.end()
}

// prepend puts the code emit generates before f's code (wasm's control
// flow is structured: nothing in f refers to an offset).
func prepend(f *fn, emit func()) {
	body := f.code
	f.code = nil
	emit()
	f.code = append(f.code, body...)
}

// enter makes the recursive function pf check, when entered, the steps of
// the rule or property so far with its own (steps, its recursive calls
// aside, which check themselves) and that its frame (at parameter fp)
// fits in the frame area.
func (r *recursion) enter(pf *procFn, fp uint32) {
	f := pf.fn
	prepend(f, func() {
		f.globalGet(r.gSteps)
		f.i64Const(int64(1 + pf.steps))
		f.i64Add()
		f.globalSet(r.gSteps)
		r.trapOver(f, r.gSteps, stepLimit, true)
		f.get(fp)
		f.i32Const(int32(8 * pf.frame))
		f.i32Add()
		f.globalGet(r.gFrameLimit)
		f.i32GtU()
		r.trapIf(f)
	})
}

// call generates a call of fn counted in the depth of nested calls.
func (r *recursion) call(f *fn, callee uint32) {
	f.globalGet(r.gDepth)
	f.i32Const(1)
	f.i32Add()
	f.globalSet(r.gDepth)
	r.trapOver(f, r.gDepth, recursionDepth, false)
	f.call(callee)
	f.globalGet(r.gDepth)
	f.i32Const(1)
	f.i32Sub()
	f.globalSet(r.gDepth)
}

// finish sets where the frame area ends, and makes each rule and property
// function start its count of steps from those known in it. (The count
// of nested calls needs no reset: calls return, and a trap ends the
// search.)
func (r *recursion) finish(g *gen, frameEnd uint32) {
	g.mod.globals[r.gFrameLimit].init = int64(frameEnd)
	for _, t := range r.tops {
		f := t.f
		prepend(f, func() {
			f.i64Const(int64(t.steps))
			f.globalSet(r.gSteps)
		})
	}
}
