package wasmgen

// This file generates the search itself: states packed as core/compile
// packs them, hashed as core/state hashes them, an open-addressed table of
// ids (a 24-bit hash tag and the id, as store.Exact), the states in
// chunks in id order, which is BFS order, so the states not yet expanded
// are the queue, and per state its parent and rule (the trail).

import (
	"fmt"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
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
	chunkBits  = 14 // states per chunk: 2^chunkBits
	maxChunks  = 1 << 16
	idBits     = 40
	idMask     = 1<<idBits - 1
	firstTable = 1 << 10
	statsSlots = 16
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
)

// layout is where things are in linear memory.
type layout struct {
	stats, cur, work, pack, dir, frame uint32
	sb, sbPad, rec                     int
}

// Module is a generated module and what its host needs to drive it.
type Module struct {
	Code []byte
	// Exports are the exported functions' signatures, by name.
	Exports map[string]Signature
	// Addresses: the info area (InfoStates...), the current state's and
	// the working state's slots (8 bytes each), the packed state buffer.
	Stats, Cur, Work, Pack uint32
	StateBytes             int
	// RecordBytes is a stored state's record: the packed state padded to
	// 8 bytes, then its parent id and rule (uint32 each).
	RecordBytes int
	// Rules and Invariants are the instances generated, in the closures'
	// order.
	Rules, Invariants int
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
}

// Generate compiles m to a module, or returns an *Unsupported error.
func Generate(m *compile.Model, o Options) (mod *Module, err error) {
	g := &gen{m: m, ck: m.Checked, info: m.Checked.Info, env: map[*murphi.Object]binding{}, mod: newModule(),
		procs: map[procKey]*procFn{}, generating: map[*murphi.ProcDecl]bool{}}
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
	rules, invs, assumes := g.expand()
	if len(rules) != len(m.Rules) || len(invs) != len(m.Invariants) || len(assumes) != len(m.Assumes) {
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
	g.lay = newLayout(m)
	b := &builder{g: g, o: o}
	b.globals()
	b.runtime()
	var ruleFns, invFns, assumeFns []*fn
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
		ruleFns = append(ruleFns, limit(g.ruleFunc(r)))
	}
	for _, p := range invs {
		invFns = append(invFns, limit(g.propFunc(p)))
	}
	for _, p := range assumes {
		assumeFns = append(assumeFns, limit(g.propFunc(p)))
	}
	b.checkProps(invFns, assumeFns)
	b.run(ruleFns)
	b.successors(ruleFns)
	limit(nil)
	heap := (g.lay.frame + uint32(8*g.frame) + 15) &^ 7
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
	return &Module{Code: g.mod.bytes(), Exports: g.mod.signatures(), Stats: g.lay.stats, Cur: g.lay.cur, Work: g.lay.work, Pack: g.lay.pack,
		StateBytes: m.StateBytes, RecordBytes: g.lay.rec, Rules: len(rules), Invariants: len(invs)}, nil
}

func newLayout(m *compile.Model) layout {
	var l layout
	l.sb = m.StateBytes
	l.sbPad = (l.sb + 7) &^ 7
	l.rec = l.sbPad + 8
	l.stats = 0
	l.cur = 8 * statsSlots
	l.work = l.cur + uint32(8*m.NumSlots)
	l.pack = l.work + uint32(8*m.NumSlots)
	l.dir = (l.pack + uint32(l.sbPad) + 16 + 7) &^ 7
	l.frame = l.dir + 4*maxChunks
	return l
}

// builder generates the runtime functions.
type builder struct {
	g *gen
	o Options
	// globals
	gN, gHead, gLevelEnd, gRules, gTable, gMask, gHeap, gAt, gRule, gInv uint32
	// functions
	alloc, recAddr, unpack, pack, hashAt, memeq, find, insert, grow, checkProps_ *fn
}

func (b *builder) globals() {
	m := b.g.mod
	b.gN = m.addGlobal(i32, 0)
	b.gHead = m.addGlobal(i32, 0)
	b.gLevelEnd = m.addGlobal(i32, 0)
	b.gRules = m.addGlobal(i64, 0)
	b.gTable = m.addGlobal(i32, 0)
	b.gMask = m.addGlobal(i32, 0)
	b.gHeap = m.addGlobal(i32, 0) // set once the frame's size is known
	b.gAt = m.addGlobal(i32, 0)
	b.gRule = m.addGlobal(i32, 0)
	b.gInv = m.addGlobal(i32, 0)
}

