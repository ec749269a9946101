package wasmgen

// This file generates the search itself: states packed as core/compile
// packs them, hashed as core/state hashes them, an index of ids (32 more
// bits of the hash as a tag above the id, as store.Exact) in blocks that
// split as they fill (see blockSlots), the states in chunks in id order,
// which is BFS order, so the states not yet expanded are the queue, and
// per state its parent and rule (the trail). Under hash compaction
// (Options.Compact) the index keeps hashes, no id, the records are the
// trail alone, and the queue is chunks of packed states, each reused once
// its states are expanded.

import (
	"fmt"
	"math"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/symmetry"
)

// Status of run.
const (
	StatusDone      = 0 // every state expanded
	StatusLevel     = 1 // a BFS level was expanded; the next one begins
	StatusPause     = 2 // the expansion budget was used up
	StatusInvariant = 3 // a new state failed an invariant (see Info)
	StatusDeadlock  = 4 // the state being expanded is deadlocked
	StatusMemory    = 5 // memory could not grow
)

// Deadlock modes, as explore's.
const (
	DeadlockStuttering = 0
	DeadlockStuck      = 1
	DeadlockOff        = 2
)

const (
	chunkBits = 14 // states per chunk: 2^chunkBits
	maxChunks = 1 << 16
	idBits    = 32
	idMask    = 1<<idBits - 1
	// The index of states is split into blocks of blockSlots slots (linear
	// probing within a block), and a directory of the blocks by the hash's
	// top bits, as extendible hashing (Fagin et al. 1979) has it: a block
	// splits in two when a state would sit splitProbes slots or more past
	// its home, so the index grows a block at a time, never copying
	// itself, and the memory a search needs grows with its states, with
	// no peak when a table doubles. Splitting on the probe length rather
	// than a count splits blocks at different loads, so not all at once
	// (blocks of one depth fill together, and would split together: the
	// index's load would swing), and needs no count, which was a cache
	// miss more per new state. cache3's index holds 12.6 bytes a state
	// (0.63 full); a threshold of 32 gave 50.6 bytes a state in all, 64
	// 45.6, 128 43.3 but slower probes.
	// Blocks are chosen by hash bits 63 down to 41, a slot in a block by
	// bits 32-40.
	blockSlots    = 512
	blockHead     = 8 // unused (4 bytes), then the block's depth (uint32)
	blockBytes    = blockHead + 8*blockSlots
	splitProbes   = 64
	maxBlockDepth = 23
	statsSlots    = 16
	// run expands up to maxBatch states together, as many as have room
	// for every rule's successor in batchBytes (see run).
	maxBatch   = 16
	batchBytes = 64 << 10
	// NoParent is the parent recorded for a start state.
	NoParent = 0xffffffff
)

// Stats indexes (i64 each) of the area info writes.
const (
	InfoStates = iota
	InfoHead
	InfoLevelEnd
	InfoRules
	InfoRule      // the rule of a violation
	InfoInvariant // the invariant of a violation (index in Model.Invariants)
	InfoHeap
	InfoPages
	// InfoLimit is 1 once the search trapped at a bound of its own (on
	// recursion, see recursion.go), not at a run-time check of the
	// model's; written at the trap, not by info.
	InfoLimit
	// InfoViolations counts the violations recorded (Options.MaxErrors).
	InfoViolations
	// InfoLiveEdges and InfoLiveStates count the entries of the liveness
	// log (see Module.LiveLog) since the host last emptied it (setting
	// both to 0); the module writes them as it logs.
	InfoLiveEdges
	InfoLiveStates
)

// Violation records (Options.MaxErrors), ViolationBytes each: the kind
// (ViolationInvariant or ViolationDeadlock), the invariant, the rule, the
// parent (uint32 each), then for an invariant the violating state packed.
const (
	ViolationInvariant = 0
	ViolationDeadlock  = 1
	// maxRecorded bounds Options.MaxErrors: the records have room made
	// for them at the start.
	maxRecorded = 1000
)

// layout is where things are in linear memory.
type layout struct {
	stats, cur, work, pack, covers, dir, frame uint32
	// coverStmts is the counters of the model's cover statements (i64
	// each): the hits counted, then the hits pending (see coverStmtsFlow).
	coverStmts     uint32
	sb, sbPad, rec int
	// Under hash compaction (see Options.Compact) records are the trail
	// (a state's parent, then its rule in ruleBytes), and the states wait
	// for expansion in queue chunks, found through qdir.
	qdir      uint32
	ruleBytes int
	// symA is symmetry reduction's area (see symArea), if the search
	// reduces.
	symA symArea
}

// Module is a generated module and what its host needs to drive it.
type Module struct {
	Code []byte
	// Exports are the exported functions' signatures, by name.
	Exports map[string]Signature
	// Addresses: the info area (InfoStates...), the current state's and
	// the working state's slots (8 bytes each), the packed state buffer.
	Stats, Cur, Work, Pack uint32
	// Covers is where the counters (i64) of the model's cover properties
	// are: how many of the states the module kept satisfy each.
	Covers uint32
	// CoverStmts, in a model with cover statements, is where their
	// counters are (i64 each, in Model.CoverStmts' order), twice: the sum
	// of the two is how many times each held in the search, up to where
	// it stopped, as the closures count them.
	CoverStmts uint32
	// Sym, in a module that reduces by symmetry, is the address of the
	// slots its exported canonAny() canonicalises in place (8 bytes
	// each), once symBase() has read the current state (at Cur).
	Sym        uint32
	StateBytes int
	// RecordBytes is a stored state's record: the packed state (no
	// padding), then its parent's id (uint32). Under hash compaction a
	// record is the state's parent's id (uint32), then the rule that led
	// to it in RuleBytes bytes (little-endian): the states themselves are
	// not kept once expanded.
	RecordBytes, RuleBytes int
	// Violations is where the records of the violations before the last
	// are (Options.MaxErrors above 1), ViolationBytes each.
	Violations     uint32
	ViolationBytes int
	// Compact: the module was generated with Options.Compact; KeyBits is
	// how many bits of each state's hash its index keeps (64 but in
	// tests), so two states are taken for one when those bits agree.
	Compact bool
	KeyBits int
	// Rules and Invariants are the instances generated, in the closures'
	// order.
	Rules, Invariants int
	// LiveLog, in a model with liveness properties, is where the search
	// logs the state graph for the host (explore's liveness check): first
	// LiveCap transitions (parent id, then successor id, uint32 each) for
	// every successor kept or met again, then per new state kept, in id
	// order, the liveness properties it satisfies (an i64, bit k for
	// property k), LiveCap of them. The host empties it after every call
	// of run, whose budget must be at most LiveCap / Rules states.
	LiveLog uint32
	LiveCap int
	// Parts: the module can run as one part of a search partitioned by
	// hash (see parts.go); OutboxStride is an outbox entry's size,
	// OutboxBytes the outbox's.
	Parts                     bool
	OutboxStride, OutboxBytes int
}

// Options configure generation.
type Options struct {
	Deadlock int
	// MaxPages bounds linear memory (64 KiB pages; 0 = 65536, 4 GiB).
	MaxPages uint32
	// MaxCodeBytes, if not 0, refuses a model whose functions' code
	// would be larger: an optimizing compiler can take seconds and
	// gigabytes for a module of megabytes.
	MaxCodeBytes int
	// Symmetry, if not nil, reduces every successor to its orbit's
	// representative, the one the plan's Reducer gives it.
	Symmetry *symmetry.Plan
	// Compact is hash compaction: the index keeps a state's 64-bit hash
	// (an index slot holds 8 bytes whatever the signature size asked;
	// fewer bits would not save memory) and no id, a state is taken for
	// one already met when its hash is, each state's parent and rule are
	// kept (the trail), and its packed form only until it is expanded:
	// queue chunks are reused once every state in them is.
	Compact bool
	// KeyBits, if not 0, keeps only the hash's top KeyBits bits (32 to
	// 64) in a compact index: for tests, which need states that collide.
	KeyBits int
	// MaxErrors, above 1, lets the search go on past violations, as the
	// closures' does: each but the last is recorded (see Violations) and
	// the search stops at the last, as at the first when it is 1.
	MaxErrors int
}

