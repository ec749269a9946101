package wasmgen

// This file generates the search itself: states packed as core/compile
// packs them, hashed as core/state hashes them, an index of ids (32 more
// bits of the hash as a tag above the id, as store.Exact) in blocks that
// split as they fill (see segShift), the states in chunks in id order,
// which is BFS order, so the states not yet expanded are the queue, and
// marks from which the host finds a state's parent (see MarkShift).
// Under hash compaction (Options.Compact) the index keeps hashes, no id,
// the records are the trail alone, and the queue is chunks of packed
// states, each reused once its states are expanded.

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
	// StatusExpandedBad: checking invariants as states are expanded (see
	// Module.CheckAtExpansion), the state InfoFailed failed one.
	StatusExpandedBad = 6
)

// Deadlock modes, as explore's.
const (
	DeadlockStuttering = 0
	DeadlockStuck      = 1
	DeadlockOff        = 2
)

const (
	chunkBits = 14 // states per chunk: 2^chunkBits
	// chunkSpare is the bytes a chunk has past its records, which the
	// whole-word copies of its last one may write.
	chunkSpare = 16
	maxChunks  = 1 << 16
	idBits     = 32
	idMask     = 1<<idBits - 1
	// The index of states is split into blocks (linear probing within a
	// block), and a directory of the blocks by the hash's top bits, as
	// extendible hashing (Fagin et al. 1979) has it, so the index grows a
	// block at a time, never copying itself, and the memory a search needs
	// grows with its states, with no peak when a table doubles. A block is
	// segments of segSlots slots, which its directory entries list (each
	// of its entries: they are copies). When a state would sit splitProbes
	// slots or more past its home, or the block is full, the block splits
	// in two, each half given the segments it needs. Splitting on the
	// probe length rather than a count needs no count, which was a cache
	// miss more per new state.
	// A block of the exact index has maxSegs segments (512 slots): after
	// a split both halves are half full, and as blocks of one depth fill
	// together the index's load swings between about 0.5 and 0.7
	// (mcslock1's and list6's end near 0.5: 15.8 bytes a state). Under
	// hash compaction, where memory is what the user asked to save, a
	// block starts at minSegs segments and grows by growSegs (its entries
	// placed again) before it splits, so its halves start near their
	// fill and the index stays 0.72-0.79 full (modelled on the corpus'
	// hashes): mcslock1 under 40-bit compaction 23.2 → 19.0 bytes a
	// state. The exact index could too (mcslock1 29.0 → 25.0 bytes a
	// state, list6 41.3 → 37.4), but placing entries again and the longer
	// probes of a fuller index made mcslock1 10-18% slower (adash 9-14%).
	// Blocks are chosen by hash bits 63 down to 41, a slot in a block by
	// bits 32-63 (see homeIn).
	segShift = 6
	segSlots = 1 << segShift
	segBytes = 8 * segSlots
	minSegs  = 4 // under hash compaction (see leastSegs)
	maxSegs  = 8
	growSegs = 2
	// A directory entry: its block's segments, its depth, then the
	// addresses of its segments (uint32 each): under hash compaction every
	// segment's (an entry of 64 bytes), else the first's (16 bytes: an
	// exact block's segments are contiguous). See dirShift.
	headSegs      = 8
	listShift     = 6
	baseShift     = 4
	splitProbes   = 64
	maxBlockDepth = 23
	statsSlots    = InfoLevelLog + LevelLog
	// a chunk's records are whole groups of a mark
	_ = uint(chunkBits - MarkShift)
	// a directory entry holds its head and segments
	_ = uint(1<<listShift - headSegs - 4*maxSegs)
	// run expands up to maxBatch states together, as many as have room
	// for every rule's successor in batchBytes (see run).
	maxBatch   = 16
	batchBytes = 64 << 10
	// NoParent is the parent recorded for a start state.
	NoParent = 0xffffffff
	// MarkShift: a search keeps no parent's id per state. A state's
	// parent is the first state whose expansion led to it, and parents
	// come in id order (breadth-first, one worker), so per 2^MarkShift
	// states expanded the search keeps a mark (see Module): the number
	// of states there were when the first of them began admitting its
	// successors. The marks place a state's parent among 2^MarkShift:
	// the exact search's host fires their rules, and under hash
	// compaction a record has the parent's place among them. 4 bytes per
	// 32 states where a parent's id was 4 bytes per state (mcslock1
	// 29.1 → 25.2 bytes a state, under 40-bit hash compaction 19.2 →
	// 15.2).
	MarkShift = 5
	// recordsInCache is the bytes of records past which run reads, before
	// looking successors up, the records their home slots name (pass 2b).
	recordsInCache = 16 << 20
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
	// InfoFailed is the state that failed an invariant checked at
	// expansion (StatusExpandedBad).
	InfoFailed
	// InfoLevels counts the levels run went on past (Options.
	// ThroughLevels), each logged, the states there were at its end, in
	// the ring of LevelLog entries from InfoLevelLog (entry InfoLevels
	// mod LevelLog): the module writes both as it logs; a call logs
	// fewer than LevelLog, so the host, reading the ring after each
	// call, misses none.
	InfoLevels
	InfoLevelLog
)

// LevelLog is the entries of the level log (a power of 2).
const LevelLog = 64

// InfoBytes is the bytes of the info area (Module.Stats) the host reads.
const InfoBytes = 8 * statsSlots

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
	// prev is a copy of the packed state unpackCur unpacked last (see
	// gPrevValid).
	prev uint32
	// coverStmts is the counters of the model's cover statements (i64
	// each): the hits counted, then the hits pending (see coverStmtsFlow).
	coverStmts     uint32
	sb, sbPad, rec int
	// Under hash compaction (see Options.Compact) records are the trail
	// (see Module.RecordBytes), and the states wait for expansion in
	// queue chunks, found through qdir.
	qdir uint32
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
	// padding). Its parent is found from the marks: mark(p), for a kept
	// state p whose id is a multiple of 2^MarkShift, is the address of a
	// uint32: the number of states there were when p began admitting its
	// successors, or NoParent until then.
	// Under hash compaction, where states are not kept once expanded, a
	// record is the trail's: a little-endian number of RecordBytes bytes,
	// its top MarkShift bits the parent's place among the states of its
	// mark (the parent is the mark's first state plus that), the rest the
	// rule that led to the state.
	RecordBytes int
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
	// CheckAtExpansion: after its checkAtExpansion(), the module checks
	// the invariants of a state when it expands it, not when it finds
	// it: a state is then unpacked once, not twice (adash −14% of the
	// instructions, sci −9%). A state found failing one ends run with
	// StatusExpandedBad (the state in the working slots), and
	// checkFrom(id) checks the states from id on that are not yet
	// expanded (their first failing one, in the working slots, or -1):
	// a search that stops before every state is expanded must check
	// them. The first failing state in id order is the one a search
	// checking states as it finds them stops at; the host tells what
	// that search would have counted from the marks, which then also
	// keep the rules fired (markRules(id), an i64, written with the
	// mark). Only in a model whose properties are invariants alone,
	// with no cover statements or rule priorities, and
	// Options.MaxErrors at most 1 (a failed assumption decides whether
	// a state is kept, cover and liveness properties and cover
	// statements count and log as the search goes on, and the rules
	// fired before a state, counted again from its mark, are those of
	// the closures' Fire without priorities).
	CheckAtExpansion bool
}

