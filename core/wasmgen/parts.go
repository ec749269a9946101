package wasmgen

// This file lets one module run as a part of a search partitioned by hash
// over several instances (explore's parallel generated search). Every
// state has one owner, chosen by the low 32 bits of its hash (the index
// uses the high ones); a part keeps only the states it owns. Its run
// expands its own states as before, but a successor another part owns
// goes to the outbox (its packed state, then its hash), which the host
// empties (takeOutbox) and hands to the owner's admit, which looks each
// one up and keeps the new ones, checking the invariants, as pass 3 does.
// A part's run returns StatusLevel whenever it has expanded its level and
// leaves the next level's start to the host (begin), which knows when no
// part will send it more states of that level.
//
// The code is in every module that can take part (partsOK); set up as one
// part of one (the default, without partition), it never sends a state
// and runs as it did without it.

// StatusOutbox is run's status when the outbox has no room left for a
// batch's successors: the host empties it and calls run again.
const StatusOutbox = 6

// admitGroup is how many entries admit reads the table slots of at once.
const admitGroup = 32

// sentSlots is the size of a part's cache of the states it sent (by
// hash, the last sent of those that share a slot): a successor met again
// soon after is not sent again. Transitions are local (most states met
// again were met shortly before), so most such duplicates are caught.
const sentSlots = 1 << 14

// outboxBytes is about the size of a part's outbox.
const outboxBytes = 256 << 10

// partsOK says whether the module can run as a part: not where the host
// needs the one search's order (liveness's graph by id, violations
// recorded and gone past). Cover statements' hits are counted by the
// part that runs them, a remote successor's before it is sent: a search
// the parts complete counts them all, and one a violation stops runs
// again on one worker. Under hash compaction two states of one key have
// one hash (keys of 64 bits; narrower ones, for tests, do not), so one
// owner: a part's index takes one for the other as the one index would.
func (b *builder) partsOK() bool {
	return b.o.MaxErrors <= 1 && len(b.g.m.Liveness) == 0 && (!b.o.Compact || b.o.KeyBits == 64)
}

// outboxStride is an outbox entry's size: the packed state, then its hash.
func (b *builder) outboxStride() int { return b.g.lay.sbPad + 8 }

// outboxCap is how many entries the outbox holds: at least two batches'
// successors (run stops for the host when fewer than one batch's fit).
func (b *builder) outboxCap(rules int) int {
	return max(2*b.batchStates*rules, outboxBytes/b.outboxStride())
}

// partsGlobals adds the part's globals: its number, the number of parts,
// the outbox's address and how many entries it holds.
func (b *builder) partsGlobals() {
	m := b.g.mod
	b.gSelf = m.addGlobal(i32, 0)
	b.gParts = m.addGlobal(i32, 1)
	b.gOut = m.addGlobal(i32, 0)
	b.gOutN = m.addGlobal(i32, 0)
	b.gSent = m.addGlobal(i32, 0)
}

// owner pushes the part that owns the state of hash h (a local i64): its
// low 32 bits scaled to the number of parts, as Owner.
func (b *builder) owner(f *fn, h uint32) {
	f.get(h)
	f.i64Const(0xffffffff)
	f.i64And()
	f.globalGet(b.gParts)
	f.i64ExtendI32U()
	f.i64Mul()
	f.i64Const(32)
	f.i64ShrU()
	f.i32WrapI64()
}

// Owner is the part of n that owns a state of hash h (see owner).
func Owner(h uint64, n int) int { return int((h & 0xffffffff) * uint64(n) >> 32) }

// sendIfRemote generates pass 3's test of the successor at p (its hash
// in local h): one another part owns goes to the outbox. It returns the
// end of the test, to generate after the successor's handling: the
// handling runs only for a state this part owns.
func (b *builder) sendIfRemote(f *fn, p, h, dst uint32) func() {
	if !b.parts {
		return func() {}
	}
	l := b.g.lay
	f.get(p)
	f.i64Load(uint32(l.sbPad))
	f.set(h)
	// Whether another part owns it; one part alone owns them all.
	f.globalGet(b.gParts)
	f.i32Const(1)
	f.i32Ne()
	f.if_()
	b.owner(f, h)
	f.globalGet(b.gSelf)
	f.i32Ne()
	f.set(dst)
	f.else_()
	f.i32Const(0)
	f.set(dst)
	f.end()
	f.get(dst)
	f.if_()
	// Sent before, if the sent cache's entry is the same state: the
	// owner has it, or will have it before the level ends.
	hit := f.local(i32)
	f.i32Const(0)
	f.set(hit)
	f.globalGet(b.gSent)
	f.get(h)
	f.i64Const(20)
	f.i64ShrU()
	f.i32WrapI64()
	f.i32Const(sentSlots - 1)
	f.i32And()
	f.i32Const(int32(b.outboxStride()))
	f.i32Mul()
	f.i32Add()
	f.tee(dst)
	f.i64Load(uint32(l.sbPad))
	f.get(h)
	f.i64Eq()
	f.get(h)
	f.i64Const(0)
	f.i64Ne() // an empty entry's is 0
	f.i32And()
	f.if_()
	f.copyWords(func() { f.i32Const(int32(l.pack)) }, func() { f.get(p) }, l.sbPad, unrollCopy)
	f.get(dst)
	f.call(b.memeq.idx)
	f.set(hit)
	f.end()
	f.get(hit)
	f.i32Eqz()
	f.if_()
	put := func() {
		f.copyWords(func() { f.get(dst) }, func() { f.get(p) }, l.sbPad, unrollCopy)
		f.get(dst)
		f.get(h)
		f.i64Store(uint32(l.sbPad))
	}
	put()
	f.globalGet(b.gOut)
	f.globalGet(b.gOutN)
	f.i32Const(int32(b.outboxStride()))
	f.i32Mul()
	f.i32Add()
	f.set(dst)
	put()
	f.globalGet(b.gOutN)
	f.i32Const(1)
	f.i32Add()
	f.globalSet(b.gOutN)
	f.end()
	f.else_()
	return func() { f.end() }
}

