package explore

// This file implements exact breadth-first and depth-first search over an
// exact visited set. BFS finds a shortest counterexample.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/queue"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/store"
	"github.com/locus-mc/locus/storagefs"
)

const noParent = ^uint32(0)

type searcher struct {
	ctx  context.Context
	m    *compile.Model
	opts Options
	dfs  bool

	b      *budget.Budget
	mc     *compile.Machine
	up     *compile.Unpacker
	table  *store.Exact
	parent *store.Column
	rule   *store.Column
	front  queue.FIFO
	canon  func([]int64)

	rec     []byte // record being pushed: state | index (8) | depth (4)
	cur     []int64
	curPack []byte // cur packed
	// canonSlots holds the canonical form of a state (canon works on a
	// copy: the machine tracks what compiled code writes in its state).
	canonSlots []int64
	curIdx     int64
	depth      int // depth of the state being expanded
	changed    bool
	emit       compile.Emit

	res       *Result
	maxErrors int
	stop      bool
	started   time.Time
	nextCheck time.Time
	expanded  int64

	// BFS level accounting.
	levelLeft, nextLevel int64

	covers    []int64
	liveness  *edgeLog
	seenError bool
}

func (s *searcher) recSize() int { return s.m.StateBytes + 12 }

func search(ctx context.Context, m *compile.Model, opts Options, dfs bool) *Result {
	s := &searcher{ctx: ctx, m: m, opts: opts, dfs: dfs, started: time.Now()}
	s.res = &Result{StatesExact: true}
	s.maxErrors = opts.MaxErrors
	if s.maxErrors <= 0 {
		s.maxErrors = 1
	}
	if s.opts.ProgressEvery <= 0 {
		s.opts.ProgressEvery = 100 * time.Millisecond
	}
	if opts.Symmetry != SymmetryOff {
		for _, p := range m.Liveness {
			if p.PerElement {
				// A liveness property per scalarset element is not
				// preserved by the quotient graph: explore the full one.
				s.opts.Symmetry = SymmetryOff
				s.res.Notes = append(s.res.Notes, fmt.Sprintf("symmetry reduction was turned off: liveness property %q depends on a scalarset ruleset parameter, and the reduced graph does not preserve it", p.Name))
				break
			}
		}
	}
	s.b = budget.New(opts.MemoryBytes)
	s.mc = m.NewMachine()
	s.up = m.NewUnpacker()
	s.canon = newCanonicalizer(m, s.opts.Symmetry)
	var err error
	s.table, err = store.NewExactBits(m.StateBits, s.b, state.Hash)
	if err != nil {
		return s.incomplete(err)
	}
	s.parent = store.NewColumn(s.b, "trace")
	s.rule = store.NewColumn(s.b, "trace")
	s.front, err = newFrontier(s.recSize(), s.b, opts, dfs)
	if err != nil {
		return s.incomplete(err)
	}
	defer s.front.Close()
	s.rec = make([]byte, s.recSize())
	s.cur = make([]int64, m.NumSlots)
	s.curPack = make([]byte, m.StateBytes)
	s.canonSlots = make([]int64, m.NumSlots)
	s.covers = make([]int64, len(m.Covers))
	if len(m.Liveness) > 0 {
		s.liveness = newEdgeLog(s.b)
	}
	s.emit = s.onSuccessor
	s.nextCheck = s.started.Add(s.opts.ProgressEvery)

	s.startStates()
	if !s.stop {
		s.loop()
	}
	return s.finish()
}

// incomplete ends the run because a resource ran out.
func (s *searcher) incomplete(err error) *Result {
	var ex *budget.ErrExhausted
	if errors.As(err, &ex) || errors.Is(err, storagefs.ErrQuotaExceeded) {
		s.res.Verdict = Incomplete
		s.res.Reason = fmt.Sprintf("%s after %d states", err.Error(), s.statesSoFar())
	} else {
		s.res.Verdict = Error
		s.res.Reason = err.Error()
	}
	s.stop = true
	return s.res
}

func (s *searcher) statesSoFar() int64 {
	if s.table == nil {
		return 0
	}
	return s.table.Len()
}

func (s *searcher) startStates() {
	for i := range s.m.Starts {
		rerr, assumed := s.mc.RunStart(i)
		if assumed {
			continue
		}
		if rerr != nil {
			s.violation(runtimeViolation(rerr), -1, int32(i), nil)
			if s.stop {
				return
			}
			continue
		}
		if s.admit(s.mc.State(), -1, uint32(i), 0) {
			return
		}
	}
	s.levelLeft, s.nextLevel = s.nextLevel, 0
}

