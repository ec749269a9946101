package explore

// This file runs exact breadth-first search in WebAssembly generated for
// the model (core/wasmgen) instead of the compiled closures, when the
// caller gives a runtime (Options.Generated: the browser's, or wazero) and
// the generator covers the model and the options. The generated search
// keeps the states, the queue and the trail in its own linear memory; this
// side admits the start states (through the module's table), follows the
// levels, reports progress, and rebuilds counterexamples from the module's
// trail with the closures, so results are the sequential engine's.
//
// Anything the generated code does not handle exactly ends the attempt
// (the caller then runs the closures): a model or option the generator
// does not cover, a trap (a run-time check failed: the closures report
// the error precisely), or the memory budget (the module keeps everything
// in its linear memory, where the closures would spill their queue and
// trail to storage and complete).

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/store"
	"github.com/locus-mc/locus/core/symmetry"
	"github.com/locus-mc/locus/core/wasmgen"
)

// generatedSlice is how many states the module expands between progress
// checks at first; a search doubles it, up to maxGeneratedSlice, while a
// call takes less than generatedSliceTime. Each call costs the host a few
// round trips to a translated program (a pipe each way): at 4096 states
// a call, mcslock2's 3.2 M states made about 800 calls.
const (
	generatedSlice     = 4096
	maxGeneratedSlice  = 1 << 18
	generatedSliceTime = 20 * time.Millisecond
)

// generatedDeadlock maps the deadlock modes to the generator's.
var generatedDeadlock = map[DeadlockMode]int{
	DeadlockStuttering: wasmgen.DeadlockStuttering,
	DeadlockStuck:      wasmgen.DeadlockStuck,
	DeadlockOff:        wasmgen.DeadlockOff,
}

// generatedMaxCode bounds the generated module's code. With procedures
// inlined at every call, sci's module was 10.2 MB: Chromium's optimizing
// compiler took 6.7 s and 1 GB for it, and the tab crashed. Procedures are
// functions now, and the largest module of the corpus is adash's, 2.1 MB,
// which ran 1.6-2.9x faster than the closures there; modules between that
// and 10 MB were not measured.
var generatedMaxCode = 4 << 20

// generatedKeyBits, if not 0, is the key width of generated compact
// indexes (wasmgen.Options.KeyBits): tests narrow it to make collisions.
var generatedKeyBits = 0

// generatedReadAhead, if not 0, is the states past which generated exact
// searches read records ahead (wasmgen.Options.ReadAheadFrom): tests
// lower it, so that searches of a few states do.
var generatedReadAhead = 0

// generatedThroughLevels: a generated search's run goes on past the end
// of a level (wasmgen.Options.ThroughLevels) unless a bound counts
// levels. Tests that cancel at a level turn it off.
var generatedThroughLevels = true

// generatedOK says why the generated search cannot run with opts, or "".
func generatedOK(m *compile.Model, opts Options) string {
	switch {
	case opts.Locality:
		return "locality"
	}
	return ""
}

// generatedSymmetry returns the symmetry reduction the generated search
// must do under opts, or nil.
func generatedSymmetry(m *compile.Model, opts Options) *symmetry.Plan {
	if symmetryOffForLiveness(m) != "" {
		return nil // (the searcher says why)
	}
	if mode, reduce := reduction(opts.Symmetry); reduce {
		if r := symmetry.New(m, mode); r != nil {
			return r.Plan()
		}
	}
	return nil
}

// generatedSearch runs bfs in generated code; an *errNotGenerated means
// the closures must do the run instead.
func generatedSearch(ctx context.Context, m *compile.Model, opts Options) (*Result, error) {
	mod, err := generatedModule(m, opts)
	if err != nil {
		return nil, err
	}
	inst, err := opts.Generated.Instantiate(mod)
	if err != nil {
		return nil, &errNotGenerated{why: "the generated module did not load: " + err.Error()}
	}
	defer inst.Close()
	s, failed := newSearcher(ctx, m, opts, false)
	if failed != nil {
		return failed, nil
	}
	gs := &genSearch{s: s, inst: inst, mod: mod, info: make([]byte, wasmgen.InfoBytes)}
	// Invariants are checked when a state is expanded, where it is
	// unpacked anyway, unless a bound leaves the last level unexpanded.
	gs.atExpansion = mod.CheckAtExpansion && opts.Bound == 0
	r, err := gs.run()
	if err != nil {
		return nil, err
	}
	r.CodeGen = opts.Generated.Name()
	r.Notes = append(r.Notes, keyBitsNote(mod, opts)...)
	return r, nil
}

