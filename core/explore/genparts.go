package explore

// This file runs exact breadth-first search in generated code on several
// workers: one instance of the model's module per worker, each owning the
// states whose hash falls in its share (wasmgen.Owner), keeping them in
// its own memory and expanding them. A successor another part owns
// travels there through the part's outbox: the host empties it after
// every call of run and hands its entries to their owners' admit.
//
// The parts go level by level. Within a level each part expands its own
// states and admits what the others send it (those are the next level's:
// ids past the level's end); once every part has expanded the level, each
// admits what is still on its way, and the host begins the next level on
// every part. So the states, rules fired and levels are the sequential
// search's, on any number of parts (the first of two equal successors to
// arrive is the one kept, but the two are the same state).
//
// Only a search that finds no violation is reported from the parts, so
// every count (cover statements' hits included) is the whole search's.
// Where one fails an invariant or deadlocks, which violation the one
// search meets first, its counterexample and the counts up to it depend
// on that search's order: the search runs again on one worker, which
// reports it. The same where a part traps (the one worker traps as well,
// and the closures report the error) or the parts fill the memory budget.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/store"
	"github.com/locus-mc/locus/core/wasmgen"
)

// partsKept, if set (by tests), is told the states each part kept.
var partsKept func(states []int64)

// inboxBytes is about the size of the area a part admits from.
const inboxBytes = 256 << 10

// concurrent reports whether rt's instances run at the same time, each on
// a core: only then do parts make a search faster.
func concurrent(rt wasmgen.Runtime) bool {
	c, ok := rt.(wasmgen.ConcurrentRuntime)
	return ok && c.Concurrent()
}

// partsRuntime gives the runtime a generated search on parts runs on, or
// nil: the runtime's own where its instances run at the same time, else
// the one it starts elsewhere for parts (wasmgen.PartsRuntime: the
// browser's helper Workers; the Workers opts.Parts started for the
// closures wait meanwhile, in case the search goes on in them).
func partsRuntime(opts Options) wasmgen.Runtime {
	if p, ok := opts.Generated.(wasmgen.PartsRuntime); ok {
		return p.Parts()
	}
	if opts.Parts == nil && concurrent(opts.Generated) {
		return opts.Generated
	}
	return nil
}

// errPartsRerun ends a search on parts that the one worker must do
// again; why is the note to give on its result.
type errPartsRerun struct{ why string }

func (e *errPartsRerun) Error() string { return e.why }

// partsViolation is why parts stop at a violation.
const partsViolation = "a violation"

// genPart is one part: its instance and what it reported last.
type genPart struct {
	inst   wasmgen.Instance
	outbox uint32 // the outbox's address
	inbox  uint32 // where admit reads from
	// outView and inView are the outbox and the inbox shared with this
	// process (wasmgen.SharedInstance), or nil
	outView, inView []byte
	// begin says the part's next level begins with its next run.
	begin bool
	// the part's counters after its last call, for progress (read by
	// the coordinator while the part runs)
	states, rules, pages atomic.Int64
	// mail is what the other parts sent it, not yet admitted
	mu   sync.Mutex
	mail [][]byte
}

// genParts drives a search on parts.
type genParts struct {
	s      *searcher
	mod    *wasmgen.Module
	parts  []*genPart
	stride int
	inCap  int // entries admit takes at a time
	// stop ends the parts' level: a violation, a trap, memory, or the
	// searcher's stop (cancelled)
	stop   atomic.Bool
	mu     sync.Mutex
	reason error // why the parts stopped, if not the searcher
	// startHash is the hash of the start state Find last looked up, and
	// its part.
	startHash uint64
	startPart *genPart
	// levelStart is how many states there were when the level being
	// expanded began.
	levelStart int64
}