// runtime generates the search's building blocks (the rule and property
// functions come after them, the driver last).
func (b *builder) runtime() {
	g := b.g
	m := g.mod
	l := g.lay

	// alloc(size) -> address, or 0 if memory cannot grow.
	b.alloc = m.newFunc([]byte{i32}, []byte{i32})
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

	// recAddr(id) -> the record's address.
	b.recAddr = m.newFunc([]byte{i32}, []byte{i32})
	{
		f := b.recAddr
		f.get(0)
		f.i32Const(chunkBits)
		f.i32ShrU()
		f.i32Const(2)
		f.i32Shl()
		f.i32Load(l.dir)
		f.get(0)
		f.i32Const(1<<chunkBits - 1)
		f.i32And()
		f.i32Const(int32(l.rec))
		f.i32Mul()
		f.i32Add()
	}

	// unpack(addr): the packed state at addr into the current slots.
	b.unpack = m.newFunc([]byte{i32}, nil)
	{
		f := b.unpack
		x := f.local(i64)
		for i := range g.m.Leaves {
			lf := &g.m.Leaves[i]
			off := uint32(lf.Offset >> 3)
			sh := int64(lf.Offset & 7)
			f.i32Const(int32(l.cur + uint32(8*i)))
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
			f.i64Store(0)
		}
	}

	// pack(): the working slots into the pack buffer (core/compile's Pack).
	b.pack = m.newFunc(nil, nil)
	{
		f := b.pack
		acc, e, v := f.local(i64), f.local(i64), f.local(i64)
		f.i64Const(0)
		f.set(acc)
		nb, pos := 0, uint32(0)
		for i := range g.m.Leaves {
			lf := &g.m.Leaves[i]
			f.i32Const(int32(l.work + uint32(8*i)))
			f.i64Load(0)
			f.tee(v)
			f.i64Const(undef)
			f.i64Eq()
			f.ifResult(i64)
			f.i64Const(0)
			f.else_()
			encodeLeaf(f, lf, v)
			f.end()
			f.tee(e)
			if nb > 0 {
				f.i64Const(int64(nb))
				f.i64Shl()
			}
			f.get(acc)
			f.i64Or()
			f.set(acc)
			nb += lf.Bits
			if nb >= 64 {
				f.i32Const(int32(l.pack + pos))
				f.get(acc)
				f.i64Store(0)
				pos += 8
				nb -= 64
				if nb > 0 {
					f.get(e)
					f.i64Const(int64(lf.Bits - nb))
					f.i64ShrU()
					f.set(acc)
				} else {
					f.i64Const(0)
					f.set(acc)
				}
			}
		}
		for ; nb > 0; nb -= 8 {
			f.i32Const(int32(l.pack + pos))
			f.get(acc)
			f.i32WrapI64()
			f.i32Store8(0)
			f.get(acc)
			f.i64Const(8)
			f.i64ShrU()
			f.set(acc)
			pos++
		}
	}

	b.hashAt = b.hashFunc()
	m.export("hash", 0, b.hashAt.idx)

	// memeq(addr) -> 1 if the packed state at addr is the pack buffer's.
	b.memeq = m.newFunc([]byte{i32}, []byte{i32})
	{
		f := b.memeq
		k := 0
		for ; k+8 <= l.sb; k += 8 {
			f.get(0)
			f.i64Load(uint32(k))
			f.i32Const(int32(l.pack))
			f.i64Load(uint32(k))
			f.i64Ne()
			f.if_()
			f.i32Const(0)
			f.return_()
			f.end()
		}
		for ; k < l.sb; k++ {
			f.get(0)
			f.i32Load8U(uint32(k))
			f.i32Const(int32(l.pack))
			f.i32Load8U(uint32(k))
			f.i32Ne()
			f.if_()
			f.i32Const(0)
			f.return_()
			f.end()
		}
		f.i32Const(1)
	}

	// find(h) -> the id of the state in the pack buffer, or -1; sets the
	// slot where insert puts it.
	b.find = m.newFunc([]byte{i64}, []byte{i32})
	{
		f := b.find
		tag, i, e, id := f.local(i64), f.local(i32), f.local(i64), f.local(i32)
		f.get(0)
		f.i64Const(idBits)
		f.i64ShrU()
		f.i64Const(idBits)
		f.i64Shl()
		f.set(tag)
		f.get(0)
		f.i32WrapI64()
		f.globalGet(b.gMask)
		f.i32And()
		f.set(i)
		f.loop()
		f.globalGet(b.gTable)
		f.get(i)
		f.i32Const(3)
		f.i32Shl()
		f.i32Add()
		f.i64Load(0)
		f.tee(e)
		f.i64Eqz()
		f.if_()
		f.get(i)
		f.globalSet(b.gAt)
		f.i32Const(-1)
		f.return_()
		f.end()
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
		f.get(i)
		f.globalSet(b.gAt)
		f.get(id)
		f.return_()
		f.end()
		f.end()
		f.get(i)
		f.i32Const(1)
		f.i32Add()
		f.globalGet(b.gMask)
		f.i32And()
		f.set(i)
		f.br(0)
		f.end()
		f.unreachable()
		m.export("find", 0, f.idx)
	}

	// grow() -> 1 if the table doubled, 0 if memory ran out.
	b.grow = m.newFunc(nil, []byte{i32})
	{
		f := b.grow
		t, mask, i, e, j, end := f.local(i32), f.local(i32), f.local(i32), f.local(i64), f.local(i32), f.local(i32)
		f.globalGet(b.gMask)
		f.i32Const(1)
		f.i32Add()
		f.i32Const(4) // 2 * slots * 8 bytes
		f.i32Shl()
		f.call(b.alloc.idx)
		f.tee(t)
		f.i32Eqz()
		f.if_()
		f.i32Const(0)
		f.return_()
		f.end()
		f.globalGet(b.gMask)
		f.i32Const(1)
		f.i32Shl()
		f.i32Const(1)
		f.i32Or()
		f.set(mask)
		f.globalGet(b.gMask)
		f.i32Const(1)
		f.i32Add()
		f.i32Const(3)
		f.i32Shl()
		f.globalGet(b.gTable)
		f.i32Add()
		f.set(end)
		f.globalGet(b.gTable)
		f.set(i)
		f.block()
		f.loop()
		f.get(i)
		f.get(end)
		f.i32Eq()
		f.brIf(1)
		f.get(i)
		f.i64Load(0)
		f.tee(e)
		f.i64Eqz()
		f.i32Eqz()
		f.if_()
		f.get(e)
		f.i32WrapI64()
		f.i32Const(1)
		f.i32Sub()
		f.call(b.recAddr.idx)
		f.call(b.hashAt.idx)
		f.i32WrapI64()
		f.get(mask)
		f.i32And()
		f.set(j)
		f.block()
		f.loop()
		f.get(t)
		f.get(j)
		f.i32Const(3)
		f.i32Shl()
		f.i32Add()
		f.i64Load(0)
		f.i64Eqz()
		f.brIf(1)
		f.get(j)
		f.i32Const(1)
		f.i32Add()
		f.get(mask)
		f.i32And()
		f.set(j)
		f.br(0)
		f.end()
		f.end()
		f.get(t)
		f.get(j)
		f.i32Const(3)
		f.i32Shl()
		f.i32Add()
		f.get(e)
		f.i64Store(0)
		f.end()
		f.get(i)
		f.i32Const(8)
		f.i32Add()
		f.set(i)
		f.br(0)
		f.end()
		f.end()
		f.get(t)
		f.globalSet(b.gTable)
		f.get(mask)
		f.globalSet(b.gMask)
		f.i32Const(1)
	}

	// insert(h, parent, rule) -> 0, or 1 if memory ran out: adds the state
	// in the pack buffer, which find(h) just did not find.
	b.insert = m.newFunc([]byte{i64, i32, i32}, []byte{i32})
	{
		f := b.insert
		id, rec, c := f.local(i32), f.local(i32), f.local(i32)
		// Load above 0.7: double the table, then probe again.
		f.globalGet(b.gN)
		f.i32Const(1)
		f.i32Add()
		f.i32Const(10)
		f.i32Mul()
		f.globalGet(b.gMask)
		f.i32Const(1)
		f.i32Add()
		f.i32Const(7)
		f.i32Mul()
		f.i32GtU()
		f.if_()
		f.call(b.grow.idx)
		f.i32Eqz()
		f.if_()
		f.i32Const(1)
		f.return_()
		f.end()
		f.get(0)
		f.call(b.find.idx)
		f.drop()
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
		f.i32Const(int32(l.rec<<chunkBits + 16))
		f.call(b.alloc.idx)
		f.tee(c)
		f.i32Eqz()
		f.if_()
		f.i32Const(1)
		f.return_()
		f.end()
		f.get(id)
		f.i32Const(chunkBits)
		f.i32ShrU()
		f.i32Const(2)
		f.i32Shl()
		f.get(c)
		f.i32Store(l.dir)
		f.end()
		f.get(id)
		f.call(b.recAddr.idx)
		f.tee(rec)
		f.i32Const(int32(l.pack))
		f.i32Const(int32(l.sb))
		f.memoryCopy()
		f.get(rec)
		f.get(1)
		f.i32Store(uint32(l.sbPad))
		f.get(rec)
		f.get(2)
		f.i32Store(uint32(l.sbPad + 4))
		f.globalGet(b.gTable)
		f.globalGet(b.gAt)
		f.i32Const(3)
		f.i32Shl()
		f.i32Add()
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
		f.get(id)
		f.i32Const(1)
		f.i32Add()
		f.globalSet(b.gN)
		f.i32Const(0)
		m.export("insert", 0, f.idx)
	}

	// init() -> 0, or 1 if memory ran out: the first table.
	{
		f := m.newFunc(nil, []byte{i32})
		f.i32Const(firstTable * 8)
		f.call(b.alloc.idx)
		f.globalSet(b.gTable)
		f.i32Const(firstTable - 1)
		f.globalSet(b.gMask)
		f.globalGet(b.gTable)
		f.i32Eqz()
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
		m.export("info", 0, f.idx)
	}

	// unpackState(id): the stored state id into the current slots (for
	// the host to read a state back).
	{
		f := m.newFunc([]byte{i32}, nil)
		f.get(0)
		f.call(b.recAddr.idx)
		f.call(b.unpack.idx)
		m.export("unpackState", 0, f.idx)
	}
	// record(id) -> the address of state id's record.
	m.export("record", 0, b.recAddr.idx)
}