// keyBitsNote is the note on a generated search under hash compaction
// that kept more bits than opts asked, if it did.
func keyBitsNote(mod *wasmgen.Module, opts Options) []string {
	if mod.Compact && opts.HashBits < mod.KeyBits {
		return []string{fmt.Sprintf("the generated code kept %d-bit signatures, not %d-bit ones: a slot of its table holds 8 bytes, so fewer bits would save no memory", mod.KeyBits, opts.HashBits)}
	}
	return nil
}

// generatedModule generates the module of m's search under opts, or
// returns an *errNotGenerated saying why it cannot.
func generatedModule(m *compile.Model, opts Options) (*wasmgen.Module, error) {
	if opts.generated != nil {
		return opts.generated, nil
	}
	if why := generatedOK(m, opts); why != "" {
		return nil, &errNotGenerated{why: "generated code does not cover " + why}
	}
	pages := uint32(0)
	if opts.MemoryBytes > 0 {
		pages = uint32(opts.MemoryBytes >> 16)
		if opts.MemoryBytes>>16 > 65536 {
			pages = 65536
		}
	}
	mod, err := wasmgen.Generate(m, wasmgen.Options{Deadlock: generatedDeadlock[opts.Deadlock], MaxPages: pages, MaxCodeBytes: generatedMaxCode,
		Symmetry: generatedSymmetry(m, opts), Compact: opts.HashBits > 0, KeyBits: generatedKeyBits, MaxErrors: opts.MaxErrors, ReadAheadFrom: generatedReadAhead,
		ThroughLevels: generatedThroughLevels && opts.Bound == 0})
	if err != nil {
		return nil, &errNotGenerated{why: "the code generator does not cover " + err.Error()}
	}
	return mod, nil
}

// genSearch drives one generated search.
type genSearch struct {
	s    *searcher
	inst wasmgen.Instance
	mod  *wasmgen.Module
	info []byte
	// levels: the level being expanded and where the next one begins;
	// levelsTaken, the module's logged levels taken (levelsPassed).
	level       int
	levelEnd    int64
	levelsTaken int64
	pages       int64
	// full: the module's memory could not hold a start state.
	full bool
	// startHash is the module's hash of the start state Find last looked
	// up (the module hashes with its own function, not the searcher's).
	startHash uint64
	// reported counts the module's recorded violations reported so far.
	reported int64
	// liveNext is the id of the next state whose liveness marks the
	// module logs (see drainLive).
	liveNext int64
	// startHits are the cover statements' hits of the start states.
	startHits []int64
	// liveBuf holds what drainLive reads.
	liveBuf []byte
	// atExpansion: the module checks the invariants of a state when it
	// expands it (wasmgen.Module.CheckAtExpansion).
	atExpansion bool
	// cut, once set, is the states and the rules fired the search
	// reports, where it would have stopped checking states as found
	// (see firstBad).
	cut *[2]int64
}

// outOfMemory ends a generated search that met the memory budget: the
// closures run the search again, spilling to storage where the budget
// asks, so the verdict and the counts are theirs, never an incomplete
// run that the closures would have completed.
func (gs *genSearch) outOfMemory() error {
	n := int64(0)
	if gs.refresh() == nil {
		n = gs.infoAt(wasmgen.InfoStates)
	}
	limit := "the 4 GiB of a WebAssembly memory"
	if gs.s.opts.MemoryBytes > 0 {
		limit = "the memory budget of " + budget.FormatBytes(gs.s.opts.MemoryBytes)
	}
	spill := ""
	if gs.s.opts.FS != nil {
		spill = ", which spill to storage"
	}
	keeps := "every state"
	if gs.mod.Compact {
		keeps = "every state's 64-bit hash"
	}
	filled := fmt.Sprintf("the generated code reached %s after %d states (it keeps %s, the queue and the trail in memory)", limit, n, keeps)
	return &errNotGenerated{filled: filled, note: filled + ": the search ran again on the compiled closures" + spill}
}

// infoAt reads one counter of the last info call.
func (gs *genSearch) infoAt(i int) int64 {
	return int64(binary.LittleEndian.Uint64(gs.info[8*i:]))
}