// Generate compiles m to a module, or returns an *Unsupported error.
func Generate(m *compile.Model, o Options) (mod *Module, err error) {
	g := &gen{m: m, ck: m.Checked, info: m.Checked.Info, env: map[*murphi.Object]binding{}, mod: newModule(),
		procs: map[procKey]*procFn{}, generating: map[procKey]bool{}, coverIndex: map[murphi.Pos]int{}}
	for i, c := range m.CoverStmts {
		g.coverIndex[c.Pos] = i
	}
	defer func() {
		if x := recover(); x != nil {
			u, ok := x.(*Unsupported)
			if !ok {
				panic(x)
			}
			mod, err = nil, u
		}
	}()
	g.checkModel()
	for i, obj := range g.ck.Globals {
		g.env[obj] = binding{kind: bState, slot: m.Vars[i].Slot}
	}
	rules, invs, assumes, covers, lives := g.expand()
	if len(rules) != len(m.Rules) || len(invs) != len(m.Invariants) || len(assumes) != len(m.Assumes) || len(covers) != len(m.Covers) || len(lives) != len(m.Liveness) {
		g.fail(murphi.NoPos, "rule instances that differ from the closures'")
	}
	for i, r := range rules {
		if r.decl.Pos() != m.Rules[i].Pos {
			g.fail(r.decl.Pos(), "rule instances that differ from the closures'")
		}
	}
	for i, p := range invs {
		if p.decl.Pos() != m.Invariants[i].Pos {
			g.fail(p.decl.Pos(), "invariants that differ from the closures'")
		}
	}
	for i, p := range covers {
		if p.decl.Pos() != m.Covers[i].Pos {
			g.fail(p.decl.Pos(), "cover properties that differ from the closures'")
		}
	}
	for i, p := range lives {
		if p.decl.Pos() != m.Liveness[i].Pos {
			g.fail(p.decl.Pos(), "liveness properties that differ from the closures'")
		}
	}
	if len(lives) > 0 && o.Compact {
		// The graph needs the id of a state met again, which a compact
		// index does not keep (nor does the closures').
		g.fail(murphi.NoPos, "liveness properties under hash compaction")
	}
	if o.KeyBits == 0 {
		o.KeyBits = 64
	}
	if o.MaxErrors > maxRecorded {
		return nil, &Unsupported{What: fmt.Sprintf("more than %d errors", maxRecorded)}
	}
	if o.Compact && (o.KeyBits < 32 || o.KeyBits > 64) {
		return nil, &Unsupported{What: fmt.Sprintf("an index of %d-bit keys (32 to 64)", o.KeyBits)}
	}
	g.lay = newLayout(m, o.Symmetry, o.Compact)
	if g.findRecursion() {
		g.newRecursion()
	}
	b := &builder{g: g, o: o}
	b.parts = b.partsOK()
	b.globals()
	b.runtime()
	if o.Symmetry != nil {
		b.symmetryFuncs(o.Symmetry)
	}
	var ruleFns, invFns, assumeFns, coverFns, liveFns []*fn
	// limit counts the code of the functions made since its last call
	// (a rule's or property's, and the procedures' it first called: all
	// complete by then) and refuses the model once the bound is passed.
	code, counted := 0, 0
	limit := func(f *fn) *fn {
		for ; counted < len(g.mod.funcs); counted++ {
			code += len(g.mod.funcs[counted].code)
		}
		if o.MaxCodeBytes > 0 && code > o.MaxCodeBytes {
			g.fail(murphi.NoPos, "a module of more than %d bytes of code", o.MaxCodeBytes)
		}
		return f
	}
	for _, r := range rules {
		if m.HasPriorities {
			b.guards = append(b.guards, limit(g.ruleFunc(r, guardOnly)))
			ruleFns = append(ruleFns, limit(g.ruleFunc(r, bodyOnly)))
			continue
		}
		ruleFns = append(ruleFns, limit(g.ruleFunc(r, wholeRule)))
	}
	for _, p := range invs {
		invFns = append(invFns, limit(g.propFunc(p)))
	}
	for _, p := range assumes {
		assumeFns = append(assumeFns, limit(g.propFunc(p)))
	}
	for _, p := range covers {
		coverFns = append(coverFns, limit(g.propFunc(p)))
	}
	for _, p := range lives {
		liveFns = append(liveFns, limit(g.propFunc(p)))
	}
	b.checkProps(invFns, assumeFns, coverFns, liveFns)
	// The successor area (see run) after the deepest frame: every rule
	// and procedure is generated by now.
	frameEnd := g.lay.frame + uint32(8*g.frame)
	if g.rec != nil {
		frameEnd += recursionFrameBytes
		g.rec.finish(g, frameEnd)
	}
	b.succ = (frameEnd + 15) &^ 7
	b.batchStates = min(max(batchBytes/max(len(ruleFns)*b.succStride(), 1), 1), maxBatch)
	b.batch = b.succ + uint32(b.batchStates*len(ruleFns)*b.succStride())
	heap := b.batch + uint32(12*b.batchStates)
	if n := len(m.CoverStmts); n > 0 {
		heap = (heap + 7) &^ 7
		b.coverTails = heap
		heap += uint32(8 * n * b.batchStates)
	}
	if b.o.MaxErrors > 1 {
		heap = (heap + 7) &^ 7
		b.violA = heap
		heap += uint32((b.o.MaxErrors - 1) * b.violationBytes())
	}
	if len(lives) > 0 {
		heap = (heap + 7) &^ 7
		b.liveA = heap
		g.mod.globals[b.gLiveA].init = int64(heap)
		heap += uint32(16 * b.liveCap)
	}
	b.run(ruleFns)
	b.partsFuncs(len(ruleFns))
	limit(nil)
	g.mod.globals[b.gHeap].init = int64(heap)
	g.mod.memMin = (heap + 0xffff) >> 16
	g.mod.memMax = o.MaxPages
	if g.mod.memMax == 0 || g.mod.memMax > 65536 {
		g.mod.memMax = 65536
	}
	if g.mod.memMax < g.mod.memMin+4 {
		return nil, &Unsupported{What: fmt.Sprintf("a memory budget of %d pages, below the %d the search needs to start", g.mod.memMax, g.mod.memMin+4)}
	}
	g.mod.export("memory", 2, 0)
	mod = &Module{Code: g.mod.bytes(), Exports: g.mod.signatures(), Stats: g.lay.stats, Cur: g.lay.cur, Work: g.lay.work, Pack: g.lay.pack, Covers: g.lay.covers, CoverStmts: g.lay.coverStmts,
		StateBytes: m.StateBytes, RecordBytes: g.lay.rec, RuleBytes: g.lay.ruleBytes, Rules: len(rules), Invariants: len(invs)}
	if o.Compact {
		mod.Compact, mod.KeyBits = true, o.KeyBits
	}
	if o.MaxErrors > 1 {
		mod.Violations, mod.ViolationBytes = b.violA, b.violationBytes()
	}
	if len(lives) > 0 {
		mod.LiveLog, mod.LiveCap = b.liveA, b.liveCap
	}
	if b.parts {
		mod.Parts, mod.OutboxStride, mod.OutboxBytes = true, b.outboxStride(), b.outboxCap(len(ruleFns))*b.outboxStride()
	}
	if o.Symmetry != nil {
		mod.Sym = g.lay.symA.s
	}
	return mod, nil
}

func newLayout(m *compile.Model, sym *symmetry.Plan, compact bool) layout {
	var l layout
	l.sb = m.StateBytes
	l.sbPad = (l.sb + 7) &^ 7
	// Records are not padded, and keep no rule: a search needs less
	// memory (a counterexample's rules are found again, see the host).
	l.rec = l.sb + 4
	if compact {
		// The trail: the rule is needed, the state being gone. Rules
		// fit in 2 bytes but in models of more than 65535 rules.
		l.ruleBytes = 2
		if len(m.Rules) > 0xffff {
			l.ruleBytes = 4
		}
		l.rec = 4 + l.ruleBytes
	}
	l.stats = 0
	l.cur = 8 * statsSlots
	l.work = l.cur + uint32(8*m.NumSlots)
	l.pack = l.work + uint32(8*m.NumSlots)
	l.covers = (l.pack + uint32(l.sbPad) + 16 + 7) &^ 7
	l.dir = l.covers + uint32(8*len(m.Covers))
	if n := len(m.CoverStmts); n > 0 {
		l.coverStmts = l.dir
		l.dir += uint32(16 * n)
	}
	if sym != nil {
		l.symA = newSymArea(l.dir, m.NumSlots, sym.Elems)
		l.dir = l.symA.end
	}
	l.frame = l.dir + 4*maxChunks
	if compact {
		l.qdir = l.frame
		l.frame = l.qdir + 4*maxChunks
	}
	return l
}

// builder generates the runtime functions.
type builder struct {
	g *gen
	o Options
	// globals
	gN, gHead, gLevelEnd, gRules, gHeap, gAt, gRule, gInv, gTouch uint32
	// props: the model has invariants or assumptions for new states.
	props bool
	// the index: its directory of blocks (see find), 64 less its depth,
	// its depth, the block of find's slot, the block splits copy out to
	gDir, gDirShift, gDepth, gBlk, gProbes, gScratch uint32
	// succ is the successor area's address, batch the batch's states'
	// ends of successors and flags (see run)
	succ, batch uint32
	batchStates int
	// functions
	alloc, recAddr, unpack, packFrom, hashAt, memeq, find, insert, split, checkProps_ *fn
	countCovers                                                                       *fn // nil: no cover property
	canon, symBase                                                                    *fn // nil: no symmetry reduction
	gMoved                                                                            uint32
	// Under hash compaction: qAddr(id), the address of a waiting state's
	// packed form, and the free queue chunks (a list through their first
	// words).
	qAddr  *fn
	gFreeQ uint32
	// Under Options.MaxErrors > 1: the violations recorded, and where.
	gViol, violA uint32
	// packFroms are the packing functions by the slots they cover
	// (slotSet.key).
	packFroms map[string]*fn
	// guards, in a model with rule priorities, are the rules' guards
	// (the rule functions are then their bodies alone).
	guards []*fn
	// markLive, in a model with liveness properties, logs the liveness
	// properties the working state satisfies (see Module.LiveLog), at
	// liveA, which has room for liveCap transitions and as many states.
	markLive *fn
	liveA    uint32
	liveCap  int
	// coverTails, in a model with cover statements, is per state of a
	// batch the hits its expansion counted after its last successor (see
	// coverStmtsFlow).
	coverTails uint32
	gLiveA     uint32 // (i32) liveA, known once the code is
	// parts: the module can run as a part of a partitioned search (see
	// parts.go): its number, the number of parts, the outbox and how
	// many entries it holds.
	parts                      bool
	gSelf, gParts, gOut, gOutN uint32
	gSent                      uint32 // the cache of states sent
}