// generatedParts runs bfs in generated code on opts.Workers parts. An
// *errPartsRerun means the one worker must run the search (again); any
// other error that the parts could not start.
func generatedParts(ctx context.Context, m *compile.Model, opts Options, rt wasmgen.Runtime) (*Result, error) {
	mod, err := generatedModule(m, opts)
	if err != nil {
		return nil, err
	}
	if !mod.Parts {
		return nil, errors.New("the model's module cannot run in parts")
	}
	n := opts.Workers
	gp := &genParts{mod: mod, stride: mod.OutboxStride}
	gp.inCap = max(inboxBytes/gp.stride, 1)
	defer func() {
		for _, p := range gp.parts {
			p.inst.Close()
		}
	}()
	// Every instance starts before the first is set up: a runtime may
	// load them at once (a helper Worker each).
	for range n {
		inst, err := rt.Instantiate(mod)
		if err != nil {
			return nil, fmt.Errorf("the generated module did not load: %w", err)
		}
		gp.parts = append(gp.parts, &genPart{inst: inst})
	}
	for k, p := range gp.parts {
		if r, err := p.inst.Call("init"); err != nil || r != 0 {
			return nil, &errPartsRerun{why: "the parts' memory could not hold their tables"}
		}
		if err := gp.areas(p, k, n); err != nil {
			return nil, err
		}
		if err := gp.refresh(p); err != nil {
			return nil, err
		}
	}
	s, failed := newSearcher(ctx, m, opts, false)
	if failed != nil {
		return nil, &errPartsRerun{why: failed.Reason}
	}
	defer s.front.Close()
	defer s.trail.Close()
	gp.s = s
	s.visited = (*partsVisited)(gp)
	s.countStates = gp.states
	s.extraProgress = func(p *job.Progress) {
		for _, q := range gp.parts {
			p.MemoryBytes += q.pages.Load() << 16
		}
	}
	s.startStates()
	if s.stop {
		return nil, &errPartsRerun{why: "a start state stopped the search"}
	}
	if err := gp.levels(); err != nil {
		return nil, err
	}
	// The parts counted the cover properties of the states they kept
	// and the hits of the cover statements they ran; the searcher, those
	// of the start states (and nothing since).
	for _, p := range gp.parts {
		if err := addCounts(p.inst, gp.mod, s.props.covers, s.mc.CoverHits); err != nil {
			return nil, err
		}
	}
	r := s.finish()
	r.Workers = n
	r.Notes = append(r.Notes, keyBitsNote(mod, opts)...)
	if partsKept != nil {
		kept := make([]int64, n)
		for k, p := range gp.parts {
			kept[k] = p.states.Load()
		}
		partsKept(kept)
	}
	for _, p := range gp.parts {
		r.PeakBytes += p.pages.Load() << 16
		r.VisitedBytes += p.pages.Load() << 16
	}
	return r, nil
}

// areas makes p's outbox and inbox, shared with this process where the
// instance can (else read and written through it), and tells p which part
// of n it is.
func (gp *genParts) areas(p *genPart, self, n int) error {
	full := &errPartsRerun{why: "the parts' memory could not hold their outboxes and inboxes"}
	area := func(size int) (uint32, []byte, error) {
		size = (size + shareAlign - 1) &^ (shareAlign - 1)
		a, err := p.inst.Call("alloc", uint64(size+shareAlign))
		if err != nil || a == 0 {
			return 0, nil, full
		}
		at := uint32(a+shareAlign-1) &^ (shareAlign - 1)
		if sh, ok := p.inst.(wasmgen.SharedInstance); ok {
			if view, err := sh.Share(at, uint32(size)); err == nil {
				return at, view, nil
			}
		}
		return at, nil, nil
	}
	var err error
	if p.outbox, p.outView, err = area(gp.mod.OutboxBytes); err != nil {
		return err
	}
	if p.inbox, p.inView, err = area(gp.inCap * gp.stride); err != nil {
		return err
	}
	if r, err := p.inst.Call("partition", uint64(self), uint64(n), uint64(p.outbox)); err != nil || r == 0 {
		return full
	}
	return nil
}