func (gs *genSearch) refresh() error {
	if _, err := gs.inst.Call("info"); err != nil {
		return err
	}
	if err := gs.inst.Read(gs.mod.Stats, gs.info); err != nil {
		return err
	}
	if gs.cut != nil {
		binary.LittleEndian.PutUint64(gs.info[8*wasmgen.InfoStates:], uint64(gs.cut[0]))
		binary.LittleEndian.PutUint64(gs.info[8*wasmgen.InfoRules:], uint64(gs.cut[1]))
	}
	gs.pages = gs.infoAt(wasmgen.InfoPages)
	gs.s.res.RulesFired = gs.infoAt(wasmgen.InfoRules)
	return nil
}

func (gs *genSearch) run() (*Result, error) {
	s := gs.s
	defer s.front.Close()
	defer s.trail.Close()
	if r, err := gs.inst.Call("init"); err != nil || r != 0 {
		return nil, gs.outOfMemory()
	}
	s.visited = (*genVisited)(gs)
	s.countStates = func() int64 { return gs.infoAt(wasmgen.InfoStates) }
	s.extraProgress = func(p *job.Progress) {
		p.MemoryBytes += gs.pages << 16
		p.QueueMemory += gs.infoAt(wasmgen.InfoStates) - gs.infoAt(wasmgen.InfoHead)
	}
	s.startStates()
	if gs.full {
		return nil, gs.outOfMemory()
	}
	if s.stop {
		return gs.finish(), nil
	}
	if _, err := gs.inst.Call("begin"); err != nil {
		return nil, &errNotGenerated{why: "the generated search failed: " + err.Error()}
	}
	if gs.atExpansion {
		if _, err := gs.inst.Call("checkAtExpansion"); err != nil {
			return nil, &errNotGenerated{why: "the generated search failed: " + err.Error()}
		}
	}
	gs.levelEnd = s.trail.Len()
	gs.liveNext = gs.levelEnd
	gs.startHits = slices.Clone(s.mc.CoverHits)
	slice, most := uint64(generatedSlice), uint64(maxGeneratedSlice)
	if gs.mod.LiveLog != 0 {
		// The liveness log must hold every transition of a call.
		most = min(slice, uint64(gs.mod.LiveCap/max(gs.mod.Rules, 1)))
		slice = most
	}
	for !s.stop {
		began := time.Now()
		st, err := gs.inst.Call("run", slice)
		if slice < most && time.Since(began) < generatedSliceTime {
			slice = min(2*slice, most)
		}
		if err != nil {
			limit := make([]byte, 8)
			if gs.inst.Read(gs.mod.Stats+8*wasmgen.InfoLimit, limit) == nil && binary.LittleEndian.Uint64(limit) != 0 {
				return nil, &errNotGenerated{why: "the generated code stopped at its bounds on recursion (nested calls, steps, frames), which are below the closures'"}
			}
			return nil, &errNotGenerated{why: "the generated code stopped at a run-time check"}
		}
		if err := gs.refresh(); err != nil {
			return nil, &errNotGenerated{why: "the generated search failed: " + err.Error()}
		}
		gs.levelsPassed()
		if err := gs.recorded(); err != nil {
			return nil, err
		}
		if err := gs.drainLive(); err != nil {
			return nil, err
		}
		if s.stop {
			return gs.finish(), nil // no memory for the liveness graph
		}
		n := gs.infoAt(wasmgen.InfoStates)
		switch st {
		case wasmgen.StatusPause:
			s.checkpoint()
		case wasmgen.StatusDone:
			return gs.finish(), nil
		case wasmgen.StatusLevel:
			gs.addLevel(n)
			gs.level++
			gs.levelEnd = n
			if s.opts.Bound > 0 && gs.level >= s.opts.Bound {
				s.res.Reason = fmt.Sprintf("bound %d reached: states at depth %d were not expanded", s.opts.Bound, s.opts.Bound)
				return gs.finish(), nil
			}
			s.checkpoint()
		case wasmgen.StatusExpandedBad:
			gs.addLevel(n)
			if err := gs.firstBad(gs.infoAt(wasmgen.InfoFailed)); err != nil {
				return nil, err
			}
			return gs.finish(), nil
		case wasmgen.StatusInvariant, wasmgen.StatusDeadlock:
			gs.addLevel(n)
			if st == wasmgen.StatusDeadlock && gs.atExpansion {
				// The closures meet this deadlock too unless a state
				// found before it fails an invariant: those not yet
				// expanded are not checked yet.
				bad, err := gs.checkFrom(gs.infoAt(wasmgen.InfoHead))
				if err != nil {
					return nil, err
				}
				if bad >= 0 {
					if err := gs.firstBad(bad); err != nil {
						return nil, err
					}
					return gs.finish(), nil
				}
			}
			if err := gs.violation(st); err != nil {
				return nil, err
			}
			return gs.finish(), nil
		case wasmgen.StatusMemory:
			return nil, gs.outOfMemory()
		default:
			return nil, &errNotGenerated{why: fmt.Sprintf("the generated search returned status %d", st)}
		}
	}
	if gs.atExpansion {
		// Cancelled: the states found but not expanded are checked, so
		// that every state counted has been. The first that fails one
		// was found before the cancellation was seen: the closures,
		// checking it then, would have stopped there.
		if err := gs.refresh(); err != nil {
			return nil, &errNotGenerated{why: "the generated search failed: " + err.Error()}
		}
		bad, err := gs.checkFrom(gs.infoAt(wasmgen.InfoHead))
		if err != nil {
			return nil, err
		}
		if bad >= 0 {
			gs.addLevel(gs.infoAt(wasmgen.InfoStates))
			s.res.Verdict, s.res.Reason = Pass, ""
			if err := gs.firstBad(bad); err != nil {
				return nil, err
			}
		}
	}
	return gs.finish(), nil
}