// hashFunc generates hashAt(addr) -> core/state's Hash of the packed state
// at addr (xxHash64's word-at-a-time scheme, seed 0).
func (b *builder) hashFunc() *fn {
	const (
		p1 = -7046029288634856825 // 0x9E3779B185EBCA87
		p2 = -4417276706812531889 // 0xC2B2AE3D27D4EB4F
		p3 = 1609587929392839161  // 0x165667B19E3779F9
		p4 = -8796714831421723037 // 0x85EBCA77C2B2AE63
		p5 = 2870177450012600261  // 0x27D4EB2F165667C5
	)
	sb := b.g.lay.sb
	f := b.g.mod.newFunc([]byte{i32}, []byte{i64})
	h := f.local(i64)
	f.i64Const(p5 + int64(sb))
	f.set(h)
	k := 0
	for ; k+8 <= sb; k += 8 {
		f.get(h)
		f.get(0)
		f.i64Load(uint32(k))
		f.i64Const(p2)
		f.i64Mul()
		f.i64Const(31)
		f.i64Rotl()
		f.i64Const(p1)
		f.i64Mul()
		f.i64Xor()
		f.i64Const(27)
		f.i64Rotl()
		f.i64Const(p1)
		f.i64Mul()
		f.i64Const(p4)
		f.i64Add()
		f.set(h)
	}
	if k+4 <= sb {
		f.get(h)
		f.get(0)
		f.i32Load(uint32(k))
		f.i64ExtendI32U()
		f.i64Const(p1)
		f.i64Mul()
		f.i64Xor()
		f.i64Const(23)
		f.i64Rotl()
		f.i64Const(p2)
		f.i64Mul()
		f.i64Const(p3)
		f.i64Add()
		f.set(h)
		k += 4
	}
	for ; k < sb; k++ {
		f.get(h)
		f.get(0)
		f.i64Load8U(uint32(k))
		f.i64Const(p5)
		f.i64Mul()
		f.i64Xor()
		f.i64Const(11)
		f.i64Rotl()
		f.i64Const(p1)
		f.i64Mul()
		f.set(h)
	}
	for _, s := range []struct {
		shift int64
		mul   int64
	}{{33, p2}, {29, p3}, {32, 0}} {
		f.get(h)
		f.get(h)
		f.i64Const(s.shift)
		f.i64ShrU()
		f.i64Xor()
		if s.mul != 0 {
			f.i64Const(s.mul)
			f.i64Mul()
		}
		f.set(h)
	}
	f.get(h)
	return f
}