func (b *builder) globals() {
	m := b.g.mod
	b.gN = m.addGlobal(i32, 0)
	b.gHead = m.addGlobal(i32, 0)
	b.gLevelEnd = m.addGlobal(i32, 0)
	b.gRules = m.addGlobal(i64, 0)
	b.gDir = m.addGlobal(i32, 0)
	b.gDirShift = m.addGlobal(i64, 0)
	b.gDepth = m.addGlobal(i32, 0)
	b.gBlk = m.addGlobal(i32, 0)
	b.gProbes = m.addGlobal(i32, 0)
	b.gScratch = m.addGlobal(i32, 0)
	b.gTouch = m.addGlobal(i64, 0) // what run's pass 2 read, so that it is not dropped
	b.gHeap = m.addGlobal(i32, 0)  // set once the frame's size is known
	b.gAt = m.addGlobal(i32, 0)
	b.gRule = m.addGlobal(i32, 0)
	b.gInv = m.addGlobal(i32, 0)
	b.g.gDirty = m.addGlobal(i64, 0)
	b.g.dirtyShift = dirtyGroups(b.g.m.NumSlots)
	if b.o.Compact {
		b.gFreeQ = m.addGlobal(i32, 0)
	}
	if b.o.MaxErrors > 1 {
		b.gViol = m.addGlobal(i32, 0)
	}
	if b.parts {
		b.partsGlobals()
	}
}

// violationBytes is a violation record's size (see Module.Violations).
func (b *builder) violationBytes() int { return 16 + b.g.lay.sbPad }

// record generates code that, while fewer than MaxErrors-1 violations
// are recorded, records one (kind, invariant and rule pushed by inv and
// rule, the current state as parent, and for an invariant the pack
// buffer's state) and goes on; else runs stop (which returns).
func (b *builder) record(f *fn, kind int32, inv, rule func(), stop func()) {
	if b.o.MaxErrors <= 1 {
		stop()
		return
	}
	l := b.g.lay
	at := f.local(i32)
	f.globalGet(b.gViol)
	f.i32Const(int32(b.o.MaxErrors - 1))
	f.i32GeU()
	f.if_()
	stop()
	f.end()
	f.globalGet(b.gViol)
	f.i32Const(int32(b.violationBytes()))
	f.i32Mul()
	f.i32Const(int32(b.violA))
	f.i32Add()
	f.tee(at)
	f.i32Const(kind)
	f.i32Store(0)
	f.get(at)
	inv()
	f.i32Store(4)
	f.get(at)
	rule()
	f.i32Store(8)
	f.get(at)
	f.globalGet(b.gHead)
	f.i32Store(12)
	if kind == ViolationInvariant {
		f.copyWords(func() {
			f.get(at)
			f.i32Const(16)
			f.i32Add()
		}, func() { f.i32Const(int32(l.pack)) }, l.sbPad, unrollCopy)
	}
	f.globalGet(b.gViol)
	f.i32Const(1)
	f.i32Add()
	f.globalSet(b.gViol)
}

// key pushes the index entry of the hash local h pushes under hash
// compaction: its top KeyBits bits, 1 for 0 (0 marks an empty slot).
func (b *builder) key(f *fn, h func()) {
	k := f.local(i64)
	h()
	if b.o.KeyBits < 64 {
		f.i64Const(-1 << (64 - b.o.KeyBits))
		f.i64And()
	}
	f.tee(k)
	f.get(k)
	f.i64Eqz()
	f.i64ExtendI32U()
	f.i64Or()
}