// checkFrom returns the first state from id on that fails an invariant
// (the module then has it in its working slots), or -1.
func (gs *genSearch) checkFrom(id int64) (int64, error) {
	bad, err := gs.inst.Call("checkFrom", uint64(id))
	if err != nil {
		return 0, &errNotGenerated{why: "the generated code stopped at a run-time check"}
	}
	return int64(int32(bad)), nil
}

// firstBad reports state id, the first in id order to fail an invariant
// checked at expansion (in the module's working slots), as a search
// checking each state as it finds it reports it: when it found it, not
// keeping it, so with the states and rules fired counted then. The states
// before id are those; the rules fired, the mark's of id's parent and
// those of each state from there (wasmgen.Module.CheckAtExpansion).
func (gs *genSearch) firstBad(id int64) error {
	s := gs.s
	bad, err := gs.workSlots()
	if err != nil {
		return err
	}
	v, _ := admissibility(s.mc, s.m, bad)
	if v == nil || v.Kind != "invariant" {
		return &errNotGenerated{why: "the generated invariant check disagrees with the closures"}
	}
	parent, rule, err := gs.parentOf(id)
	if err != nil {
		return &errNotGenerated{why: "the generated search failed: " + err.Error()}
	}
	rules, err := gs.rulesBefore(parent, rule)
	if err != nil {
		return &errNotGenerated{why: "the generated search failed: " + err.Error()}
	}
	// The levels: complete up to id's, which has the states before id.
	sizes := s.res.LevelSizes
	start, d := int64(0), 0
	for ; d < len(sizes) && id >= start+sizes[d]; d++ {
		start += sizes[d]
	}
	sizes = sizes[:d]
	if id > start {
		sizes = append(sizes, id-start)
	}
	s.res.LevelSizes, s.res.Depth = sizes, len(sizes)-1
	gs.cut = &[2]int64{id, rules}
	if err := gs.refresh(); err != nil {
		return &errNotGenerated{why: "the generated search failed: " + err.Error()}
	}
	s.pathRules = gs.pathRules
	s.violation(v, parent, int32(rule), bad)
	return nil
}

// rulesBefore returns how many rules had fired when rule of state parent
// fired: the count at parent's mark, and those each state from the mark
// on fired, up to that rule (the closures' Fire, as rules fire in
// generated code: priorities are not generated with CheckAtExpansion).
func (gs *genSearch) rulesBefore(parent int64, rule int) (int64, error) {
	first := parent &^ (1<<wasmgen.MarkShift - 1)
	at, err := gs.inst.Call("markRules", uint64(first))
	if err != nil {
		return 0, err
	}
	var b [8]byte
	if err := gs.inst.Read(uint32(at), b[:]); err != nil {
		return 0, err
	}
	n := int64(binary.LittleEndian.Uint64(b[:]))
	for q := first; q <= parent; q++ {
		st, err := gs.stateOf(q)
		if err != nil {
			return 0, err
		}
		upTo := len(gs.s.m.Rules)
		if q == parent {
			upTo = rule + 1
		}
		for r := range upTo {
			fired, ferr := gs.s.mc.Fire(st, r)
			if ferr != nil {
				return 0, fmt.Errorf("rule %d of state %d failed where the generated code did not: %s", r, q, ferr.Msg)
			}
			if fired {
				n++
			}
		}
	}
	return n, nil
}