// shareAlign is the alignment of what an instance shares (a page).
const shareAlign = 4096

// states counts the parts' states.
func (gp *genParts) states() int64 {
	n := int64(0)
	for _, p := range gp.parts {
		n += p.states.Load()
	}
	return n
}

// infoStep is a step that reads a part's counters.
func (gp *genParts) infoStep() wasmgen.Step {
	return wasmgen.Step{Name: "info", ReadAt: gp.mod.Stats, ReadBytes: 8 * (wasmgen.InfoPages + 1)}
}

// refresh reads p's counters.
func (gp *genParts) refresh(p *genPart) error {
	steps := []wasmgen.Step{gp.infoStep()}
	if _, err := wasmgen.RunSteps(p.inst, steps); err != nil {
		return err
	}
	gp.counted(p, steps[0].Bytes)
	return nil
}

// counted keeps p's counters, as an info step read them.
func (gp *genParts) counted(p *genPart, info []byte) {
	at := func(i int) int64 { return int64(binary.LittleEndian.Uint64(info[8*i:])) }
	p.states.Store(at(wasmgen.InfoStates))
	p.rules.Store(at(wasmgen.InfoRules))
	p.pages.Store(at(wasmgen.InfoPages))
}

// fail stops the parts for err (the first reason given is kept).
func (gp *genParts) fail(err error) {
	gp.mu.Lock()
	if gp.reason == nil {
		gp.reason = err
	}
	gp.mu.Unlock()
	gp.stop.Store(true)
}

// levels runs the search level by level, from the start states on.
func (gp *genParts) levels() error {
	s := gp.s
	for level := 0; ; level++ {
		before := gp.states()
		for _, p := range gp.parts {
			p.begin = true // with its first run
		}
		if level > 0 {
			// The level just expanded found the states past the last one's
			// end.
			k := before - gp.levelStart
			if k == 0 {
				return nil
			}
			for len(s.res.LevelSizes) <= level {
				s.res.LevelSizes = append(s.res.LevelSizes, 0)
			}
			s.res.LevelSizes[level] = k
			s.res.Depth = level
			if s.opts.Bound > 0 && level >= s.opts.Bound {
				s.res.Reason = fmt.Sprintf("bound %d reached: states at depth %d were not expanded", s.opts.Bound, s.opts.Bound)
				return nil
			}
		}
		gp.levelStart = before
		if err := gp.level(); err != nil {
			return err
		}
		if s.stop {
			return nil // cancelled: the searcher says so
		}
	}
}

// level expands one level on every part, each on a goroutine, while this
// one reports progress; then every part admits what is still on its way.
func (gp *genParts) level() error {
	s := gp.s
	var wg sync.WaitGroup
	run := func(f func(p *genPart) error) {
		for _, p := range gp.parts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := f(p); err != nil {
					gp.fail(err)
				}
			}()
		}
	}
	done := make(chan struct{})
	run(gp.expand)
	go func() { wg.Wait(); close(done) }()
	tick := time.NewTicker(s.opts.ProgressEvery)
	defer tick.Stop()
	for waiting := true; waiting; {
		select {
		case <-done:
			waiting = false
		case <-tick.C:
			gp.counts()
			if s.checkpoint() {
				gp.stop.Store(true)
			}
		}
	}
	if err := gp.stopped(); err != nil || s.stop {
		return err
	}
	run(gp.deliver)
	wg.Wait()
	gp.counts()
	return gp.stopped()
}

// stopped returns why the parts stopped, if one did.
func (gp *genParts) stopped() error {
	gp.mu.Lock()
	defer gp.mu.Unlock()
	return gp.reason
}

// counts gives the searcher the parts' rules fired.
func (gp *genParts) counts() {
	rules := int64(0)
	for _, p := range gp.parts {
		rules += p.rules.Load()
	}
	gp.s.res.RulesFired = rules
}