// runtime generates the search's building blocks (the rule and property
// functions come after them, the driver last).
func (b *builder) runtime() {
	g := b.g
	m := g.mod
	l := g.lay

	// alloc(size) -> address, or 0 if memory cannot grow.
	b.alloc = m.newFunc([]byte{i32}, []byte{i32})
	b.alloc.name = "alloc"
	{
		f := b.alloc
		a, end, pages := f.local(i32), f.local(i32), f.local(i32)
		f.globalGet(b.gHeap)
		f.i32Const(7)
		f.i32Add()
		f.i32Const(-8)
		f.i32And()
		f.tee(a)
		f.get(0)
		f.i32Add()
		f.tee(end)
		f.get(a)
		f.i32LtU() // wrapped past 4 GiB
		f.if_()
		f.i32Const(0)
		f.return_()
		f.end()
		f.get(end)
		f.memorySize()
		f.i32Const(16)
		f.i32Shl()
		f.i32GtU()
		f.if_()
		f.get(end)
		f.memorySize()
		f.i32Const(16)
		f.i32Shl()
		f.i32Sub()
		f.i32Const(0xffff)
		f.i32Add()
		f.i32Const(16)
		f.i32ShrU()
		f.tee(pages)
		f.memoryGrow()
		f.i32Const(-1)
		f.i32Eq()
		f.if_()
		f.i32Const(0)
		f.return_()
		f.end()
		f.end()
		f.get(end)
		f.globalSet(b.gHeap)
		f.get(a)
		m.export("alloc", 0, f.idx)
	}

	// chunkAddr(id) -> the address of id's entry, of stride bytes, in the
	// chunks of the directory at dir.
	chunkAddr := func(name string, dir uint32, stride int) *fn {
		f := m.newFunc([]byte{i32}, []byte{i32})
		f.name = name
		f.get(0)
		f.i32Const(chunkBits)
		f.i32ShrU()
		f.i32Const(2)
		f.i32Shl()
		f.i32Load(dir)
		f.get(0)
		f.i32Const(1<<chunkBits - 1)
		f.i32And()
		f.i32Const(int32(stride))
		f.i32Mul()
		f.i32Add()
		return f
	}
	// recAddr(id) -> the record's address.
	b.recAddr = chunkAddr("recAddr", l.dir, l.rec)
	if b.o.Compact {
		// qAddr(id) -> the address of waiting state id's packed form.
		b.qAddr = chunkAddr("qAddr", l.qdir, l.sb)
	}

	// unpack(addr, slots): the packed state at addr into the slots at
	// slots (the current or the working state's).
	b.unpack = m.newFunc([]byte{i32, i32}, nil)
	b.unpack.name = "unpack"
	{
		f := b.unpack
		x := f.local(i64)
		for i := range g.m.Leaves {
			lf := &g.m.Leaves[i]
			off := uint32(lf.Offset >> 3)
			sh := int64(lf.Offset & 7)
			f.get(1)
			f.get(0)
			f.i64Load(off)
			if sh > 0 {
				f.i64Const(sh)
				f.i64ShrU()
			}
			f.i64Const(int64(1)<<uint(lf.Bits) - 1)
			f.i64And()
			f.tee(x)
			f.i64Eqz()
			f.ifResult(i64)
			f.i64Const(undef)
			f.else_()
			decodeLeaf(f, lf, x)
			f.end()
			f.i64Store(uint32(8 * i))
		}
	}

	g.copyCur = m.newFunc(nil, nil)
	{
		f := g.copyCur
		f.name = "copyCur"
		f.copyWords(func() { f.i32Const(int32(l.work)) }, func() { f.i32Const(int32(l.cur)) }, 8*g.m.NumSlots, unrollCopyShared)
		f.i64Const(0)
		f.globalSet(g.gDirty)
	}

	// packFrom(dst, src) -> 1 if the working slots differ from the
	// current ones: the working slots packed at dst, given the current
	// state packed at src (a record): src's words copied (the bytes past
	// the state too, which nothing reads as the state's),
	// then only the leaves that differ encoded (core/compile's PackFrom;
	// a successor differs in a few), and their working slots set back to
	// the current values, for the next rule. A leaf is at most 56 bits, so
	// with its shift it lies in the word at its first byte; the bytes of
	// that word past the state are written back as they were.
	b.packFrom = b.packFromFunc(slotSet{all: true})
	b.packFroms = map[string]*fn{"all": b.packFrom}

	b.hashAt = b.hashFunc()
	m.export("hash", 0, b.hashAt.idx)

	// memeq(addr) -> 1 if the packed state at addr is the pack buffer's.
	b.memeq = m.newFunc([]byte{i32}, []byte{i32})
	b.memeq.name = "memeq"
	{
		f := b.memeq
		// The state's bytes, a word at a time: what follows a state
		// differs (a record's trail, the pack buffer's leftovers). A last
		// part word is the word ending with the state, overlapping the
		// one before, or for a state under 8 bytes its bytes masked.
		word := func(k int, mask int64) {
			for _, at := range []func(){func() { f.get(0) }, func() { f.i32Const(int32(l.pack)) }} {
				at()
				f.i64Load(uint32(k))
				if mask != -1 {
					f.i64Const(mask)
					f.i64And()
				}
			}
			f.i64Ne()
			f.if_()
			f.i32Const(0)
			f.return_()
			f.end()
		}
		k := 0
		for ; k+8 <= l.sb; k += 8 {
			word(k, -1)
		}
		switch {
		case k == l.sb:
		case l.sb >= 8:
			word(l.sb-8, -1)
		default:
			word(0, int64(1)<<(8*l.sb)-1)
		}
		f.i32Const(1)
	}

	// find(h) -> the id of the state in the pack buffer, or -1; sets the
	// slot where insert puts it, and its block.
	b.find = m.newFunc([]byte{i64}, []byte{i32})
	b.find.name = "find"
	{
		f := b.find
		tag, blk, i, e, id, n := f.local(i64), f.local(i32), f.local(i32), f.local(i64), f.local(i32), f.local(i32)
		if b.o.Compact {
			b.key(f, func() { f.get(0) }) // the whole entry
		} else {
			f.get(0)
			f.i64Const(idBits)
			f.i64ShrU()
			f.i64Const(idBits)
			f.i64Shl()
		}
		f.set(tag)
		b.slotAt(f, func() { f.get(0) }, int(blk))
		f.set(i) // the slot's address less blockHead
		// Not found: at an empty slot, or after every slot of a full
		// block (then n is past splitProbes, and insert splits it).
		f.block()
		f.loop()
		f.get(n)
		f.i32Const(blockSlots)
		f.i32Eq()
		f.brIf(1)
		f.get(i)
		f.i64Load(blockHead)
		f.tee(e)
		f.i64Eqz()
		f.brIf(1)
		if b.o.Compact {
			// The key is all there is: a state whose key is met is
			// taken for the one met before (its id is not kept: 0).
			f.get(e)
			f.get(tag)
			f.i64Eq()
			f.if_()
			f.i32Const(0)
			f.return_()
			f.end()
		} else {
			f.get(e)
			f.i64Const(^int64(idMask))
			f.i64And()
			f.get(tag)
			f.i64Eq()
			f.if_()
			f.get(e)
			f.i32WrapI64() // the id's low 32 bits: ids stay below 2^30
			f.i32Const(1)
			f.i32Sub()
			f.tee(id)
			f.call(b.recAddr.idx)
			f.call(b.memeq.idx)
			f.if_()
			f.get(id)
			f.return_()
			f.end()
			f.end()
		}
		// The next slot, wrapping within the block.
		f.get(i)
		f.i32Const(8)
		f.i32Add()
		f.get(blk)
		f.i32Sub()
		f.i32Const(blockSlots*8 - 1)
		f.i32And()
		f.get(blk)
		f.i32Add()
		f.set(i)
		f.get(n)
		f.i32Const(1)
		f.i32Add()
		f.set(n)
		f.br(0)
		f.end()
		f.end()
		f.get(i)
		f.globalSet(b.gAt)
		f.get(n)
		f.globalSet(b.gProbes)
		f.get(blk)
		f.globalSet(b.gBlk)
		f.i32Const(-1)
		m.export("find", 0, f.idx)
	}

	// place(blk, e): entry e into block blk, at the first empty slot
	// from its home (blk is never full).
	place := m.newFunc([]byte{i32, i64}, nil)
	place.name = "place"
	{
		f := place
		const blk, e = 0, 1
		i := f.local(i32)
		homeOffset(f, func() { f.get(e) })
		f.set(i) // offset in the slots
		f.block()
		f.loop()
		f.get(blk)
		f.get(i)
		f.i32Add()
		f.i64Load(blockHead)
		f.i64Eqz()
		f.brIf(1)
		f.get(i)
		f.i32Const(8)
		f.i32Add()
		f.i32Const(blockSlots*8 - 1)
		f.i32And()
		f.set(i)
		f.br(0)
		f.end()
		f.end()
		f.get(blk)
		f.get(i)
		f.i32Add()
		f.get(e)
		f.i64Store(blockHead)
	}

	// split(blk, h) -> 1 if block blk, h's, split in two, 0 if memory ran
	// out (or the block is as deep as blocks go). Its entries whose next
	// hash bit is 1 move to a new block, which the directory's upper half
	// of blk's entries points to; the directory doubles first if blk was
	// as deep as it.
	b.split = m.newFunc([]byte{i32, i64}, []byte{i32})
	b.split.name = "split"
	{
		f := b.split
		const blk, h = 0, 1
		ld, nd, j, n, nb, span, v, e := f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i64)
		f.get(blk)
		f.i32Load(4)
		f.tee(ld)
		f.i32Const(maxBlockDepth)
		f.i32GeU()
		f.if_()
		f.i32Const(0)
		f.return_()
		f.end()
		f.get(ld)
		f.globalGet(b.gDepth)
		f.i32Eq()
		f.if_()
		// The directory doubles: each entry twice.
		f.i32Const(1)
		f.globalGet(b.gDepth)
		f.i32Shl()
		f.set(n)
		f.get(n)
		f.i32Const(3)
		f.i32Shl()
		f.call(b.alloc.idx)
		f.tee(nd)
		f.i32Eqz()
		f.if_()
		f.i32Const(0)
		f.return_()
		f.end()
		f.forUpTo(j, func() { f.i32Const(0) }, func() { f.get(n) }, 1, func() {
			f.globalGet(b.gDir)
			f.get(j)
			f.i32Const(2)
			f.i32Shl()
			f.i32Add()
			f.i32Load(0)
			f.set(v)
			for k := uint32(0); k < 2; k++ {
				f.get(nd)
				f.get(j)
				f.i32Const(3)
				f.i32Shl()
				f.i32Add()
				f.get(v)
				f.i32Store(4 * k)
			}
		})
		f.get(nd)
		f.globalSet(b.gDir)
		f.globalGet(b.gDepth)
		f.i32Const(1)
		f.i32Add()
		f.globalSet(b.gDepth)
		f.globalGet(b.gDirShift)
		f.i64Const(1)
		f.i64Sub()
		f.globalSet(b.gDirShift)
		f.end()
		f.i32Const(blockBytes)
		f.call(b.alloc.idx)
		f.tee(nb)
		f.i32Eqz()
		f.if_()
		f.i32Const(0)
		f.return_()
		f.end()
		// Both blocks one deeper; blk's entries to the scratch block.
		f.get(ld)
		f.i32Const(1)
		f.i32Add()
		f.set(ld)
		f.get(blk)
		f.get(ld)
		f.i32Store(4)
		f.get(nb)
		f.get(ld)
		f.i32Store(4)
		f.globalGet(b.gScratch)
		f.get(blk)
		f.i32Const(blockHead)
		f.i32Add()
		f.i32Const(blockSlots * 8)
		f.memoryCopy()
		f.get(blk)
		f.i32Const(blockHead)
		f.i32Add()
		f.i32Const(0)
		f.i32Const(blockSlots * 8)
		f.memoryFill()
		// The directory entries of blk are the 2^(depth-ld+1) from h's
		// first ld-1 bits; the upper half of them now point to nb.
		f.i32Const(1)
		f.globalGet(b.gDepth)
		f.get(ld)
		f.i32Sub()
		f.i32Shl()
		f.set(span)             // half of blk's entries
		shiftDown(f, h, 65, ld) // the hash's first ld-1 bits
		f.i32Const(1)
		f.i32Shl()
		f.i32Const(1)
		f.i32Or()
		f.get(span)
		f.i32Mul()
		f.tee(n) // the first entry that points to nb
		f.get(span)
		f.i32Add()
		f.set(v)
		f.forUpTo(j, func() { f.get(n) }, func() { f.get(v) }, 1, func() {
			f.globalGet(b.gDir)
			f.get(j)
			f.i32Const(2)
			f.i32Shl()
			f.i32Add()
			f.get(nb)
			f.i32Store(0)
		})
		// The entries back, each to the block of its next bit.
		f.forUpTo(j, func() { f.i32Const(0) }, func() { f.i32Const(blockSlots * 8) }, 8, func() {
			f.globalGet(b.gScratch)
			f.get(j)
			f.i32Add()
			f.i64Load(0)
			f.tee(e)
			f.i64Eqz()
			f.i32Eqz()
			f.if_()
			f.get(nb)
			f.get(blk)
			shiftDown(f, e, 64, ld) // its first ld bits
			f.i32Const(1)
			f.i32And()
			f.select_()
			f.get(e)
			f.call(place.idx)
			f.end()
		})
		f.i32Const(1)
	}

	// insert(h, parent) -> 0, or 1 if memory ran out: adds the state in
	// the pack buffer, which find(h) just did not find.
	// Under hash compaction insert(h, parent, rule) -> the same, and the
	// state goes to the queue, its parent and rule to the trail.
	params := []byte{i64, i32}
	if b.o.Compact {
		params = append(params, i32)
	}
	b.insert = m.newFunc(params, []byte{i32})
	b.insert.name = "insert"
	{
		f := b.insert
		id, rec, c := f.local(i32), f.local(i32), f.local(i32)
		// Where the state would sit splitProbes or more past its home,
		// or in a full block, the block splits, and find places it
		// again (in either half, which may split in its turn).
		f.block()
		f.loop()
		f.globalGet(b.gProbes)
		f.i32Const(splitProbes)
		f.i32LtU()
		f.brIf(1)
		f.globalGet(b.gBlk)
		f.get(0)
		f.call(b.split.idx)
		f.i32Eqz()
		f.if_()
		f.i32Const(1)
		f.return_()
		f.end()
		f.get(0)
		f.call(b.find.idx)
		f.drop()
		f.br(0)
		f.end()
		f.end()
		f.globalGet(b.gN)
		f.tee(id)
		f.i32Const(maxChunks << chunkBits)
		f.i32GeU()
		f.if_()
		f.i32Const(1)
		f.return_()
		f.end()
		f.get(id)
		f.i32Const(1<<chunkBits - 1)
		f.i32And()
		f.i32Eqz()
		f.if_()
		// A new chunk (c) of size bytes, or 1 returned; then its
		// address in the directory at dir.
		newChunk := func(size int) {
			f.i32Const(int32(size))
			f.call(b.alloc.idx)
			f.tee(c)
			f.i32Eqz()
			f.if_()
			f.i32Const(1)
			f.return_()
			f.end()
		}
		setChunk := func(dir uint32) {
			f.get(id)
			f.i32Const(chunkBits)
			f.i32ShrU()
			f.i32Const(2)
			f.i32Shl()
			f.get(c)
			f.i32Store(dir)
		}
		newChunk(l.rec<<chunkBits + 16)
		setChunk(l.dir)
		if b.o.Compact {
			// A queue chunk too: a free one, or a new one.
			f.globalGet(b.gFreeQ)
			f.tee(c)
			f.if_()
			f.get(c)
			f.i32Load(0)
			f.globalSet(b.gFreeQ)
			f.else_()
			newChunk(l.sb<<chunkBits + 16)
			f.end()
			setChunk(l.qdir)
		}
		f.end()
		f.get(id)
		f.call(b.recAddr.idx)
		f.set(rec)
		if b.o.Compact {
			// The rule's word runs into the next record, written after
			// this one (the last of a chunk has bytes to spare); the
			// state's words run into the next state's.
			f.get(rec)
			f.get(1)
			f.i32Store(0)
			f.get(rec)
			f.get(2)
			f.i32Store(4)
			f.get(id)
			f.call(b.qAddr.idx)
			f.set(rec)
			f.copyWords(func() { f.get(rec) }, func() { f.i32Const(int32(l.pack)) }, l.sbPad, unrollCopy)
			f.globalGet(b.gAt)
			b.key(f, func() { f.get(0) })
			f.i64Store(blockHead)
		} else {
			// Whole words: the bytes past the state are the parent's,
			// written next, and the next record's, written when it is
			// added (the last of a chunk has 16 bytes to spare).
			f.copyWords(func() { f.get(rec) }, func() { f.i32Const(int32(l.pack)) }, l.sbPad, unrollCopy)
			f.get(rec)
			f.get(1)
			f.i32Store(uint32(l.sb))
			f.globalGet(b.gAt)
			f.get(0)
			f.i64Const(idBits)
			f.i64ShrU()
			f.i64Const(idBits)
			f.i64Shl()
			f.get(id)
			f.i32Const(1)
			f.i32Add()
			f.i64ExtendI32U()
			f.i64Or()
			f.i64Store(blockHead)
		}
		f.get(id)
		f.i32Const(1)
		f.i32Add()
		f.globalSet(b.gN)
		f.i32Const(0)
		m.export("insert", 0, f.idx)
	}

	// init() -> 0, or 1 if memory ran out: a directory of two blocks, and
	// the scratch block splits use.
	{
		f := m.newFunc(nil, []byte{i32})
		a := f.local(i32)
		f.i32Const(blockSlots * 8)
		f.call(b.alloc.idx)
		f.tee(a)
		f.globalSet(b.gScratch)
		f.i32Const(8)
		f.call(b.alloc.idx)
		f.globalSet(b.gDir)
		f.get(a)
		f.i32Eqz()
		f.globalGet(b.gDir)
		f.i32Eqz()
		f.i32Or()
		f.if_()
		f.i32Const(1)
		f.return_()
		f.end()
		for k := 0; k < 2; k++ {
			f.i32Const(blockBytes)
			f.call(b.alloc.idx)
			f.tee(a)
			f.i32Eqz()
			f.if_()
			f.i32Const(1)
			f.return_()
			f.end()
			f.get(a)
			f.i32Const(1)
			f.i32Store(4)
			f.globalGet(b.gDir)
			f.get(a)
			f.i32Store(uint32(4 * k))
		}
		f.i32Const(1)
		f.globalSet(b.gDepth)
		f.i64Const(63)
		f.globalSet(b.gDirShift)
		f.i32Const(0)
		m.export("init", 0, f.idx)
	}

	// begin(): the start states are in; the first level ends with them.
	{
		f := m.newFunc(nil, nil)
		f.globalGet(b.gN)
		f.globalSet(b.gLevelEnd)
		m.export("begin", 0, f.idx)
	}

	// info(): the counters into the info area.
	{
		f := m.newFunc(nil, nil)
		for i, gl := range []uint32{b.gN, b.gHead, b.gLevelEnd, b.gRules, b.gRule, b.gInv, b.gHeap} {
			f.i32Const(int32(l.stats + uint32(8*i)))
			f.globalGet(gl)
			if gl != b.gRules {
				f.i64ExtendI32U()
			}
			f.i64Store(0)
		}
		f.i32Const(int32(l.stats + 8*InfoPages))
		f.memorySize()
		f.i64ExtendI32U()
		f.i64Store(0)
		if b.o.MaxErrors > 1 {
			f.i32Const(int32(l.stats + 8*InfoViolations))
			f.globalGet(b.gViol)
			f.i64ExtendI32U()
			f.i64Store(0)
		}
		m.export("info", 0, f.idx)
	}

	// unpackState(id): the stored state id into the current slots (for
	// the host to read a state back).
	{
		f := m.newFunc([]byte{i32}, nil)
		f.get(0)
		if b.o.Compact {
			f.call(b.qAddr.idx) // a state not yet expanded
		} else {
			f.call(b.recAddr.idx)
		}
		f.i32Const(int32(l.cur))
		f.call(b.unpack.idx)
		m.export("unpackState", 0, f.idx)
	}
	// record(id) -> the address of state id's record.
	m.export("record", 0, b.recAddr.idx)
}