// stateOf returns kept state id's slots (canonical, under symmetry): its
// record, or under hash compaction, where an expanded state's is gone,
// its path replayed.
func (gs *genSearch) stateOf(id int64) ([]int64, error) {
	s := gs.s
	st := make([]int64, s.m.NumSlots)
	if !gs.mod.Compact {
		rec := make([]byte, s.m.StateBytes)
		if err := gs.readRecords(id, rec); err != nil {
			return nil, err
		}
		s.m.NewUnpacker().Unpack(rec, st)
		return st, nil
	}
	rules, err := gs.pathRules(id)
	if err != nil {
		return nil, err
	}
	mc := s.mc
	if err, _ := mc.RunStart(int(rules[0])); err != nil {
		return nil, fmt.Errorf("start state %d failed: %s", rules[0], err.Msg)
	}
	copy(st, mc.State())
	if s.canon != nil {
		s.canon(st)
	}
	for _, r := range rules[1:] {
		if fired, err := mc.Fire(st, int(r)); !fired || err != nil {
			return nil, fmt.Errorf("rule %d does not lead to state %d", r, id)
		}
		copy(st, mc.State())
		if s.canon != nil {
			s.canon(st)
		}
	}
	return st, nil
}

// workSlots reads the module's working slots.
func (gs *genSearch) workSlots() ([]int64, error) {
	slots := make([]int64, gs.s.m.NumSlots)
	buf := make([]byte, 8*len(slots))
	if err := gs.inst.Read(gs.mod.Work, buf); err != nil {
		return nil, &errNotGenerated{why: "the violating state could not be read: " + err.Error()}
	}
	for i := range slots {
		slots[i] = int64(binary.LittleEndian.Uint64(buf[8*i:]))
	}
	return slots, nil
}

// drainLive moves the module's liveness log (wasmgen.Module.LiveLog) to
// the searcher's graph, and empties it.
func (gs *genSearch) drainLive() error {
	if gs.mod.LiveLog == 0 {
		return nil
	}
	s := gs.s
	edges, states := gs.infoAt(wasmgen.InfoLiveEdges), gs.infoAt(wasmgen.InfoLiveStates)
	if edges > int64(gs.mod.LiveCap) || states > int64(gs.mod.LiveCap) {
		return &errNotGenerated{why: fmt.Sprintf("the generated search's liveness log overflowed (%d transitions, %d states, room for %d)", edges, states, gs.mod.LiveCap)}
	}
	if n := int(8 * max(edges, states)); cap(gs.liveBuf) < n {
		gs.liveBuf = make([]byte, n)
	}
	buf := gs.liveBuf[:cap(gs.liveBuf)]
	if err := gs.inst.Read(gs.mod.LiveLog, buf[:8*edges]); err != nil {
		return &errNotGenerated{why: "the generated search's liveness log could not be read: " + err.Error()}
	}
	for e := int64(0); e < edges; e++ {
		from, to := binary.LittleEndian.Uint32(buf[8*e:]), binary.LittleEndian.Uint32(buf[8*e+4:])
		if s.props.logEdge(int64(from), int64(to)) {
			return nil // the searcher stops, saying why
		}
	}
	if err := gs.inst.Read(gs.mod.LiveLog+uint32(8*gs.mod.LiveCap), buf[:8*states]); err != nil {
		return &errNotGenerated{why: "the generated search's liveness log could not be read: " + err.Error()}
	}
	for k := int64(0); k < states; k++ {
		sat := binary.LittleEndian.Uint64(buf[8*k:])
		for i := range s.m.Liveness {
			if err := s.props.live.mark(i, gs.liveNext, sat>>uint(i)&1 != 0); err != nil {
				s.incomplete(err)
				return nil
			}
		}
		gs.liveNext++
	}
	if err := gs.inst.Write(gs.mod.Stats+8*wasmgen.InfoLiveEdges, make([]byte, 16)); err != nil {
		return &errNotGenerated{why: "the generated search's liveness log could not be emptied: " + err.Error()}
	}
	return nil
}