// expand runs p's run until p has expanded the level, sending its outbox
// to the owners after every call. Each call of run is one exchange with
// the instance (wasmgen.RunSteps): the level's begin with its first run,
// admitting the mail that came since the last (unless the inbox is shared
// with this process: then it is admitted first, a chunk at a time), run,
// taking the outbox and reading the counters.
func (gp *genParts) expand(p *genPart) error {
	for !gp.stop.Load() {
		// The level begins before any mail is admitted: what the others
		// send is the next level's.
		var steps []wasmgen.Step
		if p.begin {
			p.begin = false
			steps = append(steps, wasmgen.Step{Name: "begin"})
			if p.inView != nil { // mailSteps admits at once
				if err := gp.exchange(p, steps); err != nil {
					return err
				}
				steps = nil
			}
		}
		mail, _, err := gp.mailSteps(p)
		if err != nil {
			return err
		}
		steps = append(steps, mail...)
		take := wasmgen.Step{Name: "takeOutbox"}
		if p.outView == nil {
			take.ReadAt, take.ReadUnit = p.outbox, gp.stride
		}
		steps = append(steps, wasmgen.Step{Name: "run", Args: []uint64{generatedSlice}}, take, gp.infoStep())
		if err := gp.exchange(p, steps); err != nil {
			return err
		}
		run, take := steps[len(steps)-3], steps[len(steps)-2]
		out := take.Bytes
		if p.outView != nil {
			out = make([]byte, int(take.Result)*gp.stride)
			copy(out, p.outView)
		}
		gp.send(out)
		if run.Result == wasmgen.StatusLevel {
			return nil
		}
	}
	return nil
}

// send gives the entries of an outbox to their owners' mail.
func (gp *genParts) send(buf []byte) {
	if len(buf) == 0 {
		return
	}
	n := len(gp.parts)
	if n == 2 {
		// Every entry is the other part's: the one that did not send it.
		o := wasmgen.Owner(binary.LittleEndian.Uint64(buf[gp.stride-8:]), n)
		gp.parts[o].post(buf)
		return
	}
	byOwner := make([][]byte, n)
	hashAt := gp.stride - 8
	for e := 0; e < len(buf); e += gp.stride {
		o := wasmgen.Owner(binary.LittleEndian.Uint64(buf[e+hashAt:]), n)
		byOwner[o] = append(byOwner[o], buf[e:e+gp.stride]...)
	}
	for o, b := range byOwner {
		if len(b) > 0 {
			gp.parts[o].post(b)
		}
	}
}

// post adds entries to p's mail.
func (p *genPart) post(b []byte) {
	p.mu.Lock()
	p.mail = append(p.mail, b)
	p.mu.Unlock()
}

// deliver admits p's mail, and reads p's counters.
func (gp *genParts) deliver(p *genPart) error {
	steps, admitted, err := gp.mailSteps(p)
	if err != nil || !admitted {
		return err // with no mail, the counters are the last exchange's
	}
	return gp.exchange(p, append(steps, gp.infoStep()))
}

// mailSteps takes p's mail as admit steps, each writing a chunk of it to
// the inbox. Where the inbox is shared with this process, it admits the
// mail itself, a chunk an exchange, and gives no steps; admitted says
// whether there was mail.
func (gp *genParts) mailSteps(p *genPart) (steps []wasmgen.Step, admitted bool, err error) {
	p.mu.Lock()
	mail := p.mail
	p.mail = nil
	p.mu.Unlock()
	for _, b := range mail {
		for len(b) > 0 {
			k := min(len(b)/gp.stride, gp.inCap)
			admit := wasmgen.Step{Name: "admit", Args: []uint64{uint64(p.inbox), uint64(k)}}
			if p.inView == nil {
				admit.WriteAt, admit.Write = p.inbox, b[:k*gp.stride]
				steps = append(steps, admit)
			} else {
				copy(p.inView, b[:k*gp.stride])
				if err := gp.exchange(p, []wasmgen.Step{admit}); err != nil {
					return nil, true, err
				}
			}
			b = b[k*gp.stride:]
		}
	}
	return steps, len(mail) > 0, nil
}