// shiftDown pushes, as an i32, local x (an i64) shifted right by k less
// local d (an i32): x's first d bits for k = 64.
func shiftDown(f *fn, x uint32, k int64, d uint32) {
	f.get(x)
	f.i64Const(k)
	f.get(d)
	f.i64ExtendI32U()
	f.i64Sub()
	f.i64ShrU()
	f.i32WrapI64()
}

// slotAt pushes the address, less blockHead, of the home slot of the hash
// h pushes: its block from the directory (the hash's top bits), also set
// in local blk if that is not -1, the slot in it from hash bits 32-40 (the
// tag's low bits, which no split uses).
func (b *builder) slotAt(f *fn, h func(), blk int) {
	f.globalGet(b.gDir)
	h()
	f.globalGet(b.gDirShift)
	f.i64ShrU()
	f.i32WrapI64()
	f.i32Const(2)
	f.i32Shl()
	f.i32Add()
	f.i32Load(0)
	if blk >= 0 {
		f.tee(uint32(blk))
	}
	homeOffset(f, h)
	f.i32Add()
}

// homeOffset pushes the offset in its block's slots of the home slot of
// the hash (or entry) h pushes: hash bits 32-40.
func homeOffset(f *fn, h func()) {
	h()
	f.i64Const(idBits)
	f.i64ShrU()
	f.i32WrapI64()
	f.i32Const(blockSlots - 1)
	f.i32And()
	f.i32Const(3)
	f.i32Shl()
}

// hashFunc generates hashAt(addr) -> state.LaneHash of the packed state
// at addr: its words round-robin into four accumulators (their multiplies
// overlap), the last partial word zero-extended.
func (b *builder) hashFunc() *fn {
	sb := b.g.lay.sb
	f := b.g.mod.newFunc([]byte{i32}, []byte{i64})
	f.name = "hash"
	var acc [4]uint32
	for j := range acc {
		acc[j] = f.local(i64)
		f.i64Const(int64(state.LaneSeeds[j]))
		f.set(acc[j])
	}
	round := func(j int, word func()) { // acc = rotl(acc + w*p2, 31) * p1
		f.get(acc[j])
		word()
		f.i64Const(bitsOf(state.LanePrime2))
		f.i64Mul()
		f.i64Add()
		f.i64Const(31)
		f.i64Rotl()
		f.i64Const(bitsOf(state.LanePrime1))
		f.i64Mul()
		f.set(acc[j])
	}
	k, i := 0, 0
	for ; k+8 <= sb; k, i = k+8, i+1 {
		round(i&3, func() {
			f.get(0)
			f.i64Load(uint32(k))
		})
	}
	if r := sb - k; r > 0 {
		round(i&3, func() {
			if sb >= 8 { // the last 8 bytes, shifted down to the r of them
				f.get(0)
				f.i64Load(uint32(sb - 8))
				f.i64Const(int64(8 * (8 - r)))
				f.i64ShrU()
				return
			}
			for j := 0; j < r; j++ {
				f.get(0)
				f.i64Load8U(uint32(k + j))
				if j > 0 {
					f.i64Const(int64(8 * j))
					f.i64Shl()
					f.i64Or()
				}
			}
		})
	}
	h := acc[0]
	for j, rot := range []int64{1, 7, 12, 18} {
		f.get(acc[j])
		f.i64Const(rot)
		f.i64Rotl()
		if j > 0 {
			f.i64Add()
		}
	}
	f.i64Const(int64(sb))
	f.i64Add()
	f.set(h)
	for _, s := range []struct {
		shift int64
		mul   uint64
	}{{33, state.LanePrime2}, {29, state.LanePrime3}, {32, 0}} {
		f.get(h)
		f.get(h)
		f.i64Const(s.shift)
		f.i64ShrU()
		f.i64Xor()
		if s.mul != 0 {
			f.i64Const(bitsOf(s.mul))
			f.i64Mul()
		}
		f.set(h)
	}
	f.get(h)
	return f
}