// levelsPassed takes the levels the module's run went on past in its
// last call (wasmgen.Options.ThroughLevels) from the log refresh read,
// as StatusLevel's: each is under LevelLog entries old.
func (gs *genSearch) levelsPassed() {
	for total := gs.infoAt(wasmgen.InfoLevels); gs.levelsTaken < total; gs.levelsTaken++ {
		n := gs.infoAt(wasmgen.InfoLevelLog + int(gs.levelsTaken%wasmgen.LevelLog))
		gs.addLevel(n)
		gs.level++
		gs.levelEnd = n
	}
}

// addLevel counts the states found so far beyond the current level.
func (gs *genSearch) addLevel(n int64) {
	s := gs.s
	if k := n - gs.levelEnd; k > 0 {
		d := gs.level + 1
		for len(s.res.LevelSizes) <= d {
			s.res.LevelSizes = append(s.res.LevelSizes, 0)
		}
		s.res.LevelSizes[d] = k
		if d > s.res.Depth {
			s.res.Depth = d
		}
	}
}

// violation reports the module's invariant failure or deadlock, with a
// counterexample rebuilt from its records (see pathRules).
func (gs *genSearch) violation(st uint64) error {
	head := gs.infoAt(wasmgen.InfoHead)
	if st == wasmgen.StatusDeadlock {
		gs.deadlock(head)
		return nil
	}
	bad, err := gs.workSlots()
	if err != nil {
		return err
	}
	return gs.invariant(bad, head, int32(gs.infoAt(wasmgen.InfoRule)), gs.infoAt(wasmgen.InfoInvariant))
}

func (gs *genSearch) deadlock(id int64) {
	gs.s.pathRules = gs.pathRules
	gs.s.violation(&Violation{Kind: "deadlock", Pos: murphi.NoPos, Msg: "deadlock: no rule leads to a different state"}, id, -1, nil)
}

// invariant reports the state bad, reached from state parent by rule,
// which fails invariant inv, once the closures agree that it does.
func (gs *genSearch) invariant(bad []int64, parent int64, rule int32, inv int64) error {
	s := gs.s
	v, _ := admissibility(s.mc, s.m, bad)
	if v == nil || v.Kind != "invariant" || inv < 0 || inv >= int64(len(s.m.Invariants)) || v.Name != s.m.Invariants[inv].Name {
		return &errNotGenerated{why: "the generated invariant check disagrees with the closures"}
	}
	s.pathRules = gs.pathRules
	s.violation(v, parent, rule, bad)
	return nil
}

// recorded reports the violations the module recorded and went on past
// (wasmgen.Options.MaxErrors), in the order it met them.
func (gs *genSearch) recorded() error {
	if gs.mod.ViolationBytes == 0 {
		return nil
	}
	n := gs.infoAt(wasmgen.InfoViolations)
	rec := make([]byte, gs.mod.ViolationBytes)
	un := gs.s.m.NewUnpacker()
	for ; gs.reported < n; gs.reported++ {
		if err := gs.inst.Read(gs.mod.Violations+uint32(gs.reported)*uint32(len(rec)), rec); err != nil {
			return &errNotGenerated{why: "the generated search's violations could not be read: " + err.Error()}
		}
		kind, inv, rule := binary.LittleEndian.Uint32(rec), binary.LittleEndian.Uint32(rec[4:]), binary.LittleEndian.Uint32(rec[8:])
		parent := int64(binary.LittleEndian.Uint32(rec[12:]))
		if kind == wasmgen.ViolationDeadlock {
			gs.deadlock(parent)
			continue
		}
		bad := make([]int64, gs.s.m.NumSlots)
		un.Unpack(rec[16:16+gs.s.m.StateBytes], bad)
		if err := gs.invariant(bad, parent, int32(rule), int64(inv)); err != nil {
			return err
		}
	}
	return nil
}

// pathRules returns the rules of the path to state id, as the trail
// would give them: each state's parent and rule (see parentOf), and the
// start state's index in the trail.
func (gs *genSearch) pathRules(id int64) ([]int32, error) {
	var rules []int32 // from id back
	for id >= gs.s.trail.Len() {
		parent, r, err := gs.parentOf(id)
		if err != nil {
			return nil, err
		}
		rules = append(rules, int32(r))
		id = parent
	}
	_, start, err := gs.s.trail.Get(id)
	if err != nil {
		return nil, err
	}
	rules = append(rules, int32(start))
	slices.Reverse(rules)
	return rules, nil
}