// checkProps generates checkProps() on the working state: -1 if an
// assumption fails (discard), k+1 if invariant k fails, else 0.
func (b *builder) checkProps(invs, assumes []*fn) {
	f := b.g.mod.newFunc(nil, []byte{i32})
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

// run generates run(budget) -> status: expand up to budget states, in
// BFS order, stopping early at the end of a level, a violation, or when
// memory runs out.
func (b *builder) run(rules []*fn) {
	g := b.g
	f := g.mod.newFunc([]byte{i32}, []byte{i32})
	changed, fired, prop := f.local(i32), f.local(i32), f.local(i32)
	h := f.local(i64)
	f.loop()
	// Level boundary.
	f.globalGet(b.gHead)
	f.globalGet(b.gLevelEnd)
	f.i32Eq()
	f.if_()
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
	f.get(0)
	f.i32Const(1)
	f.i32Sub()
	f.set(0)
	f.globalGet(b.gHead)
	f.call(b.recAddr.idx)
	f.call(b.unpack.idx)
	f.i32Const(0)
	f.set(changed)
	f.i32Const(0)
	f.set(fired)
	for r, rf := range rules {
		f.call(rf.idx)
		f.i32Const(ruleFired)
		f.i32Eq()
		f.if_()
		f.get(fired)
		f.i32Const(1)
		f.i32Add()
		f.set(fired)
		b.successor(f, int32(r), changed, prop, h)
		f.end()
	}
	// Deadlock.
	switch b.o.Deadlock {
	case DeadlockStuttering:
		f.get(changed)
		f.i32Eqz()
	case DeadlockStuck:
		// No successor fired (a rule whose assume statement failed
		// leads nowhere), as the closures' search.
		f.get(fired)
		f.i32Eqz()
	default:
		f.i32Const(0)
	}
	f.if_()
	f.i32Const(StatusDeadlock)
	f.return_()
	f.end()
	f.globalGet(b.gHead)
	f.i32Const(1)
	f.i32Add()
	f.globalSet(b.gHead)
	f.br(0)
	f.end()
	f.unreachable()
	g.mod.export("run", 0, f.idx)
}

// successor generates the handling of the successor rule r just left in
// the working state: count it, note a change, and admit it if new.
func (b *builder) successor(f *fn, r int32, changed, prop, h uint32) {
	l := b.g.lay
	f.globalGet(b.gRules)
	f.i64Const(1)
	f.i64Add()
	f.globalSet(b.gRules)
	f.get(changed)
	f.i32Eqz()
	f.if_()
	for i := 0; i < b.g.m.NumSlots; i++ {
		f.i32Const(int32(l.work + uint32(8*i)))
		f.i64Load(0)
		f.i32Const(int32(l.cur + uint32(8*i)))
		f.i64Load(0)
		f.i64Ne()
		if i > 0 {
			f.get(changed)
			f.i32Or()
		}
		f.set(changed)
	}
	f.end()
	f.call(b.pack.idx)
	f.i32Const(int32(l.pack))
	f.call(b.hashAt.idx)
	f.tee(h)
	f.call(b.find.idx)
	f.i32Const(0)
	f.i32LtS()
	f.if_()
	f.call(b.checkProps_.idx)
	f.tee(prop)
	f.i32Const(0)
	f.i32GtS()
	f.if_()
	f.i32Const(r)
	f.globalSet(b.gRule)
	f.get(prop)
	f.i32Const(1)
	f.i32Sub()
	f.globalSet(b.gInv)
	f.i32Const(StatusInvariant)
	f.return_()
	f.end()
	f.get(prop)
	f.i32Eqz()
	f.if_()
	f.get(h)
	f.globalGet(b.gHead)
	f.i32Const(r)
	f.call(b.insert.idx)
	f.if_()
	f.i32Const(StatusMemory)
	f.return_()
	f.end()
	f.end()
	f.end()
}

// successors generates successors(out) -> n: fires every rule from the
// current slots and writes, per successor, its rule (uint32) and packed
// state (RecordBytes-8 bytes) at out: for differential tests.
func (b *builder) successors(rules []*fn) {
	g := b.g
	l := g.lay
	f := g.mod.newFunc([]byte{i32}, []byte{i32})
	n := f.local(i32)
	stride := int32(4 + l.sbPad)
	for r, rf := range rules {
		f.call(rf.idx)
		f.i32Const(ruleFired)
		f.i32Eq()
		f.if_()
		f.call(b.pack.idx)
		f.get(0)
		f.get(n)
		f.i32Const(stride)
		f.i32Mul()
		f.i32Add()
		f.i32Const(int32(r))
		f.i32Store(0)
		f.get(0)
		f.get(n)
		f.i32Const(stride)
		f.i32Mul()
		f.i32Add()
		f.i32Const(4)
		f.i32Add()
		f.i32Const(int32(l.pack))
		f.i32Const(int32(l.sb))
		f.memoryCopy()
		f.get(n)
		f.i32Const(1)
		f.i32Add()
		f.set(n)
		f.end()
	}
	f.get(n)
	g.mod.export("successors", 0, f.idx)
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