// bitsOf is v's bits as an i64 constant.
func bitsOf(v uint64) int64 { return int64(v) }

// checkProps generates checkProps() on the working state: -1 if an
// assumption fails (discard), k+1 if invariant k fails, else 0; and, if
// the model has cover properties, countCovers(), which adds 1 to the
// counter (at lay.covers) of each the working state satisfies: the host
// adds the counters to its own (the start states') once the search ends.
func (b *builder) checkProps(invs, assumes, covers, lives []*fn) {
	b.props = len(invs)+len(assumes)+len(covers)+len(lives) > 0
	if len(lives) > 0 {
		b.liveCap = max(liveLogEntries, 64*len(b.g.m.Rules))
		b.gLiveA = b.g.mod.addGlobal(i32, 0)
		b.markLiveFunc(lives)
	}
	if len(covers) > 0 {
		f := b.g.mod.newFunc(nil, nil)
		f.name = "countCovers"
		for k, c := range covers {
			f.call(c.idx)
			f.if_()
			f.i32Const(int32(b.g.lay.covers) + int32(8*k))
			f.i32Const(int32(b.g.lay.covers) + int32(8*k))
			f.i64Load(0)
			f.i64Const(1)
			f.i64Add()
			f.i64Store(0)
			f.end()
		}
		b.countCovers = f
	}
	f := b.g.mod.newFunc(nil, []byte{i32})
	f.name = "checkProps"
	for _, a := range assumes {
		f.call(a.idx)
		f.i32Eqz()
		f.if_()
		f.i32Const(-1)
		f.return_()
		f.end()
	}
	for k, inv := range invs {
		f.call(inv.idx)
		f.i32Eqz()
		f.if_()
		f.i32Const(int32(k + 1))
		f.return_()
		f.end()
	}
	f.i32Const(0)
	b.checkProps_ = f
}

// liveLogEntries is the least room of the liveness log, in transitions.
const liveLogEntries = 1 << 16

// maxLiveness bounds the liveness properties: a state's are an i64's bits.
const maxLiveness = 64

// markLiveFunc generates markLive(): the liveness properties the working
// state satisfies, logged as the next state's (see Module.LiveLog).
func (b *builder) markLiveFunc(lives []*fn) {
	l := b.g.lay
	f := b.g.mod.newFunc(nil, nil)
	f.name = "markLive"
	at := f.local(i32)
	b.liveLogAt(f, InfoLiveStates, int32(8*b.liveCap), at)
	f.get(at)
	f.i64Const(0)
	for k, lf := range lives {
		f.call(lf.idx)
		f.i64ExtendI32U()
		if k > 0 {
			f.i64Const(int64(k))
			f.i64Shl()
		}
		f.i64Or()
	}
	f.i64Store(0)
	bumpInfo(f, l.stats+8*InfoLiveStates)
	b.markLive = f
}

// logEdge generates the logging of the transition from the state being
// expanded (gHead) to the state whose id the i32 local to holds.
func (b *builder) logEdge(f *fn, to uint32) {
	l := b.g.lay
	at := f.local(i32)
	b.liveLogAt(f, InfoLiveEdges, 0, at)
	f.get(at)
	f.globalGet(b.gHead)
	f.i32Store(0)
	f.get(at)
	f.get(to)
	f.i32Store(4)
	bumpInfo(f, l.stats+8*InfoLiveEdges)
}

// liveLogAt sets local at to the address of the next entry (8 bytes) of
// the part of the liveness log off bytes in, whose entries info counts.
func (b *builder) liveLogAt(f *fn, info int, off int32, at uint32) {
	f.i32Const(int32(b.g.lay.stats + uint32(8*info)))
	f.i32Load(0)
	f.i32Const(3)
	f.i32Shl()
	f.globalGet(b.gLiveA)
	f.i32Add()
	if off != 0 {
		f.i32Const(off)
		f.i32Add()
	}
	f.set(at)
}

// bumpInfo adds 1 to the info slot at addr.
func bumpInfo(f *fn, addr uint32) {
	f.i32Const(int32(addr))
	f.i32Const(int32(addr))
	f.i64Load(0)
	f.i64Const(1)
	f.i64Add()
	f.i64Store(0)
}