// parentOf returns the parent of kept state id (not a start state) and
// the rule that led from it to id. The module's records keep no parent:
// its marks place a state's parent among 2^wasmgen.MarkShift states, and
// the parent is the first of them with a rule that leads to the state (the
// canonical form of what it leads to, under symmetry), by that state's
// first such rule: breadth-first, a state expanded before it with such a
// rule would have found the state first, and rules fire in order. Under
// hash compaction, where the states are not kept, the module's records
// hold each one's rule and its parent's place among the states of its
// mark.
func (gs *genSearch) parentOf(id int64) (int64, int, error) {
	s := gs.s
	first, err := gs.markedParents(id)
	if err != nil {
		return 0, 0, err
	}
	if gs.mod.Compact {
		rec := make([]byte, 4)
		ruleBits := 8*gs.mod.RecordBytes - wasmgen.MarkShift
		if err := gs.readRecords(id, rec[:gs.mod.RecordBytes]); err != nil {
			return 0, 0, err
		}
		v := binary.LittleEndian.Uint32(rec)
		r := v & (1<<ruleBits - 1)
		if int(r) >= len(s.m.Rules) {
			return 0, 0, fmt.Errorf("state %d's record names rule %d of %d", id, r, len(s.m.Rules))
		}
		parent := first + int64(v>>ruleBits)
		if parent >= id {
			return 0, 0, fmt.Errorf("state %d's record names state %d as its parent", id, parent)
		}
		return parent, int(r), nil
	}
	un := s.m.NewUnpacker()
	sb := s.m.StateBytes
	to, from := make([]int64, s.m.NumSlots), make([]int64, s.m.NumSlots)
	n := min(id-first, 1<<wasmgen.MarkShift)
	recs := make([]byte, n*int64(sb))
	if err := gs.readRecords(id, recs[:sb]); err != nil {
		return 0, 0, err
	}
	un.Unpack(recs[:sb], to)
	if err := gs.readRecords(first, recs); err != nil {
		return 0, 0, err
	}
	for k := range n {
		un.Unpack(recs[k*int64(sb):(k+1)*int64(sb)], from)
		if r := gs.firstRule(from, to); r >= 0 {
			return first + k, r, nil
		}
	}
	return 0, 0, fmt.Errorf("no state of %d to %d leads to state %d (%s)", first, first+n-1, id, s.m.FormatState(to))
}