// StartArgs are the arguments of the module's insert for a start state
// of hash h (which find(h) just did not find): under hash compaction its
// rule too, 0 (the host's trail has its start state's).
func (m *Module) StartArgs(h uint64) []uint64 {
	if m.Compact {
		return []uint64{h, 0}
	}
	return []uint64{h}
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
	// ReadAheadFrom, if not 0, is the states past which run reads ahead
	// the records of its successors' home slots (pass 2b); 0: where the
	// records outgrow recordsInCache. Tests lower it.
	ReadAheadFrom int
	// ThroughLevels: run goes on past the end of a level, logging it
	// (see InfoLevels), where it would return StatusLevel, up to
	// LevelLog-1 a call; not in a part of several (which returns at each
	// level for the host to begin the next). Each return is a
	// round trip to a translated program (~0.1 ms), once a level.
	ThroughLevels bool
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
	b.inlineGuards = make([]*instance, len(rules))
	for i, r := range rules {
		if m.HasPriorities {
			b.guards = append(b.guards, limit(g.ruleFunc(r, guardOnly)))
			ruleFns = append(ruleFns, limit(g.ruleFunc(r, bodyOnly)))
			continue
		}
		if g.inlineGuard(r) {
			b.inlineGuards[i] = &rules[i]
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
	b.atExpansionFuncs()
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
		StateBytes: m.StateBytes, RecordBytes: g.lay.rec, Rules: len(rules), Invariants: len(invs)}
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
	mod.CheckAtExpansion = b.atExpansion
	if o.Symmetry != nil {
		mod.Sym = g.lay.symA.s
	}
	return mod, nil
}

func newLayout(m *compile.Model, sym *symmetry.Plan, compact bool) layout {
	var l layout
	l.sb = m.StateBytes
	l.sbPad = (l.sb + 7) &^ 7
	// Records are not padded, and keep neither parent nor rule: a search
	// needs less memory (a counterexample's parents and rules are found
	// again, see MarkShift and the host).
	l.rec = l.sb
	if compact {
		// The trail: the rule is needed, the state being gone, and the
		// parent's place in its mark's states. 2 bytes but in models of
		// more than 2^(16-MarkShift) rules.
		l.rec = 2
		if len(m.Rules) >= 1<<(16-MarkShift) {
			l.rec = 4
		}
	}
	l.stats = 0
	l.cur = 8 * statsSlots
	l.work = l.cur + uint32(8*m.NumSlots)
	l.pack = l.work + uint32(8*m.NumSlots)
	l.prev = (l.pack + uint32(l.sbPad) + 16 + 7) &^ 7
	l.covers = l.prev + uint32(l.sbPad)
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
	// gPrevValid (i32) says that the current and the working slots hold
	// the state at lay.prev unpacked, so that unpackCur decodes only the
	// leaves of the words where the next state differs from it. Cleared
	// where anything else may write the slots: by unpack, and as run
	// begins (the host may have called anything since).
	gPrevValid uint32
	// props: the model has invariants or assumptions for new states.
	props bool
	// atExpansion: the module can check properties at expansion (see
	// Module.CheckAtExpansion), which it does while gAtExpansion is 1.
	atExpansion           bool
	gAtExpansion, gFailed uint32
	markRules             *fn // markRules(id): where the mark's rules fired are
	// the index: its directory of blocks (see segShift), 64 less its
	// depth, its depth, the slots find's last lookup probed, the scratch
	// area grow moves a block's entries to
	gDir, gDirShift, gDepth, gProbes, gScratch uint32
	// succ is the successor area's address, batch the batch's states'
	// ends of successors and flags (see run)
	succ, batch uint32
	batchStates int
	// functions
	alloc, recAddr, unpack, unpackCur, packFrom, hashAt, memeq, find, insert, grow, checkProps_ *fn
	homeAddr                                                                                    *fn
	markAddr                                                                                    *fn
	countCovers                                                                                 *fn // nil: no cover property
	canon, symBase                                                                              *fn // nil: no symmetry reduction
	gMoved                                                                                      uint32
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
	// inlineGuards are the rule instances whose guards run generates
	// (see inlineGuard), by rule; nil for the others.
	inlineGuards []*instance
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
	b.gProbes = m.addGlobal(i32, 0)
	b.gScratch = m.addGlobal(i32, 0)
	b.gTouch = m.addGlobal(i64, 0) // what run's pass 2 read, so that it is not dropped
	b.gHeap = m.addGlobal(i32, 0)  // set once the frame's size is known
	b.gAt = m.addGlobal(i32, 0)
	b.gRule = m.addGlobal(i32, 0)
	b.gInv = m.addGlobal(i32, 0)
	b.gPrevValid = m.addGlobal(i32, 0)
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
	cm := b.g.m
	b.atExpansion = len(cm.Invariants) > 0 && len(cm.Assumes)+len(cm.Covers)+len(cm.Liveness)+len(cm.CoverStmts) == 0 && !cm.HasPriorities && b.o.MaxErrors <= 1
	if b.atExpansion {
		b.gAtExpansion = m.addGlobal(i32, 0)
		b.gFailed = m.addGlobal(i32, 0)
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
	// markArea(id) -> the address of the entry, of 2^(MarkShift-shift)
	// bytes, of the 2^MarkShift states from id on (id a multiple) in the
	// area off bytes into id's chunk.
	markArea := func(name string, shift int32, off int) *fn {
		f := m.newFunc([]byte{i32}, []byte{i32})
		f.name = name
		f.get(0)
		f.i32Const(chunkBits)
		f.i32ShrU()
		f.i32Const(2)
		f.i32Shl()
		f.i32Load(l.dir)
		f.get(0)
		f.i32Const(1<<chunkBits - 1)
		f.i32And()
		f.i32Const(shift)
		f.i32ShrU()
		f.i32Add()
		f.i32Const(int32(off))
		f.i32Add()
		return f
	}
	// markAddr(id) -> the address of the mark (uint32) of the 2^MarkShift
	// states from id on: after the chunk's records and their bytes to
	// spare.
	b.markAddr = markArea("markAddr", MarkShift-2, l.rec<<chunkBits+chunkSpare)
	m.export("mark", 0, b.markAddr.idx)
	if b.atExpansion {
		// markRules(id) -> the address of the rules fired (i64) before
		// those states were expanded: after the chunk's marks.
		b.markRules = markArea("markRules", MarkShift-3, l.rec<<chunkBits+chunkSpare+4<<(chunkBits-MarkShift))
		m.export("markRules", 0, b.markRules.idx)
	}
	if b.o.Compact {
		// qAddr(id) -> the address of waiting state id's packed form.
		b.qAddr = chunkAddr("qAddr", l.qdir, l.sb)
	}

	// unpack(addr, slots): the packed state at addr into the slots at
	// slots (the current or the working state's). unpackCur(addr): into
	// the current slots and the working ones, as copyCur would, without
	// reading them again; and where they hold the state unpackCur
	// unpacked last (gPrevValid), only the leaves in the words of the
	// state that differ from it. States expanded one after the other are
	// mostly siblings, alike but for a few words: adash's 524 leaves
	// were decoded for every state, a quarter of its instructions
	// (650 M → 528 M in all; sci 946 M → 909 M).
	b.unpack = m.newFunc([]byte{i32, i32}, nil)
	b.unpack.name = "unpack"
	b.unpackCur = m.newFunc([]byte{i32}, nil)
	b.unpackCur.name = "unpackCur"
	{
		f := b.unpack
		x := f.local(i64)
		for i := range g.m.Leaves {
			f.get(1)
			b.decodeAt(f, i, x)
			f.i64Store(uint32(8 * i))
		}
		// The current or the working slots are not prev's any more.
		f.i32Const(0)
		f.globalSet(b.gPrevValid)
	}
	{
		f := b.unpackCur
		x, v := f.local(i64), f.local(i64)
		words := stateWords(g.m)
		delta := len(words) > 1 // else the one word always differs
		for _, w := range words {
			// Unless every leaf is to be decoded, those of the word only
			// where it differs from prev's.
			if delta {
				b.wordDiffers(f, w)
				f.if_()
			}
			for _, i := range w.leaves {
				f.i32Const(int32(l.cur))
				b.decodeAt(f, i, x)
				f.tee(v)
				f.i64Store(uint32(8 * i))
				f.i32Const(int32(l.work))
				f.get(v)
				f.i64Store(uint32(8 * i))
			}
			if delta {
				f.end()
			}
		}
		if delta {
			f.copyWords(func() { f.i32Const(int32(l.prev)) }, func() { f.get(0) }, l.sbPad, unrollCopy)
			f.i32Const(1)
			f.globalSet(b.gPrevValid)
		}
		f.i64Const(0)
		f.globalSet(g.gDirty)
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
	// slot where insert puts it, and how many slots it probed.
	b.find = m.newFunc([]byte{i64}, []byte{i32})
	b.find.name = "find"
	{
		f := b.find
		tag, blk, i, e, id, n, c, at := f.local(i64), f.local(i32), f.local(i32), f.local(i64), f.local(i32), f.local(i32), f.local(i32), f.local(i32)
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
		b.homeSlot(f, func() { f.get(0) }, blk, c, i)
		b.slotAddr(f, blk, i)
		f.set(at)
		// Not found: at an empty slot, or after every slot of a full
		// block (then n is past splitProbes, and insert grows it).
		f.block()
		f.loop()
		f.get(n)
		f.get(c)
		f.i32Eq()
		f.brIf(1)
		f.get(at)
		f.i64Load(0)
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
		b.nextSlot(f, blk, i, c, at)
		f.get(n)
		f.i32Const(1)
		f.i32Add()
		f.set(n)
		f.br(0)
		f.end()
		f.end()
		f.get(at)
		f.globalSet(b.gAt)
		f.get(n)
		f.globalSet(b.gProbes)
		f.i32Const(-1)
		m.export("find", 0, f.idx)
	}

	// homeAddr(h) -> the address of hash h's home slot (until an insert
	// changes the directory).
	b.homeAddr = m.newFunc([]byte{i64}, []byte{i32})
	b.homeAddr.name = "homeAddr"
	{
		f := b.homeAddr
		blk, c, i := f.local(i32), f.local(i32), f.local(i32)
		b.homeSlot(f, func() { f.get(0) }, blk, c, i)
		b.slotAddr(f, blk, i)
	}

	// place(blk, e): entry e into the block of directory entry blk, at
	// the first empty slot from its home (the block is never full).
	place := m.newFunc([]byte{i32, i64}, nil)
	place.name = "place"
	{
		f := place
		const blk, e = 0, 1
		i, c, at := f.local(i32), f.local(i32), f.local(i32)
		f.get(blk)
		f.i32Load(0)
		f.i32Const(segShift)
		f.i32Shl()
		f.set(c)
		homeIn(f, func() { f.get(e) }, func() { f.get(c) })
		f.set(i)
		b.slotAddr(f, blk, i)
		f.set(at)
		f.block()
		f.loop()
		f.get(at)
		f.i64Load(0)
		f.i64Eqz()
		f.brIf(1)
		b.nextSlot(f, blk, i, c, at)
		f.br(0)
		f.end()
		f.end()
		f.get(at)
		f.get(e)
		f.i64Store(0)
	}

	// grow(h) -> 1 if the block of h grew by growSegs segments (up to
	// maxSegs) or split in two, 0 if memory ran out (or the block is as
	// deep as blocks go). A block of maxSegs segments splits: its entries
	// whose next hash bit is 1 move to a new block, which the upper half
	// of the block's directory entries describe (the directory doubles
	// first if the block was as deep as it); the two share the block's
	// segments, and more if they need them. Either way every entry of the
	// block is placed again.
	b.grow = m.newFunc([]byte{i64}, []byte{i32})
	b.grow.name = "grow"
	{
		f := b.grow
		const h = 0
		blk, ld, nd, j, n, span, v, e := f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i64)
		segs, ones, sa, sb, more, lo, hi := f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32)
		entry := func() { // the directory entry of h into blk
			b.dirAt(f, func() {
				f.get(h)
				f.globalGet(b.gDirShift)
				f.i64ShrU()
				f.i32WrapI64()
			})
			f.set(blk)
		}
		// copyTo copies entry from to the entries [first, end) of the
		// directory (first and end pushed by their funcs).
		copyTo := func(from uint32, first, end func()) {
			f.forUpTo(j, first, end, 1, func() {
				b.dirAt(f, func() { f.get(j) })
				f.get(from)
				f.i32Const(b.dirEntry())
				f.memoryCopy()
			})
		}
		// span is the number of directory entries of a block ld deep; lo
		// the first of them.
		spans := func() {
			f.i32Const(1)
			f.globalGet(b.gDepth)
			f.get(ld)
			f.i32Sub()
			f.i32Shl()
			f.set(span)
			f.get(h)
			f.globalGet(b.gDirShift)
			f.i64ShrU()
			f.i32WrapI64()
			f.i32Const(0)
			f.get(span)
			f.i32Sub()
			f.i32And()
			f.set(lo)
		}
		// moveOut copies the block's entries, of its first segs segments,
		// to the scratch area, and clears them.
		moveOut := func() {
			f.forUpTo(j, func() { f.i32Const(0) }, func() { f.get(segs) }, 1, func() {
				f.globalGet(b.gScratch)
				f.get(j)
				f.i32Const(segShift + 3)
				f.i32Shl()
				f.i32Add()
				b.segAt(f, blk, j)
				f.i32Const(segBytes)
				f.memoryCopy()
				b.segAt(f, blk, j)
				f.i32Const(0)
				f.i32Const(segBytes)
				f.memoryFill()
			})
		}
		// eachMoved runs body for each entry moved out (in local e).
		eachMoved := func(body func()) {
			f.get(segs)
			f.i32Const(segShift + 3)
			f.i32Shl()
			f.set(n)
			f.forUpTo(j, func() { f.i32Const(0) }, func() { f.get(n) }, 8, func() {
				f.globalGet(b.gScratch)
				f.get(j)
				f.i32Add()
				f.i64Load(0)
				f.tee(e)
				f.i64Eqz()
				f.i32Eqz()
				f.if_()
				body()
				f.end()
			})
		}
		// allocSegs allocates more segments, aligned, at v; 0 returned if
		// memory ran out.
		allocSegs := func() {
			b.alignHeap(f, segBytes)
			f.get(more)
			f.i32Const(segShift + 3)
			f.i32Shl()
			f.call(b.alloc.idx)
			f.tee(v)
			f.i32Eqz()
			f.if_()
			f.i32Const(0)
			f.return_()
			f.end()
		}
		entry()
		f.get(blk)
		f.i32Load(4)
		f.set(ld)
		if b.leastSegs() < maxSegs {
			f.get(blk)
			f.i32Load(0)
			f.tee(segs)
			f.i32Const(maxSegs)
			f.i32LtU()
			f.if_()
			// growSegs segments more (at most maxSegs), every entry placed
			// again, and the entry copied to the block's others.
			f.i32Const(maxSegs)
			f.get(segs)
			f.i32Sub()
			f.tee(more)
			f.i32Const(growSegs)
			f.get(more)
			f.i32Const(growSegs)
			f.i32LtU()
			f.select_()
			f.set(more)
			allocSegs()
			moveOut()
			f.forUpTo(j, func() { f.i32Const(0) }, func() { f.get(more) }, 1, func() {
				f.get(blk)
				f.get(segs)
				f.get(j)
				f.i32Add()
				f.i32Const(2)
				f.i32Shl()
				f.i32Add()
				f.get(v)
				f.get(j)
				f.i32Const(segShift + 3)
				f.i32Shl()
				f.i32Add()
				f.i32Store(headSegs)
			})
			f.get(blk)
			f.get(segs)
			f.get(more)
			f.i32Add()
			f.i32Store(0)
			spans()
			copyTo(blk, func() { f.get(lo) }, func() {
				f.get(lo)
				f.get(span)
				f.i32Add()
			})
			eachMoved(func() {
				f.get(blk)
				f.get(e)
				f.call(place.idx)
			})
			f.i32Const(1)
			f.return_()
			f.end()
		}
		f.get(ld)
		f.i32Const(maxBlockDepth)
		f.i32GeU()
		f.if_()
		f.i32Const(0)
		f.return_()
		f.end()
		// The segments each half needs (sa, sb: room for a third more
		// than it holds, at least leastSegs, from how many entries go to
		// the new block: ones); more is how many the block does not have.
		// In the exact index, maxSegs each.
		if b.leastSegs() < maxSegs {
			f.i32Const(0)
			f.set(ones)
			f.i32Const(0)
			f.set(n) // entries
			f.forUpTo(j, func() { f.i32Const(0) }, func() { f.i32Const(maxSegs << segShift) }, 1, func() {
				b.slotAddr(f, blk, j)
				f.i64Load(0)
				f.tee(e)
				f.i64Eqz()
				f.i32Eqz()
				f.if_()
				f.get(n)
				f.i32Const(1)
				f.i32Add()
				f.set(n)
				f.get(ones)
				shiftDown(f, e, 63, ld) // its first ld+1 bits
				f.i32Const(1)
				f.i32And()
				f.i32Add()
				f.set(ones)
				f.end()
			})
			segsFor(f, func() {
				f.get(n)
				f.get(ones)
				f.i32Sub()
			}, b.leastSegs())
			f.set(sa)
			segsFor(f, func() { f.get(ones) }, b.leastSegs())
			f.set(sb)
		} else {
			f.i32Const(maxSegs)
			f.set(sa)
			f.i32Const(maxSegs)
			f.set(sb)
		}
		f.get(sa)
		f.get(sb)
		f.i32Add()
		f.i32Const(maxSegs)
		f.i32Sub()
		f.set(more)
		f.get(ld)
		f.globalGet(b.gDepth)
		f.i32Eq()
		f.if_()
		// The directory doubles: each entry twice; blk is then the
		// entry of h in the new one.
		f.i32Const(1)
		f.globalGet(b.gDepth)
		f.i32Shl()
		f.set(n)
		b.alignHeap(f, b.dirEntry())
		f.get(n)
		f.i32Const(b.dirShift() + 1)
		f.i32Shl()
		f.call(b.alloc.idx)
		f.tee(nd)
		f.i32Eqz()
		f.if_()
		f.i32Const(0)
		f.return_()
		f.end()
		f.forUpTo(j, func() { f.i32Const(0) }, func() { f.get(n) }, 1, func() {
			for k := int32(0); k < 2; k++ {
				f.get(nd)
				f.get(j)
				f.i32Const(b.dirShift() + 1)
				f.i32Shl()
				f.i32Add()
				if k > 0 {
					f.i32Const(b.dirEntry())
					f.i32Add()
				}
				b.dirAt(f, func() { f.get(j) })
				f.i32Const(b.dirEntry())
				f.memoryCopy()
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
		entry()
		f.end()
		f.get(more)
		f.if_()
		allocSegs()
		f.end()
		f.i32Const(maxSegs)
		f.set(segs)
		moveOut()
		// The new block's entry (in the scratch area, after the moved
		// entries): the block's segments past its first sa, then the
		// new ones; the block's own keeps its first sa. (In the exact
		// index sa and sb are maxSegs: the new block is the new
		// segments, and its entry needs the first alone; the others are
		// written to the scratch area past it.)
		f.forUpTo(j, func() { f.i32Const(0) }, func() { f.get(sb) }, 1, func() {
			f.globalGet(b.gScratch)
			f.get(j)
			f.i32Const(2)
			f.i32Shl()
			f.i32Add()
			f.get(j)
			f.get(sa)
			f.i32Add()
			f.tee(n)
			f.i32Const(maxSegs)
			f.i32LtU()
			f.ifResult(i32)
			b.segAt(f, blk, n)
			f.else_()
			f.get(v)
			f.get(n)
			f.i32Const(maxSegs)
			f.i32Sub()
			f.i32Const(segShift + 3)
			f.i32Shl()
			f.i32Add()
			f.end()
			f.i32Store(maxSegs*segBytes + headSegs)
		})
		// Both blocks one deeper; the lower half of the block's entries
		// keep it, the upper half describe the new one.
		f.get(ld)
		f.i32Const(1)
		f.i32Add()
		f.set(ld)
		f.globalGet(b.gScratch)
		f.set(nd) // the new entry, less maxSegs*segBytes
		for _, x := range [][3]uint32{{blk, sa, 0}, {nd, sb, maxSegs * segBytes}} {
			f.get(x[0])
			f.get(x[1])
			f.i32Store(x[2])
			f.get(x[0])
			f.get(ld)
			f.i32Store(x[2] + 4)
		}
		f.get(nd)
		f.i32Const(maxSegs * segBytes)
		f.i32Add()
		f.set(nd)
		f.get(ld)
		f.i32Const(1)
		f.i32Sub()
		f.set(ld)
		spans() // of the block before the split
		f.get(span)
		f.i32Const(1)
		f.i32ShrU()
		f.get(lo)
		f.i32Add()
		f.set(hi) // the first of the upper half
		copyTo(blk, func() { f.get(lo) }, func() { f.get(hi) })
		copyTo(nd, func() { f.get(hi) }, func() {
			f.get(lo)
			f.get(span)
			f.i32Add()
		})
		// The entries back, each to the block of its next bit.
		b.dirAt(f, func() { f.get(lo) })
		f.set(blk)
		b.dirAt(f, func() { f.get(hi) })
		f.set(nd)
		eachMoved(func() {
			f.get(nd)
			f.get(blk)
			shiftDown(f, e, 63, ld) // its first ld+1 bits
			f.i32Const(1)
			f.i32And()
			f.select_()
			f.get(e)
			f.call(place.idx)
		})
		f.i32Const(1)
	}

	// insert(h) -> 0, or 1 if memory ran out: adds the state in the pack
	// buffer, which find(h) just did not find, found by expanding the
	// state at the head (or a start state).
	// Under hash compaction insert(h, rule) -> the same, and the state
	// goes to the queue, its rule and the head's place among its mark's
	// states to the trail.
	params := []byte{i64}
	if b.o.Compact {
		params = append(params, i32)
	}
	b.insert = m.newFunc(params, []byte{i32})
	b.insert.name = "insert"
	{
		f := b.insert
		id, rec, c := f.local(i32), f.local(i32), f.local(i32)
		// Where the state would sit splitProbes or more past its home,
		// or in a full block, the block grows, and find places it again
		// (in either half if it split, which may grow in its turn).
		f.block()
		f.loop()
		f.globalGet(b.gProbes)
		f.i32Const(splitProbes)
		f.i32LtU()
		f.brIf(1)
		f.get(0)
		f.call(b.grow.idx)
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
		ifMultiple(f, func() { f.get(id) }, chunkBits)
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
		marks := 4 << (chunkBits - MarkShift)
		if b.atExpansion {
			marks += 8 << (chunkBits - MarkShift) // their rules fired
		}
		newChunk(l.rec<<chunkBits + chunkSpare + marks)
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
			newChunk(l.sb<<chunkBits + chunkSpare)
			f.end()
			setChunk(l.qdir)
		}
		f.end()
		// No mark yet (NoParent reads as above every id): the state's
		// expansion writes it (see run).
		ifMultiple(f, func() { f.get(id) }, MarkShift)
		f.get(id)
		f.call(b.markAddr.idx)
		f.i32Const(-1)
		f.i32Store(0)
		f.end()
		f.get(id)
		f.call(b.recAddr.idx)
		f.set(rec)
		if b.o.Compact {
			// The record's word runs into the next record, written after
			// this one (the last of a chunk has bytes to spare); the
			// state's words run into the next state's.
			f.get(rec)
			f.globalGet(b.gHead)
			f.i32Const(1<<MarkShift - 1)
			f.i32And()
			f.i32Const(int32(8*l.rec - MarkShift))
			f.i32Shl()
			f.get(1)
			f.i32Or()
			f.i32Store(0)
			f.get(id)
			f.call(b.qAddr.idx)
			f.set(rec)
			f.copyWords(func() { f.get(rec) }, func() { f.i32Const(int32(l.pack)) }, l.sbPad, unrollCopy)
			f.globalGet(b.gAt)
			b.key(f, func() { f.get(0) })
			f.i64Store(0)
		} else {
			// Whole words: the bytes past the state are the next
			// record's, written when it is added (the last of a chunk has
			// chunkSpare bytes to spare).
			f.copyWords(func() { f.get(rec) }, func() { f.i32Const(int32(l.pack)) }, l.sbPad, unrollCopy)
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
			f.i64Store(0)
		}
		f.get(id)
		f.i32Const(1)
		f.i32Add()
		f.globalSet(b.gN)
		f.i32Const(0)
		m.export("insert", 0, f.idx)
	}

	// init() -> 0, or 1 if memory ran out: a directory of two blocks, and
	// the scratch area grow uses.
	{
		f := m.newFunc(nil, []byte{i32})
		a := f.local(i32)
		f.i32Const(maxSegs*segBytes + 1<<listShift)
		f.call(b.alloc.idx)
		f.tee(a)
		f.globalSet(b.gScratch)
		b.alignHeap(f, b.dirEntry())
		f.i32Const(2 * b.dirEntry())
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
			b.alignHeap(f, segBytes)
			f.i32Const(b.leastSegs() * segBytes)
			f.call(b.alloc.idx)
			f.tee(a)
			f.i32Eqz()
			f.if_()
			f.i32Const(1)
			f.return_()
			f.end()
			e := uint32(int32(k) * b.dirEntry())
			f.globalGet(b.gDir)
			f.i32Const(b.leastSegs())
			f.i32Store(e)
			f.globalGet(b.gDir)
			f.i32Const(1)
			f.i32Store(e + 4)
			listed := b.leastSegs() // the segments the entry lists
			if b.contiguous() {
				listed = 1
			}
			for j := int32(0); j < listed; j++ {
				f.globalGet(b.gDir)
				f.get(a)
				f.i32Const(j * segBytes)
				f.i32Add()
				f.i32Store(e + headSegs + uint32(4*j))
			}
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
		if b.atExpansion {
			f.i32Const(int32(l.stats + 8*InfoFailed))
			f.globalGet(b.gFailed)
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

// ifMultiple opens an if whose body runs when the i32 x pushes is a
// multiple of 2^shift.
func ifMultiple(f *fn, x func(), shift int) {
	x()
	f.i32Const(1<<shift - 1)
	f.i32And()
	f.i32Eqz()
	f.if_()
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

// contiguous says whether a block's segments are contiguous, its
// directory entry holding the first's address alone: in the exact index,
// whose blocks never grow (see segShift).
func (b *builder) contiguous() bool { return !b.o.Compact }

// dirShift is the log2 of a directory entry's bytes (see headSegs).
func (b *builder) dirShift() int32 {
	if b.contiguous() {
		return baseShift
	}
	return listShift
}

// dirEntry is a directory entry's bytes.
func (b *builder) dirEntry() int32 { return 1 << b.dirShift() }

// leastSegs is the fewest segments a block has: under hash compaction
// minSegs (blocks grow), else maxSegs (blocks only split; see segShift).
func (b *builder) leastSegs() int32 {
	if b.o.Compact {
		return minSegs
	}
	return maxSegs
}

// alignHeap aligns the heap's end to n (a power of 2), so that what alloc
// gives next is aligned: segments to segBytes (see nextSlot), directories
// to dirEntry (an entry in one cache line).
func (b *builder) alignHeap(f *fn, n int32) {
	f.globalGet(b.gHeap)
	f.i32Const(n - 1)
	f.i32Add()
	f.i32Const(-n)
	f.i32And()
	f.globalSet(b.gHeap)
}

// dirAt pushes the address of the directory entry k pushes.
func (b *builder) dirAt(f *fn, k func()) {
	f.globalGet(b.gDir)
	k()
	f.i32Const(b.dirShift())
	f.i32Shl()
	f.i32Add()
}

// homeSlot sets local blk to the directory entry of the hash h pushes
// (by the hash's top bits), local c to its block's slots, and local i to
// the hash's home slot in it.
func (b *builder) homeSlot(f *fn, h func(), blk, c, i uint32) {
	b.dirAt(f, func() {
		h()
		f.globalGet(b.gDirShift)
		f.i64ShrU()
		f.i32WrapI64()
	})
	f.tee(blk)
	f.i32Load(0)
	f.i32Const(segShift)
	f.i32Shl()
	f.set(c)
	homeIn(f, h, func() { f.get(c) })
	f.set(i)
}

// homeIn pushes the home slot, of the c slots c pushes, of the hash (or
// index entry) x pushes: its bits 32-63 (which entries keep) times an odd
// constant, so that the bits a block's hashes share (the top ones, which
// chose the block) weigh least, scaled to c.
func homeIn(f *fn, x, c func()) {
	x()
	f.i64Const(32)
	f.i64ShrU()
	f.i32WrapI64()
	f.i32Const(-0x61c88647) // 2^32 / the golden ratio
	f.i32Mul()
	f.i64ExtendI32U()
	c()
	f.i64ExtendI32U()
	f.i64Mul()
	f.i64Const(32)
	f.i64ShrU()
	f.i32WrapI64()
}

// slotAddr pushes the address of slot i (a local) of the block of
// directory entry blk (a local).
func (b *builder) slotAddr(f *fn, blk, i uint32) {
	if b.contiguous() {
		// the first segment's address plus 8 i
		f.get(blk)
		f.i32Load(headSegs)
		f.get(i)
		f.i32Const(3)
		f.i32Shl()
		f.i32Add()
		return
	}
	b.segAddr(f, blk, func() {
		f.get(i)
		f.i32Const(segShift)
		f.i32ShrU()
	})
	f.get(i)
	f.i32Const(segSlots - 1)
	f.i32And()
	f.i32Const(3)
	f.i32Shl()
	f.i32Add()
}

// segAt pushes the address of segment j (a local) of the block of
// directory entry blk (a local).
func (b *builder) segAt(f *fn, blk, j uint32) { b.segAddr(f, blk, func() { f.get(j) }) }

// segAddr pushes the address of the segment k pushes of the block of
// directory entry blk (a local): listed in the entry, or in the exact
// index k segments past the first.
func (b *builder) segAddr(f *fn, blk uint32, k func()) {
	f.get(blk)
	if b.contiguous() {
		f.i32Load(headSegs)
		k()
		f.i32Const(segShift + 3)
		f.i32Shl()
		f.i32Add()
		return
	}
	k()
	f.i32Const(2)
	f.i32Shl()
	f.i32Add()
	f.i32Load(headSegs)
}

// nextSlot moves local i to the next of c slots (a local) of the block of
// directory entry blk, wrapping, and local at to its address: the next
// word, but past the end of a segment (segments are segBytes-aligned) the
// next segment's first.
func (b *builder) nextSlot(f *fn, blk, i, c, at uint32) {
	f.get(i)
	f.i32Const(1)
	f.i32Add()
	f.set(i)
	f.get(at)
	f.i32Const(8)
	f.i32Add()
	f.tee(at)
	f.i32Const(segBytes - 1)
	f.i32And()
	f.i32Eqz()
	f.if_()
	f.get(i)
	f.get(c)
	f.i32Eq()
	f.if_()
	f.i32Const(0)
	f.set(i)
	f.end()
	b.slotAddr(f, blk, i)
	f.set(at)
	f.end()
}

// segsFor pushes the segments a block of the entries count pushes is
// given when it splits: room for about a third more (count/48, rounded
// up), at least least, at most maxSegs.
func segsFor(f *fn, count func(), least int32) {
	n := f.local(i32)
	count()
	f.i32Const(47)
	f.i32Add()
	f.i32Const(1366) // 2^16/48
	f.i32Mul()
	f.i32Const(16)
	f.i32ShrU()
	f.tee(n)
	f.i32Const(least)
	f.get(n)
	f.i32Const(least)
	f.i32GtU()
	f.select_()
	f.tee(n)
	f.i32Const(maxSegs)
	f.get(n)
	f.i32Const(maxSegs)
	f.i32LtU()
	f.select_()
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
	j, k, st, diff := f.local(i32), f.local(i32), f.local(i32), f.local(i32)
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
	logged := f.local(i32) // levels gone on past in this call
	// The slots may have been written since the last call (see
	// gPrevValid).
	f.i32Const(0)
	f.globalSet(b.gPrevValid)
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
	if b.o.ThroughLevels { // (a part of several returned above)
		// Logged, and on to the next level, while the log has room.
		f.get(logged)
		f.i32Const(LevelLog - 1)
		f.i32LtU()
		f.if_()
		f.get(logged)
		f.i32Const(1)
		f.i32Add()
		f.set(logged)
		f.i32Const(int32(l.stats + 8*InfoLevels))
		f.i64Load(0)
		f.i32WrapI64()
		f.i32Const(LevelLog - 1)
		f.i32And()
		f.i32Const(3)
		f.i32Shl()
		f.globalGet(b.gN)
		f.i64ExtendI32U()
		f.i64Store(l.stats + 8*InfoLevelLog)
		bumpInfo(f, l.stats+8*InfoLevels)
		f.else_()
	}
	f.i32Const(StatusLevel)
	f.return_()
	if b.o.ThroughLevels {
		f.end()
	}
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
		// The working slots start as the current ones, and each rule leaves
		// them so: packFrom writes back the slots a rule changed, and a rule
		// whose assume statement failed has them all copied again.
		f.call(b.unpackCur.idx)
		if b.atExpansion {
			// The working slots are the state's: its invariants now, not
			// when it was found (see Module.CheckAtExpansion).
			f.globalGet(b.gAtExpansion)
			f.if_()
			f.call(b.checkProps_.idx)
			f.if_()
			f.globalGet(b.gHead)
			f.get(j)
			f.i32Add()
			f.globalSet(b.gFailed)
			f.i32Const(StatusExpandedBad)
			f.return_()
			f.end()
			f.end()
		}
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
			if in := b.inlineGuards[r]; in != nil {
				g.guardInline(f, *in)
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
			b.successor(f, int32(r), changed, end, curRec, diff)
			f.else_()
			f.get(st)
			f.i32Const(statusAssumed)
			f.i32Eq()
			f.if_()
			f.call(g.copyCur.idx)
			f.end()
			f.end()
			if b.inlineGuards[r] != nil {
				f.end()
			}
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
	touchAll := func() {
		// Without a branch (a self-loop's reads address 0), so that as
		// many reads as the core can wait on at once are under way.
		b.eachSuccessor(f, p, end, func() { b.touchHome(f, touch, p) })
	}
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
			b.unlessSelfLoop(f, p, func() {
				f.get(p)
				f.i64Load(uint32(l.sbPad))
				f.set(h)
				b.owner(f, h)
				f.globalGet(b.gSelf)
				f.i32Eq()
				f.if_()
				b.touchHome(f, touch, p)
				f.end()
			})
		})
		f.end()
	}
	if !b.o.Compact {
		// Pass 2b: where a successor's home slot holds its tag, the first
		// word of that state's record, which find compares (the slots
		// are in the cache, or on their way, after pass 2). Only once
		// the records outgrow the caches (mcslock2, 3.2 M states of 9
		// bytes: min 1.28 → 1.16 s, median 1.47 → 1.30): in a search
		// that fits them it costs instructions for nothing (mcslock1,
		// 5 MB of records: +4.7%). In a part of several, successors
		// other parts own are read in this part's index too (its own
		// ids: harmless, and rare past a tag's test).
		from := b.o.ReadAheadFrom
		if from == 0 {
			from = recordsInCache / b.g.lay.rec
		}
		f.globalGet(b.gN)
		f.i32Const(int32(from))
		f.i32GtU()
		f.if_()
		b.eachSuccessor(f, p, end, func() {
			b.unlessSelfLoop(f, p, func() {
				f.get(p)
				f.i32Load(uint32(l.sbPad + 12))
				f.i64Load(0)
				f.tee(h)
				f.get(p)
				f.i64Load(uint32(l.sbPad))
				f.i64Xor()
				f.i64Const(^int64(idMask))
				f.i64And()
				f.i64Eqz()
				f.get(h)
				f.i64Eqz()
				f.i32Eqz()
				f.i32And()
				f.if_()
				f.get(touch)
				f.get(h)
				f.i32WrapI64()
				f.i32Const(1)
				f.i32Sub()
				f.call(b.recAddr.idx)
				f.i64Load(0)
				f.i64Xor()
				f.set(touch)
				f.end()
			})
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
		// A mark: the successors this state admits are numbered from here.
		ifMultiple(f, func() { f.globalGet(b.gHead) }, MarkShift)
		f.globalGet(b.gHead)
		f.call(b.markAddr.idx)
		f.globalGet(b.gN)
		f.i32Store(0)
		if b.atExpansion {
			f.globalGet(b.gHead)
			f.call(b.markRules.idx)
			f.globalGet(b.gRules)
			f.i64Store(0)
		}
		f.end()
		// its successors, from where the state before it's ended
		f.forUpTo(p, func() { f.get(p) }, func() { f.get(end) }, int32(b.succStride()), func() {
			// Rules fired are counted here: a violation stops the count where
			// the closures' stops.
			f.globalGet(b.gRules)
			f.i64Const(1)
			f.i64Add()
			f.globalSet(b.gRules)
			b.addCounted(f, p, uint32(l.sbPad+16)) // its cover statements' hits
			// Unless the successor is the state itself (see
			// unlessSelfLoop; nor is that edge logged for liveness: it
			// adds no reachability).
			b.unlessSelfLoop(f, p, func() {
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
			ifMultiple(f, func() { f.globalGet(b.gHead) }, chunkBits)
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

// unlessSelfLoop generates body, run unless the successor at the address
// in local p is the state being expanded. That one is met again (its
// record is the current state's, or under symmetry its representative
// is), so its lookup is skipped, and its slot not read: a rule that
// leaves the state as it was is common (cache3 52% of the rules fired,
// adash 74%), and each lookup is a cache miss or two.
func (b *builder) unlessSelfLoop(f *fn, p uint32, body func()) {
	f.get(p)
	f.i32Load(uint32(b.g.lay.sbPad + 12))
	f.if_()
	body()
	f.end()
}

// touchHome generates the read of the home slot pass 1 noted for the
// successor at the address in local p (see successor), xored into local
// touch: run's pass 2, so that the lookups after it find their slots in
// the cache.
func (b *builder) touchHome(f *fn, touch, p uint32) {
	f.get(touch)
	f.get(p)
	f.i32Load(uint32(b.g.lay.sbPad + 12))
	f.i64Load(0)
	f.i64Xor()
	f.set(touch)
}

// touchSlot generates the read of the home slot of the entry at the
// address in local at (a packed state, then its hash), xored into local
// touch, as touchHome for the entries a part receives.
func (b *builder) touchSlot(f *fn, touch, at uint32) {
	f.get(touch)
	f.get(at)
	f.i64Load(uint32(b.g.lay.sbPad))
	f.call(b.homeAddr.idx)
	f.i64Load(0)
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
// property to check, or while they are checked at expansion.
func (b *builder) newStateProps(f *fn) {
	if !b.props {
		f.i32Const(0) // no need to unpack
		return
	}
	l := b.g.lay
	if b.atExpansion {
		f.globalGet(b.gAtExpansion)
		f.ifResult(i32)
		f.i32Const(0)
		f.else_()
	}
	f.i32Const(int32(l.pack))
	f.i32Const(int32(l.work))
	f.call(b.unpack.idx)
	f.call(b.checkProps_.idx)
	if b.atExpansion {
		f.end()
	}
}

// atExpansionFuncs generates, in a module that can check properties at
// expansion (see Module.CheckAtExpansion), checkAtExpansion(), which
// makes it, and checkFrom(id) -> the first state from id on that fails
// an invariant (left in the working slots), or -1.
func (b *builder) atExpansionFuncs() {
	if !b.atExpansion {
		return
	}
	m, l := b.g.mod, b.g.lay
	{
		f := m.newFunc(nil, nil)
		f.name = "checkAtExpansion"
		f.i32Const(1)
		f.globalSet(b.gAtExpansion)
		m.export("checkAtExpansion", 0, f.idx)
	}
	f := m.newFunc([]byte{i32}, []byte{i32})
	f.name = "checkFrom"
	id := f.local(i32)
	f.forUpTo(id, func() { f.get(0) }, func() { f.globalGet(b.gN) }, 1, func() {
		f.get(id)
		if b.o.Compact {
			f.call(b.qAddr.idx) // not yet expanded: still in the queue
		} else {
			f.call(b.recAddr.idx)
		}
		f.i32Const(int32(l.work))
		f.call(b.unpack.idx)
		f.call(b.checkProps_.idx)
		f.if_()
		f.get(id)
		f.return_()
		f.end()
	})
	f.i32Const(-1)
	m.export("checkFrom", 0, f.idx)
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
// state padded to 8, its hash (i64), its rule (i32), its home slot's
// address (i32; 0 where it is the current state: see unlessSelfLoop),
// then its cover statements' hits.
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
func (b *builder) successor(f *fn, r int32, changed, end, curRec, diff uint32) {
	l := b.g.lay
	f.i32Const(1)
	f.set(diff)
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
	f.tee(diff)
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
		// (Not the current state, unless a reduction could move a
		// representative: neither exact nor heuristic reduction does,
		// but a self-loop is decided on what is looked up.)
		f.i32Const(1)
		f.set(diff)
		f.end()
	}
	// A successor that is the current state (its representative, under
	// symmetry) is met again: it is not hashed, nor looked up (see
	// unlessSelfLoop). Another's hash is noted, and the address of its
	// home slot (for pass 2: no insert comes between): 0 for a self-loop.
	f.get(diff)
	f.if_()
	f.get(end)
	f.get(end)
	f.call(b.hashAt.idx)
	f.i64Store(uint32(l.sbPad))
	f.get(end)
	f.get(end)
	f.i64Load(uint32(l.sbPad))
	f.call(b.homeAddr.idx)
	f.i32Store(uint32(l.sbPad + 12))
	f.else_()
	f.get(end)
	f.i32Const(0)
	f.i32Store(uint32(l.sbPad + 12))
	f.end()
	f.get(end)
	f.i32Const(r)
	f.i32Store(uint32(l.sbPad + 8))
	b.takePending(f, end, uint32(l.sbPad+16), false)
	f.get(end)
	f.i32Const(int32(b.succStride()))
	f.i32Add()
	f.set(end)
}

// decodeAt pushes leaf i's value (undef where its code is 0) from the
// packed state whose address is local 0.
func (b *builder) decodeAt(f *fn, i int, x uint32) {
	lf := &b.g.m.Leaves[i]
	f.get(0)
	f.i64Load(uint32(lf.Offset >> 3))
	if sh := int64(lf.Offset & 7); sh > 0 {
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
}

// wordDiffers pushes whether unpackCur must decode the leaves of word w
// of the packed state whose address is local 0: gPrevValid is clear, or
// the word differs from prev's.
func (b *builder) wordDiffers(f *fn, w stateWord) {
	f.globalGet(b.gPrevValid)
	f.i32Eqz()
	for _, at := range []func(){func() { f.get(0) }, func() { f.i32Const(int32(b.g.lay.prev)) }} {
		at()
		f.i32Load(uint32(w.off))
		if w.mask != 0 {
			f.i32Const(int32(w.mask))
			f.i32And()
		}
	}
	f.i32Ne()
	f.i32Or()
}

// stateWord is a word of a packed state that unpackCur compares with the
// state before: the 4 bytes at off (masked by mask, unless 0, where the
// state ends before them), and the leaves with a bit in them.
type stateWord struct {
	off    int
	mask   uint32
	leaves []int
}

// stateWords are the words that cover m's packed state, every 4 bytes,
// the last masked to the state's bytes (records follow each other: what
// is past a state is the next one). Words of 4 bytes rather than 8:
// adash 538 M → 528 M instructions, sci 913 M → 909 M, mcslock1 (9
// bytes) 1,123 M → 1,112 M.
func stateWords(m *compile.Model) []stateWord {
	sb := m.StateBytes
	ws := []stateWord{{off: 0}}
	for k := 4; k < sb; k += 4 {
		ws = append(ws, stateWord{off: k})
	}
	if last := &ws[len(ws)-1]; sb-last.off < 4 {
		last.mask = 1<<(8*uint(max(sb-last.off, 0))) - 1
	}
	seen := make([]bool, len(m.Leaves))
	for i := range ws {
		lo, hi := 8*ws[i].off, 8*ws[i].off+32
		for j, lf := range m.Leaves {
			if lf.Offset < hi && lf.Offset+lf.Bits > lo {
				ws[i].leaves = append(ws[i].leaves, j)
				seen[j] = true
			}
		}
	}
	// A leaf of no bits (it has one value) is decoded with the first
	// word, so at least where every leaf is.
	for j, ok := range seen {
		if !ok {
			ws[0].leaves = append(ws[0].leaves, j)
		}
	}
	return ws
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