// admit handles a state reached at depth from the state with index parent
// by rule (a start state index when parent < 0). It reports whether the
// search must stop.
func (s *searcher) admit(slots []int64, parent int64, rule uint32, depth int) bool {
	slots = s.pack(slots, parent >= 0)
	buf := s.rec[:s.m.StateBytes]
	h := state.Hash(buf)
	old, at := s.table.Find(buf, h)
	if old >= 0 {
		return s.logEdge(parent, old)
	}
	// Rumur's order: a state violating an assumption is discarded silently;
	// one violating an invariant is reported and not stored.
	if p, rerr := s.firstFalse(s.m.Assumes, slots); rerr != nil {
		s.violation(runtimeViolation(rerr), parent, int32(rule), slots)
		return s.stop
	} else if p != nil {
		return false
	}
	if p, rerr := s.firstFalse(s.m.Invariants, slots); rerr != nil {
		s.violation(runtimeViolation(rerr), parent, int32(rule), slots)
		return s.stop
	} else if p != nil {
		s.violation(&Violation{Kind: "invariant", Name: p.Name, Pos: p.Pos,
			Msg: fmt.Sprintf("invariant %q failed", p.Name)}, parent, int32(rule), slots)
		return s.stop
	}
	idx, err := s.table.InsertAt(at, buf, h)
	if err != nil {
		s.incomplete(err)
		return true
	}
	p := noParent
	if parent >= 0 {
		p = uint32(parent)
	}
	if err := s.parent.Append(p); err != nil {
		s.incomplete(err)
		return true
	}
	if err := s.rule.Append(rule); err != nil {
		s.incomplete(err)
		return true
	}
	if s.logEdge(parent, idx) {
		return true
	}
	for i, c := range s.m.Covers {
		ok, rerr := s.mc.Eval(c, slots)
		if rerr != nil {
			s.violation(runtimeViolation(rerr), parent, int32(rule), slots)
			return s.stop
		}
		if ok {
			s.covers[i]++
		}
	}
	for len(s.res.LevelSizes) <= depth {
		s.res.LevelSizes = append(s.res.LevelSizes, 0)
	}
	s.res.LevelSizes[depth]++
	if depth > s.res.Depth {
		s.res.Depth = depth
	}
	binary.LittleEndian.PutUint64(s.rec[s.m.StateBytes:], uint64(idx))
	binary.LittleEndian.PutUint32(s.rec[s.m.StateBytes+8:], uint32(depth))
	if err := s.front.Push(s.rec); err != nil {
		s.incomplete(err)
		return true
	}
	s.nextLevel++
	return false
}

// pack writes the packed canonical form of slots into s.rec and returns
// the canonical slots; the machine's working state is left alone (it is
// canonicalized in a copy). A successor of cur is packed from cur's packed
// form, encoding only what the rule wrote.
func (s *searcher) pack(slots []int64, successor bool) []int64 {
	buf := s.rec[:s.m.StateBytes]
	if s.canon == nil {
		if successor {
			s.mc.PackSuccessor(buf, s.curPack, s.cur)
		} else {
			s.m.Pack(slots, buf)
		}
		return slots
	}
	canon := s.canonSlots
	copy(canon, slots)
	s.canon(canon)
	if successor {
		s.m.PackFrom(buf, s.curPack, s.cur, canon)
	} else {
		s.m.Pack(canon, buf)
	}
	return canon
}

// logEdge records the transition parent -> idx when liveness needs the
// graph; it reports whether the search must stop (no memory for it).
func (s *searcher) logEdge(parent, idx int64) bool {
	if s.liveness == nil || parent < 0 {
		return false
	}
	if err := s.liveness.add(parent, idx); err != nil {
		s.incomplete(err)
		return true
	}
	return false
}

// firstFalse returns the first of props that does not hold in slots, or
// the run-time error evaluating one raised.
func (s *searcher) firstFalse(props []*compile.Property, slots []int64) (*compile.Property, *compile.RuntimeError) {
	for _, p := range props {
		ok, rerr := s.mc.Eval(p, slots)
		if rerr != nil {
			return nil, rerr
		}
		if !ok {
			return p, nil
		}
	}
	return nil, nil
}

func (s *searcher) onSuccessor(rule int, succ []int64) bool {
	s.res.RulesFired++
	if !s.changed {
		s.changed = s.mc.Differs(s.cur)
	}
	return !s.admit(succ, s.curIdx, uint32(rule), s.depth+1)
}

func (s *searcher) loop() {
	sb := s.m.StateBytes
	level := 0
	for !s.stop {
		rec, err := s.front.Pop()
		if err != nil {
			s.incomplete(err)
			return
		}
		if rec == nil {
			return
		}
		s.curIdx = int64(binary.LittleEndian.Uint64(rec[sb:]))
		s.depth = int(binary.LittleEndian.Uint32(rec[sb+8:]))
		if !s.dfs {
			if s.levelLeft == 0 {
				level++
				s.levelLeft, s.nextLevel = s.nextLevel, 0
			}
			s.levelLeft--
			s.depth = level
		}
		s.up.Unpack(rec[:sb], s.cur)
		copy(s.curPack, rec[:sb])
		s.expanded++
		if s.expanded&255 == 0 && s.checkpoint() {
			return
		}
		if s.opts.Bound > 0 && s.depth >= s.opts.Bound {
			s.res.Reason = fmt.Sprintf("bound %d reached: states at depth %d were not expanded", s.opts.Bound, s.opts.Bound)
			continue
		}
		s.changed = false
		from := 0
		hadError := false
		enabled := 0
		for {
			n, rerr, errRule := s.mc.Expand(s.cur, from, s.emit)
			enabled += n
			if s.stop {
				return
			}
			if rerr == nil {
				break
			}
			hadError = true
			s.violation(runtimeViolation(rerr), s.curIdx, int32(errRule), nil)
			if s.stop {
				return
			}
			from = errRule + 1
		}
		if hadError || s.opts.Deadlock == DeadlockOff {
			continue
		}
		if (s.opts.Deadlock == DeadlockStuck && enabled == 0) ||
			(s.opts.Deadlock == DeadlockStuttering && !s.changed) {
			s.violation(&Violation{Kind: "deadlock", Pos: murphi.NoPos, Msg: "deadlock: no rule leads to a different state"}, s.curIdx, -1, nil)
		}
	}
}