// markedParents returns the first of the 2^wasmgen.MarkShift states among
// which kept state id's parent is: the last mark at most id is the
// parent's (marks grow with the states expanded; a state not yet expanded
// has none, which reads as NoParent, above every id).
func (gs *genSearch) markedParents(id int64) (int64, error) {
	mark := func(k int64) (int64, error) {
		at, err := gs.inst.Call("mark", uint64(k<<wasmgen.MarkShift))
		if err != nil {
			return 0, err
		}
		var b [4]byte
		if err := gs.inst.Read(uint32(at), b[:]); err != nil {
			return 0, err
		}
		return int64(binary.LittleEndian.Uint32(b[:])), nil
	}
	// The parent is below id, and mark 0 (the start states' number) is
	// at most id: the last mark at most id is in [0, hi].
	lo, hi := int64(0), (id-1)>>wasmgen.MarkShift
	for lo < hi {
		mid := (lo + hi + 1) / 2
		m, err := mark(mid)
		if err != nil {
			return 0, err
		}
		if m <= id {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo << wasmgen.MarkShift, nil
}

// readRecords reads into buf the records from state id on, as many as
// buf holds; they must lie in one chunk of the module's (2^MarkShift
// records from a multiple of it do).
func (gs *genSearch) readRecords(id int64, buf []byte) error {
	at, err := gs.inst.Call("record", uint64(id))
	if err != nil {
		return err
	}
	return gs.inst.Read(uint32(at), buf)
}

// firstRule returns the first rule instance that leads from state from to
// state to (to the canonical form to, under symmetry), or -1.
func (gs *genSearch) firstRule(from, to []int64) int {
	s := gs.s
	mc := s.mc
	for r := range s.m.Rules {
		fired, err := mc.Fire(from, r)
		if !fired || err != nil {
			continue
		}
		next := mc.State()
		if s.canon != nil {
			next = s.canonSlots
			copy(next, mc.State())
			s.canon(next)
		}
		if slices.Equal(next, to) {
			return r
		}
	}
	return -1
}

func (gs *genSearch) finish() *Result {
	if err := gs.refresh(); err == nil {
		gs.s.res.RulesFired = gs.infoAt(wasmgen.InfoRules)
	}
	gs.s.pathRules = gs.pathRules // a liveness failure's trace
	// The module counted the cover properties of the states it kept;
	// the searcher, those of the start states. The cover statements'
	// hits: the start states' (the searcher ran them), then the
	// module's. What the searcher ran after the start states (a
	// violation confirmed, a trace rebuilt) is no part of the search.
	hits := gs.s.mc.CoverHits
	if gs.startHits == nil {
		hits = nil
	} else {
		copy(hits, gs.startHits)
	}
	if err := addCounts(gs.inst, gs.mod, gs.s.props.covers, hits); err != nil {
		gs.s.incomplete(err)
	}
	r := gs.s.finish()
	r.PeakBytes += gs.pages << 16
	r.VisitedBytes = gs.pages << 16
	return r
}

// addCounts adds a module's counters to covers, its cover properties'
// (how many of the states it kept satisfy each), and to hits, its cover
// statements' (counted and pending: see wasmgen's coverStmtsFlow).
func addCounts(inst wasmgen.Instance, mod *wasmgen.Module, covers, hits []int64) error {
	read := func(at uint32, n int) ([]int64, error) {
		buf := make([]byte, 8*n)
		if err := inst.Read(at, buf); err != nil {
			return nil, fmt.Errorf("the cover counts could not be read: %w", err)
		}
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(binary.LittleEndian.Uint64(buf[8*i:]))
		}
		return v, nil
	}
	if len(covers) > 0 {
		v, err := read(mod.Covers, len(covers))
		if err != nil {
			return err
		}
		for i := range covers {
			covers[i] += v[i]
		}
	}
	if len(hits) > 0 {
		v, err := read(mod.CoverStmts, 2*len(hits))
		if err != nil {
			return err
		}
		for i := range hits {
			hits[i] += v[i] + v[len(hits)+i]
		}
	}
	return nil
}

// genVisited is the module's table seen as a visited set, for the start
// states (and the counts at the end).
type genVisited genSearch

func (v *genVisited) Find(s []byte, _ uint64) (bool, int64, uint64) {
	if err := v.inst.Write(v.mod.Pack, s); err != nil {
		panic(err)
	}
	h, err := v.inst.Call("hash", uint64(v.mod.Pack))
	if err != nil {
		panic(err)
	}
	v.startHash = h
	id, err := v.inst.Call("find", h)
	if err != nil {
		panic(err)
	}
	if int32(id) < 0 {
		return false, -1, 0
	}
	return true, int64(int32(id)), 0 // 0 under hash compaction: ids are not kept
}

func (v *genVisited) Insert(_ uint64, s []byte, _ uint64, id int64, _ int) error {
	// Find just wrote s to the pack buffer, hashed it and set the slot.
	r, err := v.inst.Call("insert", v.mod.StartArgs(v.startHash)...)
	if err != nil {
		return err
	}
	if r != 0 {
		v.full = true
		return &budget.ErrExhausted{Part: "generated search's memory", Need: 1 << 16, Limit: v.s.opts.MemoryBytes}
	}
	return nil
}

func (v *genVisited) Len() int64 {
	gs := (*genSearch)(v)
	gs.refresh()
	return gs.infoAt(wasmgen.InfoStates)
}

func (v *genVisited) Bytes() int64 { return v.pages << 16 }

func (v *genVisited) Stats() store.VisitedStats {
	n := v.Len()
	if !v.mod.Compact {
		return store.VisitedStats{Kind: store.KindExact, Inserted: n}
	}
	return store.VisitedStats{Kind: store.KindCompact, Inserted: n, OmissionBound: keyOmissionBound(n, v.mod.KeyBits)}
}

// keyOmissionBound bounds the probability that a compact index of k-bit
// keys omitted a state: only when two of the n states kept (and the one
// omitted) have the same key, so by the union bound over pairs, each equal
// with probability 2^-(k-1) (the hash's top k bits, where 0 stands for 1).
// Where placement follows the signature, as here, the Stern-Dill bound
// over the slots probed does not apply: equal keys always meet.
func keyOmissionBound(n int64, k int) float64 {
	pairs := float64(n) * float64(n+1) / 2
	return math.Min(1, pairs/math.Exp2(float64(k-1)))
}

func (v *genVisited) Release() {}