// exchange runs steps on p and checks what they returned: admit's and
// run's statuses, and the memory of the parts after p's counters.
func (gp *genParts) exchange(p *genPart, steps []wasmgen.Step) error {
	if done, err := wasmgen.RunSteps(p.inst, steps); err != nil {
		switch steps[min(done, len(steps)-1)].Name {
		case "admit", "begin", "run":
			return &errPartsRerun{why: "the generated code stopped at a run-time check"}
		}
		return err
	}
	for _, st := range steps {
		switch st.Name {
		case "info":
			gp.counted(p, st.Bytes)
		case "admit", "run":
			// admit returns 0 when it is done; run, that it stopped for
			// the host.
			ok := st.Result == 0
			if st.Name == "run" {
				ok = st.Result == wasmgen.StatusLevel || st.Result == wasmgen.StatusPause || st.Result == wasmgen.StatusOutbox
			}
			switch {
			case ok:
			case st.Result == wasmgen.StatusInvariant || st.Result == wasmgen.StatusDeadlock:
				return &errPartsRerun{why: partsViolation}
			case st.Result == wasmgen.StatusMemory:
				return &errPartsRerun{why: "the memory of a part could not grow"}
			default:
				return fmt.Errorf("the generated %s returned status %d", st.Name, st.Result)
			}
		}
	}
	if limit := gp.s.opts.MemoryBytes; limit > 0 {
		used := int64(0)
		for _, q := range gp.parts {
			used += q.pages.Load() << 16
		}
		if used > limit {
			return &errPartsRerun{why: "the parts together passed the memory budget of " + budget.FormatBytes(limit)}
		}
	}
	return nil
}

// partsVisited is the parts' tables seen as one visited set, for the
// start states (each goes to its owner) and the counts at the end.
type partsVisited genParts

func (v *partsVisited) Find(s []byte, _ uint64) (bool, int64, uint64) {
	gp := (*genParts)(v)
	first := gp.parts[0].inst
	if err := first.Write(gp.mod.Pack, s); err != nil {
		panic(err)
	}
	h, err := first.Call("hash", uint64(gp.mod.Pack))
	if err != nil {
		panic(err)
	}
	p := gp.parts[wasmgen.Owner(h, len(gp.parts))]
	gp.startHash, gp.startPart = h, p
	if err := p.inst.Write(gp.mod.Pack, s); err != nil {
		panic(err)
	}
	id, err := p.inst.Call("find", h)
	if err != nil {
		panic(err)
	}
	if int32(id) < 0 {
		return false, -1, 0
	}
	return true, int64(int32(id)), 0
}

func (v *partsVisited) Insert(_ uint64, _ []byte, _ uint64, _ int64, _ int) error {
	gp := (*genParts)(v)
	r, err := gp.startPart.inst.Call("insert", gp.mod.StartArgs(gp.startHash)...)
	if err != nil {
		return err
	}
	if r != 0 {
		return &budget.ErrExhausted{Part: "generated search's memory", Need: 1 << 16, Limit: gp.s.opts.MemoryBytes}
	}
	return gp.refresh(gp.startPart)
}

func (v *partsVisited) Len() int64 { return (*genParts)(v).states() }

func (v *partsVisited) Bytes() int64 {
	n := int64(0)
	for _, p := range v.parts {
		n += p.pages.Load() << 16
	}
	return n
}

func (v *partsVisited) Stats() store.VisitedStats {
	n := v.Len()
	if !v.mod.Compact {
		return store.VisitedStats{Kind: store.KindExact, Inserted: n}
	}
	// States of one key have one hash, so one part: the one index's bound.
	return store.VisitedStats{Kind: store.KindCompact, Inserted: n, OmissionBound: keyOmissionBound(n, v.mod.KeyBits)}
}

func (v *partsVisited) Release() {}