// checkpoint reports progress and checks for cancellation; it reports
// whether the search must stop.
func (s *searcher) checkpoint() bool {
	select {
	case <-s.ctx.Done():
		s.res.Verdict = Incomplete
		s.res.Reason = fmt.Sprintf("cancelled after %d states", s.table.Len())
		s.stop = true
		return true
	default:
	}
	now := time.Now()
	if now.Before(s.nextCheck) {
		return false
	}
	s.nextCheck = now.Add(s.opts.ProgressEvery)
	if s.opts.Progress != nil {
		s.opts.Progress(s.progress(now))
	}
	return false
}

func (s *searcher) progress(now time.Time) Progress {
	level := len(s.res.LevelSizes) - 1
	if level < 0 {
		level = 0
	}
	qs := s.front.Stats()
	return Progress{
		Elapsed:      now.Sub(s.started),
		States:       s.table.Len(),
		RulesFired:   s.res.RulesFired,
		Level:        level,
		QueueMemory:  qs.InMemory,
		QueueDisk:    qs.OnDisk,
		MemoryBytes:  s.b.Used(),
		BytesWritten: qs.BytesWritten,
		BytesRead:    qs.BytesRead,
	}
}

func (s *searcher) finish() *Result {
	r := s.res
	r.States = s.statesSoFar()
	r.PeakBytes = s.b.Peak()
	if s.front != nil {
		qs := s.front.Stats()
		r.DiskWritten, r.DiskRead = qs.BytesWritten, qs.BytesRead
	}
	complete := !s.stop && r.Verdict == Pass && r.Reason == ""
	for i, c := range s.m.Covers {
		r.Covers = append(r.Covers, CoverCount{Name: c.Name, Count: s.covers[i]})
	}
	for i, c := range s.m.CoverStmts {
		r.Covers = append(r.Covers, CoverCount{Name: c.Name, Count: s.mc.CoverHits[i]})
	}
	if complete && len(r.Violations) < s.maxErrors {
		// Under symmetry reduction only canonical states and transitions
		// are seen: an instance of a per-element cover counts as hit when
		// any instance of the same declaration is (the reachable graph
		// maps one onto the other).
		reduced := s.opts.Symmetry != SymmetryOff
		hitAt := map[murphi.Pos]bool{}
		for i, c := range s.m.Covers {
			if c.PerElement && s.covers[i] > 0 {
				hitAt[c.Pos] = true
			}
		}
		for i, c := range s.m.CoverStmts {
			if c.PerElement && s.mc.CoverHits[i] > 0 {
				hitAt[c.Pos] = true
			}
		}
		miss := func(name string, pos murphi.Pos, n int64, perElement bool) {
			if n > 0 || (reduced && perElement && hitAt[pos]) || len(r.Violations) >= s.maxErrors {
				return
			}
			r.Violations = append(r.Violations, &Violation{Kind: "cover", Name: name, Pos: pos,
				Msg: fmt.Sprintf("cover %q is never satisfied", name)})
		}
		for i, c := range s.m.Covers {
			miss(c.Name, c.Pos, s.covers[i], c.PerElement)
		}
		for i, c := range s.m.CoverStmts {
			miss(c.Name, c.Pos, s.mc.CoverHits[i], c.PerElement)
		}
	}
	if complete && s.liveness != nil && len(r.Violations) < s.maxErrors {
		s.checkLiveness()
	}
	if len(r.Violations) > 0 {
		r.Verdict = Fail
	} else if r.Verdict == Pass && r.Reason != "" {
		r.Verdict = Incomplete // the bound cut the search short
	}
	r.Elapsed = time.Since(s.started)
	return r
}

// violation records v, found when firing rule from the state with index
// parent (or at that state, if rule < 0); bad is the offending state when it
// was never stored (a failed invariant), else nil.
func (s *searcher) violation(v *Violation, parent int64, rule int32, bad []int64) {
	s.seenError = true
	if s.opts.Trace != TraceNone {
		v.Trace = s.buildTrace(parent, rule, bad)
	}
	s.res.Violations = append(s.res.Violations, v)
	if len(s.res.Violations) >= s.maxErrors {
		s.stop = true
	}
}

func runtimeViolation(e *compile.RuntimeError) *Violation {
	return &Violation{Kind: e.Kind, Name: e.Name, Msg: e.Msg, Pos: e.Pos}
}