// outboxRoom generates run's test, before a batch, that the outbox has
// room for every successor the batch may have; else run returns
// StatusOutbox.
func (b *builder) outboxRoom(f *fn, rules int) {
	if !b.parts {
		return
	}
	f.globalGet(b.gOutN)
	f.i32Const(int32(b.outboxCap(rules) - b.batchStates*rules))
	f.i32GtU()
	f.if_()
	f.i32Const(StatusOutbox)
	f.return_()
	f.end()
}

// levelEndAsPart generates run's end of a level in a part of several:
// StatusLevel, the level left for the host to begin.
func (b *builder) levelEndAsPart(f *fn) {
	if !b.parts {
		return
	}
	f.globalGet(b.gParts)
	f.i32Const(1)
	f.i32Ne()
	f.if_()
	f.i32Const(StatusLevel)
	f.return_()
	f.end()
}

// partsFuncs generates the exports a part's host calls:
//
//	partition(self, parts, outbox) -> 1, or 0 if memory ran out: the part
//	  is part self of parts, its outbox (Module.OutboxBytes) at outbox
//	takeOutbox() -> how many entries the outbox holds; it is empty again
//	admit(at, n) -> 0, StatusInvariant or StatusMemory: the n outbox
//	  entries at at, each kept if new (and not failing an assumption), in
//	  order; a new one that fails an invariant ends it.
func (b *builder) partsFuncs(rules int) {
	if !b.parts {
		return
	}
	g := b.g
	m := g.mod
	{
		f := m.newFunc([]byte{i32, i32, i32}, []byte{i32})
		f.get(0)
		f.globalSet(b.gSelf)
		f.get(1)
		f.globalSet(b.gParts)
		f.get(2)
		f.globalSet(b.gOut)
		f.i32Const(int32(sentSlots * b.outboxStride()))
		f.call(b.alloc.idx)
		f.globalSet(b.gSent)
		f.globalGet(b.gSent)
		f.i32Eqz()
		f.if_()
		f.i32Const(0)
		f.return_()
		f.end()
		f.i32Const(1)
		m.export("partition", 0, f.idx)
	}
	{
		f := m.newFunc(nil, []byte{i32})
		f.globalGet(b.gOutN)
		f.i32Const(0)
		f.globalSet(b.gOutN)
		m.export("takeOutbox", 0, f.idx)
	}
	{
		// In groups: the group's table slots read first, as run's pass 2
		// reads a batch's (their cache misses overlap), then its entries
		// looked up in turn.
		f := m.newFunc([]byte{i32, i32}, []byte{i32})
		e, end, group, groupEnd, h, prop, touch := f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i64), f.local(i32), f.local(i64)
		stride := int32(b.outboxStride())
		f.get(0)
		f.get(1)
		f.i32Const(stride)
		f.i32Mul()
		f.i32Add()
		f.set(end)
		f.get(0)
		f.set(group)
		f.block()
		f.loop()
		f.get(group)
		f.get(end)
		f.i32Eq()
		f.brIf(1)
		// the group's end: admitGroup entries on, or the end
		f.get(group)
		f.i32Const(admitGroup * stride)
		f.i32Add()
		f.tee(groupEnd)
		f.get(end)
		f.i32GtU()
		f.if_()
		f.get(end)
		f.set(groupEnd)
		f.end()
		f.globalGet(b.gTouch)
		f.set(touch)
		f.forUpTo(e, func() { f.get(group) }, func() { f.get(groupEnd) }, stride, func() { b.touchSlot(f, touch, e) })
		f.get(touch)
		f.globalSet(b.gTouch)
		f.forUpTo(e, func() { f.get(group) }, func() { f.get(groupEnd) }, stride, func() {
			b.lookUp(f, e, h)
			f.i32Const(0)
			f.i32LtS()
			f.if_()
			b.newStateProps(f)
			f.tee(prop)
			f.i32Const(0)
			f.i32GtS()
			f.if_()
			f.i32Const(StatusInvariant)
			f.return_()
			f.end()
			f.get(prop)
			f.i32Eqz()
			f.if_()
			f.get(h)
			if b.o.Compact {
				f.i32Const(0) // its rule: none, not a counterexample's (a violation ends the parts' search)
			}
			f.call(b.insert.idx)
			f.if_()
			f.i32Const(StatusMemory)
			f.return_()
			f.end()
			if b.countCovers != nil {
				f.call(b.countCovers.idx)
			}
			f.end()
			f.end()
		})
		f.get(groupEnd)
		f.set(group)
		f.br(0)
		f.end()
		f.end()
		f.i32Const(0)
		m.export("admit", 0, f.idx)
	}
}