// run generates run(budget) -> status: expand up to budget states, in
// BFS order, stopping early at the end of a level, a violation, or when
// memory runs out.
//
// A state is expanded in three passes. Every rule fires first, and each
// successor is packed, with its hash and rule, into the successor area.
// Then the table slot of each is read, and nothing done with it: the
// reads are independent, so the processor overlaps their cache misses,
// which one probe after another would take one at a time (most of the
// time of a search whose table is larger than the caches). Last, the
// successors are looked up and admitted in rule order, as the closures
// do, so the states' numbers, the first violation and the counts are
// theirs.
func (b *builder) run(rules []*fn) {
	g := b.g
	l := g.lay
	f := g.mod.newFunc([]byte{i32}, []byte{i32})
	changed, fired, prop := f.local(i32), f.local(i32), f.local(i32)
	h := f.local(i64)
	p, end, touch, curRec := f.local(i32), f.local(i32), f.local(i64), f.local(i32)
	j, k, st := f.local(i32), f.local(i32), f.local(i32)
	// a successor's id, for the liveness log; a state's hits of cover
	// statements (locals only where they are used: other modules stay
	// as they were)
	var id, tail uint32
	if len(g.m.Liveness) > 0 {
		id = f.local(i32)
	}
	if len(g.m.CoverStmts) > 0 {
		tail = f.local(i32)
	}
	var dst uint32 // an outbox entry's address
	if b.parts {
		dst = f.local(i32)
	}
	f.loop()
	// Level boundary.
	f.globalGet(b.gHead)
	f.globalGet(b.gLevelEnd)
	f.i32Eq()
	f.if_()
	b.levelEndAsPart(f)
	f.globalGet(b.gLevelEnd)
	f.globalGet(b.gN)
	f.i32Eq()
	f.if_()
	f.i32Const(StatusDone)
	f.return_()
	f.end()
	f.globalGet(b.gN)
	f.globalSet(b.gLevelEnd)
	f.i32Const(StatusLevel)
	f.return_()
	f.end()
	f.get(0)
	f.i32Eqz()
	f.if_()
	f.i32Const(StatusPause)
	f.return_()
	f.end()
	b.outboxRoom(f, len(rules))
	// A batch of the next k states (at most b.batchStates, the level's
	// and the budget's): pass 1 for each, pass 2 for all their
	// successors at once (more cache misses overlap), then pass 3 and the
	// deadlock check for each in turn, so states are admitted in the
	// closures' order. (A rule that traps in a later state's pass 1 ends
	// the run before an earlier state's pass 3: the closures then run the
	// search again, so nothing of the generated run is kept.)
	f.i32Const(int32(b.batchStates))
	f.set(k)
	f.globalGet(b.gLevelEnd)
	f.globalGet(b.gHead)
	f.i32Sub()
	f.tee(j)
	f.get(k)
	f.i32LtU()
	f.if_()
	f.get(j)
	f.set(k)
	f.end()
	f.get(0)
	f.get(k)
	f.i32LtU()
	f.if_()
	f.get(0)
	f.set(k)
	f.end()
	f.get(0)
	f.get(k)
	f.i32Sub()
	f.set(0)
	f.i32Const(int32(b.succ))
	f.set(end)
	// Pass 1: fire the rules, for each state of the batch; note where its
	// successors end, and whether it changed and fired.
	f.forUpTo(j, func() { f.i32Const(0) }, func() { f.get(k) }, 1, func() {
		f.globalGet(b.gHead)
		f.get(j)
		f.i32Add()
		if b.o.Compact {
			f.call(b.qAddr.idx)
		} else {
			f.call(b.recAddr.idx)
		}
		f.tee(curRec)
		f.i32Const(int32(l.cur))
		f.call(b.unpack.idx)
		// The working slots start as the current ones, and each rule leaves
		// them so: packFrom writes back the slots a rule changed, and a rule
		// whose assume statement failed has them all copied again.
		f.call(g.copyCur.idx)
		if b.canon != nil {
			f.call(b.symBase.idx)
		}
		f.i32Const(0)
		f.set(changed)
		f.i32Const(0)
		f.set(fired)
		fire := b.priorities(f)
		for r, rf := range rules {
			if fire != nil {
				fire(r)
				f.if_()
			}
			f.call(rf.idx)
			f.tee(st)
			f.i32Const(ruleFired)
			f.i32Eq()
			f.if_()
			f.get(fired)
			f.i32Const(1)
			f.i32Add()
			f.set(fired)
			b.successor(f, int32(r), changed, end, curRec)
			f.else_()
			f.get(st)
			f.i32Const(statusAssumed)
			f.i32Eq()
			f.if_()
			f.call(g.copyCur.idx)
			f.end()
			f.end()
			if fire != nil {
				f.end()
			}
		}
		for i, v := range []uint32{end, changed, fired} {
			f.get(j)
			f.i32Const(12)
			f.i32Mul()
			f.get(v)
			f.i32Store(b.batch + uint32(4*i))
		}
		if n := len(g.m.CoverStmts); n > 0 {
			b.coverTail(f, j, tail)
			b.takePending(f, tail, 0, false)
		}
	})
	// Pass 2: read the successors' table slots.
	f.i64Const(0)
	f.set(touch)
	touchAll := func() { b.eachSuccessor(f, p, end, func() { b.touchSlot(f, touch, p) }) }
	if !b.parts {
		touchAll()
	} else {
		// In a part of several, only the slots of successors it owns:
		// the others are looked up by their owners. (Tested once a
		// batch, so that one part alone reads them as before.)
		f.globalGet(b.gParts)
		f.i32Const(1)
		f.i32Eq()
		f.if_()
		touchAll()
		f.else_()
		b.eachSuccessor(f, p, end, func() {
			f.get(p)
			f.i64Load(uint32(l.sbPad))
			f.set(h)
			b.owner(f, h)
			f.globalGet(b.gSelf)
			f.i32Eq()
			f.if_()
			b.touchSlot(f, touch, p)
			f.end()
		})
		f.end()
	}
	f.get(touch)
	f.globalSet(b.gTouch)
	// Pass 3: for each state of the batch, look its successors up and
	// admit the new ones, in rule order; then its deadlock check.
	f.i32Const(int32(b.succ))
	f.set(p)
	f.forUpTo(j, func() { f.i32Const(0) }, func() { f.get(k) }, 1, func() {
		f.get(j)
		f.i32Const(12)
		f.i32Mul()
		f.i32Load(b.batch)
		f.set(end)
		// its successors, from where the state before it's ended
		f.forUpTo(p, func() { f.get(p) }, func() { f.get(end) }, int32(b.succStride()), func() {
			// Rules fired are counted here: a violation stops the count where
			// the closures' stops.
			f.globalGet(b.gRules)
			f.i64Const(1)
			f.i64Add()
			f.globalSet(b.gRules)
			b.addCounted(f, p, uint32(l.sbPad+16)) // its cover statements' hits
			owned := b.sendIfRemote(f, p, h, dst)
			b.lookUp(f, p, h)
			if b.markLive != nil {
				f.tee(id)
			}
			f.i32Const(0)
			f.i32LtS()
			f.if_()
			b.newStateProps(f)
			f.tee(prop)
			f.i32Const(0)
			f.i32GtS()
			f.if_()
			// A violating state is reported, and not kept.
			b.record(f, ViolationInvariant, func() {
				f.get(prop)
				f.i32Const(1)
				f.i32Sub()
			}, func() {
				f.get(p)
				f.i32Load(uint32(l.sbPad + 8))
			}, func() {
				f.get(p)
				f.i32Load(uint32(l.sbPad + 8))
				f.globalSet(b.gRule)
				f.get(prop)
				f.i32Const(1)
				f.i32Sub()
				f.globalSet(b.gInv)
				f.i32Const(StatusInvariant)
				f.return_()
			})
			f.end()
			f.get(prop)
			f.i32Eqz()
			f.if_()
			f.get(h)
			f.globalGet(b.gHead)
			if b.o.Compact {
				f.get(p)
				f.i32Load(uint32(l.sbPad + 8)) // the rule
			}
			if b.markLive != nil {
				f.globalGet(b.gN)
				f.set(id)
			}
			f.call(b.insert.idx)
			f.if_()
			f.i32Const(StatusMemory)
			f.return_()
			f.end()
			if b.markLive != nil {
				b.logEdge(f, id)
			}
			if b.countCovers != nil {
				f.call(b.countCovers.idx) // the closures' order: kept, then covers
			}
			if b.markLive != nil {
				f.call(b.markLive.idx) // then liveness
			}
			f.end()
			if b.markLive != nil {
				f.else_() // met again
				b.logEdge(f, id)
			}
			f.end()
			owned()
		})
		if len(g.m.CoverStmts) > 0 {
			// The hits after the state's last successor: its expansion
			// is over.
			b.coverTail(f, j, tail)
			b.addCounted(f, tail, 0)
		}
		// Deadlock, from the state's flags of pass 1.
		switch b.o.Deadlock {
		case DeadlockStuttering:
			f.get(j)
			f.i32Const(12)
			f.i32Mul()
			f.i32Load(b.batch + 4) // changed
			f.i32Eqz()
		case DeadlockStuck:
			// No successor fired (a rule whose assume statement failed
			// leads nowhere), as the closures' search.
			f.get(j)
			f.i32Const(12)
			f.i32Mul()
			f.i32Load(b.batch + 8) // fired
			f.i32Eqz()
		default:
			f.i32Const(0)
		}
		f.if_()
		b.record(f, ViolationDeadlock, func() { f.i32Const(0) }, func() { f.i32Const(0) }, func() {
			f.i32Const(StatusDeadlock)
			f.return_()
		})
		f.end()
		f.globalGet(b.gHead)
		f.i32Const(1)
		f.i32Add()
		f.globalSet(b.gHead)
		if b.o.Compact {
			// Every state of the queue chunk the head left is expanded
			// (the batch's pass 1 is done): the chunk is free.
			f.globalGet(b.gHead)
			f.i32Const(1<<chunkBits - 1)
			f.i32And()
			f.i32Eqz()
			f.if_()
			f.globalGet(b.gHead)
			f.i32Const(chunkBits)
			f.i32ShrU()
			f.i32Const(2)
			f.i32Shl()
			f.i32Load(l.qdir - 4) // the chunk before the head's
			f.tee(curRec)
			f.globalGet(b.gFreeQ)
			f.i32Store(0)
			f.get(curRec)
			f.globalSet(b.gFreeQ)
			f.end()
		}
	})
	f.br(0)
	f.end()
	f.unreachable()
	g.mod.export("run", 0, f.idx)
}

// touchSlot generates the read of the table slot of the entry at the
// address in local at (a packed state, then its hash), xored into local
// touch: run's pass 2, so that the lookups after it find their slots in
// the cache.
func (b *builder) touchSlot(f *fn, touch, at uint32) {
	f.get(touch)
	b.slotAt(f, func() {
		f.get(at)
		f.i64Load(uint32(b.g.lay.sbPad))
	}, -1)
	f.i64Load(blockHead)
	f.i64Xor()
	f.set(touch)
}

// lookUp generates the lookup of the entry at the address in local at: its
// state to the pack buffer, its hash to local h, and find's result pushed.
func (b *builder) lookUp(f *fn, at, h uint32) {
	l := b.g.lay
	f.copyWords(func() { f.i32Const(int32(l.pack)) }, func() { f.get(at) }, l.sbPad, unrollCopy)
	f.get(at)
	f.i64Load(uint32(l.sbPad))
	f.tee(h)
	f.call(b.find.idx)
}

// newStateProps pushes what checkProps says of the new state in the pack
// buffer (unpacked to the working slots first), or 0 in a model with no
// property to check.
func (b *builder) newStateProps(f *fn) {
	if !b.props {
		f.i32Const(0) // no need to unpack
		return
	}
	l := b.g.lay
	f.i32Const(int32(l.pack))
	f.i32Const(int32(l.work))
	f.call(b.unpack.idx)
	f.call(b.checkProps_.idx)
}

// priorities generates, in a model with rule priorities, the guards' run
// before any body, as core/compile's Expand: every guard runs (one that
// fails traps, and the closures report it), and only the enabled rules
// of the lowest priority value fire. It returns the test that pushes
// whether rule r fires (nil without priorities).
func (b *builder) priorities(f *fn) func(r int) {
	if b.guards == nil {
		return nil
	}
	rules := b.g.m.Rules
	if len(rules) > maxPriorityRules {
		b.g.fail(murphi.NoPos, "rule priorities in a model of more than %d rule instances", maxPriorityRules)
	}
	enabled := make([]uint32, len(rules))
	low := f.local(i64)
	f.i64Const(math.MaxInt64)
	f.set(low)
	for r, gf := range b.guards {
		enabled[r] = f.local(i32)
		f.call(gf.idx)
		f.i32Const(ruleFired)
		f.i32Eq()
		f.tee(enabled[r])
		f.get(low)
		f.i64Const(rules[r].Priority)
		f.i64GtS()
		f.i32And()
		f.if_()
		f.i64Const(rules[r].Priority)
		f.set(low)
		f.end()
	}
	return func(r int) {
		f.get(enabled[r])
		f.get(low)
		f.i64Const(rules[r].Priority)
		f.i64Eq()
		f.i32And()
	}
}

// maxPriorityRules bounds the rules of a model with priorities: each
// rule's guard keeps its verdict in a local of the search's function.
const maxPriorityRules = 4096

// eachSuccessor generates a loop that runs body with p at each successor
// in the successor area, up to end.
func (b *builder) eachSuccessor(f *fn, p, end uint32, body func()) {
	f.forUpTo(p, func() { f.i32Const(int32(b.succ)) }, func() { f.get(end) }, int32(b.succStride()), body)
}

// packFromFunc generates packFrom for the rules that may write the slots
// of set: leaves in other slots are the current state's (the body starts
// from a copy of it), so only these are compared, encoded, and set back.
func (b *builder) packFromFunc(set slotSet) *fn {
	g, l, m := b.g, b.g.lay, b.g.mod
	f := m.newFunc([]byte{i32, i32}, []byte{i32})
	f.name = "packFrom"
	if !set.all {
		f.name = "packFrom (some leaves)"
	}
	const dst, src = 0, 1
	v, w, c, differs := f.local(i64), f.local(i64), f.local(i64), f.local(i32)
	f.copyWords(func() { f.get(dst) }, func() { f.get(src) }, l.sbPad, unrollCopy)
	group := -1 // the dirty group whose test is open
	for i := range g.m.Leaves {
		if !set.all && !set.slots[i] {
			continue
		}
		if k := (8 * i) >> g.dirtyShift; k != group {
			if group >= 0 {
				f.end()
			}
			group = k
			f.globalGet(g.gDirty)
			f.i64Const(bitsOf(1 << uint(k)))
			f.i64And()
			f.i64Const(0)
			f.i64Ne()
			f.if_()
		}
		lf := &g.m.Leaves[i]
		off := uint32(lf.Offset >> 3)
		sh := int64(lf.Offset & 7)
		mask := int64(1)<<uint(lf.Bits) - 1
		f.i32Const(int32(l.work + uint32(8*i)))
		f.i64Load(0)
		f.tee(v)
		f.i32Const(int32(l.cur + uint32(8*i)))
		f.i64Load(0)
		f.tee(c)
		f.i64Ne()
		f.if_()
		f.i32Const(1)
		f.set(differs)
		f.i32Const(int32(l.work + uint32(8*i))) // the working slot back
		f.get(c)
		f.i64Store(0)
		f.get(dst)
		f.i64Load(off)
		f.i64Const(^(mask << uint(sh)))
		f.i64And()
		f.set(w)
		f.get(dst)
		f.get(w)
		leafCode(f, lf, v)
		if sh > 0 {
			f.i64Const(sh)
			f.i64Shl()
		}
		f.i64Or()
		f.i64Store(off)
		f.end()
	}
	if group >= 0 {
		f.end()
	}
	// Every slot is the current one's again.
	f.i64Const(0)
	f.globalSet(g.gDirty)
	f.get(differs)
	return f
}

// packFromFor returns the packFrom of rule r, shared by the rules that
// write the same slots.
func (b *builder) packFromFor(r int) *fn {
	set := slotSet{all: true}
	if r < len(b.g.ruleWrites) {
		set = b.g.ruleWrites[r]
	}
	k := set.key()
	if f := b.packFroms[k]; f != nil {
		return f
	}
	f := b.packFromFunc(set)
	b.packFroms[k] = f
	return f
}

// succStride is a successor's bytes in the successor area: the packed
// state padded to 8, its hash (i64) and its rule (i32, padded to 8).
func (b *builder) succStride() int { return b.g.lay.sbPad + 16 + 8*len(b.g.m.CoverStmts) }

// The hits of cover statements are counted as the closures count them, up
// to where the search stops. Statements run in pass 1 (rules' guards and
// bodies) add to the pending counters; each successor takes those
// pending when it is packed (the hits of the guards and bodies run since
// the one before), and the state's expansion those left after its last
// successor (its tail, at coverTails); pass 3 adds a successor's to the
// counted before looking it up, and a state's tail once its successors
// are admitted, before its deadlock check: the closures' order, in which
// a rule fires and its successor is admitted before the next rule's
// guard runs. Statements run in pass 3 (properties' functions) count as
// pending, which the next batch's first successor (or tail) takes with
// its own, before anything can stop the search; the host adds both.

// coverCounted and coverPending are the addresses of cover statement k's
// counters.
func (b *builder) coverCounted(k int) int32 { return int32(b.g.lay.coverStmts) + int32(8*k) }
func (b *builder) coverPending(k int) int32 {
	return int32(b.g.lay.coverStmts) + int32(8*(len(b.g.m.CoverStmts)+k))
}

// takePending moves the pending hits to the n counters at the address the
// i32 local at holds plus off (to them, if add; over them, else).
func (b *builder) takePending(f *fn, at uint32, off uint32, add bool) {
	for k := range b.g.m.CoverStmts {
		f.get(at)
		if add {
			f.get(at)
			f.i64Load(off + uint32(8*k))
		}
		f.i32Const(b.coverPending(k))
		f.i64Load(0)
		if add {
			f.i64Add()
		}
		f.i64Store(off + uint32(8*k))
		f.i32Const(b.coverPending(k))
		f.i64Const(0)
		f.i64Store(0)
	}
}

// coverTail sets local at to the address of the cover statements' tail of
// the batch's state in local j.
func (b *builder) coverTail(f *fn, j, at uint32) {
	f.get(j)
	f.i32Const(int32(8 * len(b.g.m.CoverStmts)))
	f.i32Mul()
	f.i32Const(int32(b.coverTails))
	f.i32Add()
	f.set(at)
}

// addCounted adds the n counters at the address the i32 local at holds
// plus off to the counted hits.
func (b *builder) addCounted(f *fn, at uint32, off uint32) {
	for k := range b.g.m.CoverStmts {
		f.i32Const(b.coverCounted(k))
		f.i32Const(b.coverCounted(k))
		f.i64Load(0)
		f.get(at)
		f.i64Load(off + uint32(8*k))
		f.i64Add()
		f.i64Store(0)
	}
}

// successor generates pass 1's handling of the successor rule r just left
// in the working state: pack it (from the current state's record at
// curRec), noting a change, with its hash and rule, at end, which moves
// past it.
func (b *builder) successor(f *fn, r int32, changed, end, curRec uint32) {
	l := b.g.lay
	if b.canon != nil {
		// Reduced in a copy: whether the successor differs from the
		// current state is decided before reduction (as the closures,
		// Rumur and CMurphi do).
		f.copyWords(func() { f.i32Const(int32(l.symA.s)) }, func() { f.i32Const(int32(l.work)) }, 8*b.g.m.NumSlots, unrollCopy)
		f.call(b.canon.idx)
		// The successor itself is packed for that, unless an earlier
		// rule changed the state already and the representative is
		// another (packed below, which also sets every working slot
		// back).
		f.globalGet(b.gMoved)
		f.get(changed)
		f.i32And()
		f.i32Eqz()
		f.if_()
	}
	f.get(end)
	f.get(curRec)
	f.call(b.packFromFor(int(r)).idx)
	f.get(changed)
	f.i32Or()
	f.set(changed)
	if b.canon != nil {
		f.end()
		// The representative, if it is not the successor itself, packed
		// over it: every slot may differ from the current state's.
		f.globalGet(b.gMoved)
		f.if_()
		f.copyWords(func() { f.i32Const(int32(l.work)) }, func() { f.i32Const(int32(l.symA.s)) }, 8*b.g.m.NumSlots, unrollCopy)
		f.i64Const(-1)
		f.globalSet(b.g.gDirty)
		f.get(end)
		f.get(curRec)
		f.call(b.packFrom.idx)
		f.drop()
		f.end()
	}
	f.get(end)
	f.get(end)
	f.call(b.hashAt.idx)
	f.i64Store(uint32(l.sbPad))
	f.get(end)
	f.i32Const(r)
	f.i32Store(uint32(l.sbPad + 8))
	b.takePending(f, end, uint32(l.sbPad+16), false)
	f.get(end)
	f.i32Const(int32(b.succStride()))
	f.i32Add()
	f.set(end)
}

// leafCode pushes the packed code of leaf lf's value in local v: 0 where
// it is undefined, else encodeLeaf's.
func leafCode(f *fn, lf *compile.Leaf, v uint32) {
	f.get(v)
	f.i64Const(undef)
	f.i64Eq()
	f.ifResult(i64)
	f.i64Const(0)
	f.else_()
	encodeLeaf(f, lf, v)
	f.end()
}

// encodeLeaf pushes the packed code (1 and up) of the defined value in
// local v of leaf lf, as core/compile's Pack: v-Lo+1, or for a union the
// value's rank among its members' values plus 1. A union's value is
// always one of its members' (stores check it), so the last member needs
// no test.
func encodeLeaf(f *fn, lf *compile.Leaf, v uint32) {
	if lf.Kind != compile.LeafUnion {
		f.get(v)
		f.i64Const(lf.Lo - 1)
		f.i64Sub()
		return
	}
	ps := lf.Parts
	chooseI64(f, len(ps), func(k int) {
		pushInRange(f, v, ps[k].Lo, ps[k].Hi)
	}, func(k int) {
		f.get(v)
		f.i64Const(int64(ps[k].Base) + 1 - ps[k].Lo)
		f.i64Add()
	})
}

// decodeLeaf pushes the value of leaf lf whose packed code, not 0, is in
// local x: encodeLeaf's inverse. A union's members take consecutive codes
// in order, so a code's member is the first whose last code is not below it.
func decodeLeaf(f *fn, lf *compile.Leaf, x uint32) {
	if lf.Kind != compile.LeafUnion {
		f.get(x)
		f.i64Const(lf.Lo - 1)
		f.i64Add()
		return
	}
	ps := lf.Parts
	chooseI64(f, len(ps), func(k int) {
		f.get(x)
		f.i64Const(int64(ps[k].Base) + (ps[k].Hi - ps[k].Lo) + 1)
		f.i64LeS()
	}, func(k int) {
		f.get(x)
		f.i64Const(ps[k].Lo - int64(ps[k].Base) - 1)
		f.i64Add()
	})
}
