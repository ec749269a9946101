package wasmgen

// This file encodes WebAssembly binary modules (the MVP format plus the
// bulk-memory copy and fill instructions): a module builder and a
// function-body builder with one method per instruction used.

import (
	"fmt"
	"slices"
)

// Value types.
const (
	i32 byte = 0x7f
	i64 byte = 0x7e
)

// blockEmpty is the block type of a block that yields nothing.
const blockEmpty byte = 0x40

// funcType is a function signature.
type funcType struct{ params, results []byte }

func (t funcType) key() string { return string(t.params) + "|" + string(t.results) }

// module collects a module's parts.
type module struct {
	types    []funcType
	typeIdx  map[string]uint32
	imports  []imp
	funcs    []*fn // defined functions, in index order after the imports
	exports  []export
	memMin   uint32
	memMax   uint32
	globals  []global
	nImports uint32
}

type imp struct {
	module, name string
	typ          uint32
}

type export struct {
	name string
	kind byte // 0 func, 2 memory, 3 global
	idx  uint32
}

type global struct {
	typ  byte
	init int64
}

func newModule() *module { return &module{typeIdx: map[string]uint32{}} }

func (m *module) typeOf(params, results []byte) uint32 {
	t := funcType{params, results}
	if i, ok := m.typeIdx[t.key()]; ok {
		return i
	}
	i := uint32(len(m.types))
	m.types = append(m.types, t)
	m.typeIdx[t.key()] = i
	return i
}

// importFunc declares an imported function; all imports come before the
// first defined function.
func (m *module) importFunc(module, name string, params, results []byte) uint32 {
	if len(m.funcs) > 0 {
		panic("wasmgen: import after a defined function")
	}
	m.imports = append(m.imports, imp{module, name, m.typeOf(params, results)})
	m.nImports++
	return m.nImports - 1
}

// newFunc declares a function; its body is written later through the
// returned builder.
func (m *module) newFunc(params, results []byte) *fn {
	f := &fn{m: m, idx: m.nImports + uint32(len(m.funcs)), typ: m.typeOf(params, results), nParams: uint32(len(params))}
	m.funcs = append(m.funcs, f)
	return f
}

func (m *module) addGlobal(typ byte, init int64) uint32 {
	m.globals = append(m.globals, global{typ, init})
	return uint32(len(m.globals) - 1)
}

func (m *module) export(name string, kind byte, idx uint32) {
	if kind == 0 && idx >= m.nImports && m.funcs[idx-m.nImports].name == "" {
		m.funcs[idx-m.nImports].name = name
	}
	m.exports = append(m.exports, export{name, kind, idx})
}

// signatures returns the exported functions' signatures: whether each
// parameter and the result (if any) is an i64 (else an i32).
func (m *module) signatures() map[string]Signature {
	out := map[string]Signature{}
	for _, e := range m.exports {
		if e.kind != 0 || e.idx < m.nImports {
			continue
		}
		t := m.types[m.funcs[e.idx-m.nImports].typ]
		var sig Signature
		for _, p := range t.params {
			sig.Params = append(sig.Params, p == i64)
		}
		sig.Results = len(t.results)
		sig.Result64 = len(t.results) > 0 && t.results[0] == i64
		out[e.name] = sig
	}
	return out
}

// bytes encodes the module.
func (m *module) bytes() []byte {
	out := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	section := func(id byte, body []byte) {
		out = append(out, id)
		out = uleb(out, uint64(len(body)))
		out = append(out, body...)
	}
	var b []byte
	b = uleb(b, uint64(len(m.types)))
	for _, t := range m.types {
		b = append(b, 0x60)
		b = uleb(b, uint64(len(t.params)))
		b = append(b, t.params...)
		b = uleb(b, uint64(len(t.results)))
		b = append(b, t.results...)
	}
	section(1, b)
	if len(m.imports) > 0 {
		b = uleb(nil, uint64(len(m.imports)))
		for _, im := range m.imports {
			b = name(b, im.module)
			b = name(b, im.name)
			b = append(b, 0x00)
			b = uleb(b, uint64(im.typ))
		}
		section(2, b)
	}
	b = uleb(nil, uint64(len(m.funcs)))
	for _, f := range m.funcs {
		b = uleb(b, uint64(f.typ))
	}
	section(3, b)
	b = uleb(nil, 1)
	b = append(b, 0x01)
	b = uleb(b, uint64(m.memMin))
	b = uleb(b, uint64(m.memMax))
	section(5, b)
	if len(m.globals) > 0 {
		b = uleb(nil, uint64(len(m.globals)))
		for _, g := range m.globals {
			b = append(b, g.typ, 0x01) // mutable
			if g.typ == i32 {
				b = append(b, 0x41)
			} else {
				b = append(b, 0x42)
			}
			b = sleb(b, g.init)
			b = append(b, 0x0b)
		}
		section(6, b)
	}
	b = uleb(nil, uint64(len(m.exports)))
	for _, e := range m.exports {
		b = name(b, e.name)
		b = append(b, e.kind)
		b = uleb(b, uint64(e.idx))
	}
	section(7, b)
	// The code section is most of a large module (3.4 MB for adash):
	// written once, into a buffer of its final size, rather than copied
	// through growing slices.
	heads := make([][]byte, len(m.funcs))
	size := len(uleb(nil, uint64(len(m.funcs))))
	for i, f := range m.funcs {
		heads[i] = f.head()
		n := len(heads[i]) + len(f.code) + 1
		size += len(uleb(nil, uint64(n))) + n
	}
	out = slices.Grow(out, 1+10+size)
	out = append(out, 10)
	out = uleb(out, uint64(size))
	out = uleb(out, uint64(len(m.funcs)))
	for i, f := range m.funcs {
		out = uleb(out, uint64(len(heads[i])+len(f.code)+1))
		out = append(out, heads[i]...)
		out = append(out, f.code...)
		out = append(out, 0x0b)
	}
	var nb []byte
	nb = uleb(nb, uint64(len(m.funcs)))
	for _, f := range m.funcs {
		nb = uleb(nb, uint64(f.idx))
		nm := f.name
		if nm == "" {
			nm = fmt.Sprintf("f%d", f.idx)
		}
		nb = name(nb, nm)
	}
	var cs []byte
	cs = name(cs, "name")
	cs = append(cs, 1)
	cs = uleb(cs, uint64(len(nb)))
	cs = append(cs, nb...)
	out = append(out, 0)
	out = uleb(out, uint64(len(cs)))
	out = append(out, cs...)
	return out
}

func name(b []byte, s string) []byte {
	b = uleb(b, uint64(len(s)))
	return append(b, s...)
}

func uleb(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

func sleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// fn builds one function body.
type fn struct {
	m       *module
	idx     uint32
	typ     uint32
	nParams uint32
	locals  []byte // types of the locals after the parameters
	code    []byte
	name    string
}

// local adds a local of type t and returns its index.
func (f *fn) local(t byte) uint32 {
	f.locals = append(f.locals, t)
	return f.nParams + uint32(len(f.locals)) - 1
}

// head encodes the function's locals, which come before its code.
func (f *fn) head() []byte {
	// Locals in runs of one type.
	var runs [][2]uint64
	for _, t := range f.locals {
		if n := len(runs); n > 0 && runs[n-1][1] == uint64(t) {
			runs[n-1][0]++
			continue
		}
		runs = append(runs, [2]uint64{1, uint64(t)})
	}
	b := uleb(nil, uint64(len(runs)))
	for _, r := range runs {
		b = uleb(b, r[0])
		b = append(b, byte(r[1]))
	}
	return b
}

// op and u are kept out of line: inlined, each of the generator's
// thousands of emitting calls carried its own append, which made the
// engine's WebAssembly 1.8 MB larger (190 KB compressed) for no speed a
// generation of a few milliseconds would notice.
//
//go:noinline
func (f *fn) op(b ...byte) { f.code = append(f.code, b...) }

//go:noinline
func (f *fn) u(v uint32) { f.code = uleb(f.code, uint64(v)) }

// Control.
func (f *fn) unreachable()    { f.op(0x00) }
func (f *fn) block()          { f.op(0x02, blockEmpty) }
func (f *fn) loop()           { f.op(0x03, blockEmpty) }
func (f *fn) if_()            { f.op(0x04, blockEmpty) }
func (f *fn) ifResult(t byte) { f.op(0x04, t) }
func (f *fn) else_()          { f.op(0x05) }
func (f *fn) end()            { f.op(0x0b) }
func (f *fn) br(depth uint32) { f.op(0x0c); f.u(depth) }
func (f *fn) brIf(d uint32)   { f.op(0x0d); f.u(d) }

// brTable branches to depths[i] for an index i below len(depths), else
// to def.
func (f *fn) brTable(depths []uint32, def uint32) {
	f.op(0x0e)
	f.u(uint32(len(depths)))
	for _, d := range depths {
		f.u(d)
	}
	f.u(def)
}
func (f *fn) return_()        { f.op(0x0f) }
func (f *fn) call(idx uint32) { f.op(0x10); f.u(idx) }
func (f *fn) drop()           { f.op(0x1a) }
func (f *fn) select_()        { f.op(0x1b) }

// Variables.
func (f *fn) get(l uint32)       { f.op(0x20); f.u(l) }
func (f *fn) set(l uint32)       { f.op(0x21); f.u(l) }
func (f *fn) tee(l uint32)       { f.op(0x22); f.u(l) }
func (f *fn) globalGet(g uint32) { f.op(0x23); f.u(g) }
func (f *fn) globalSet(g uint32) { f.op(0x24); f.u(g) }

// Memory (alignment hints: 8-byte values at 8-aligned offsets where known).
func (f *fn) mem(opc byte, align, off uint32) { f.op(opc); f.u(align); f.u(off) }
func (f *fn) i32Load(off uint32)              { f.mem(0x28, 2, off) }
func (f *fn) i64Load(off uint32)              { f.mem(0x29, 3, off) }
func (f *fn) i64Load8U(off uint32)            { f.mem(0x31, 0, off) }
func (f *fn) i32Load8U(off uint32)            { f.mem(0x2d, 0, off) }
func (f *fn) i32Store(off uint32)             { f.mem(0x36, 2, off) }
func (f *fn) i64Store(off uint32)             { f.mem(0x37, 3, off) }
func (f *fn) i32Store8(off uint32)            { f.mem(0x3a, 0, off) }
func (f *fn) memorySize()                     { f.op(0x3f, 0x00) }
func (f *fn) memoryGrow()                     { f.op(0x40, 0x00) }
func (f *fn) memoryCopy()                     { f.op(0xfc); f.u(10); f.op(0x00, 0x00) }

// unrollCopy is the largest copy written as moves in place: V8 runs a
// memory.copy out of line, which costs more than a few loads and stores.
// (A function of its own, called from many places, unrolls more.)
const (
	unrollCopy       = 256
	unrollCopyShared = 2048
)

// copyWords copies n bytes, a multiple of 8, from the address src pushes
// to the address dst pushes: as 8-byte moves up to unroll bytes, else with
// memory.copy.
func (f *fn) copyWords(dst, src func(), n, unroll int) {
	if n > unroll {
		dst()
		src()
		f.i32Const(int32(n))
		f.memoryCopy()
		return
	}
	for k := 0; k < n; k += 8 {
		dst()
		src()
		f.i64Load(uint32(k))
		f.i64Store(uint32(k))
	}
}
func (f *fn) memoryFill() { f.op(0xfc); f.u(11); f.op(0x00) }

// forUpTo generates a loop: the i32 local j from what from pushes, by
// step, until it equals what to pushes, running body for each value.
func (f *fn) forUpTo(j uint32, from, to func(), step int32, body func()) {
	from()
	f.set(j)
	f.block()
	f.loop()
	f.get(j)
	to()
	f.i32Eq()
	f.brIf(1)
	body()
	f.get(j)
	f.i32Const(step)
	f.i32Add()
	f.set(j)
	f.br(0)
	f.end()
	f.end()
}

// Constants.
func (f *fn) i32Const(v int32) { f.op(0x41); f.code = sleb(f.code, int64(v)) }
func (f *fn) i64Const(v int64) { f.op(0x42); f.code = sleb(f.code, v) }

// Numeric.
func (f *fn) i32Eqz()        { f.op(0x45) }
func (f *fn) i32Eq()         { f.op(0x46) }
func (f *fn) i32Ne()         { f.op(0x47) }
func (f *fn) i32LtS()        { f.op(0x48) }
func (f *fn) i32LtU()        { f.op(0x49) }
func (f *fn) i32GtS()        { f.op(0x4a) }
func (f *fn) i32GtU()        { f.op(0x4b) }
func (f *fn) i32GeS()        { f.op(0x4e) }
func (f *fn) i32GeU()        { f.op(0x4f) }
func (f *fn) i64Eqz()        { f.op(0x50) }
func (f *fn) i64Eq()         { f.op(0x51) }
func (f *fn) i64Ne()         { f.op(0x52) }
func (f *fn) i64LtS()        { f.op(0x53) }
func (f *fn) i64LtU()        { f.op(0x54) }
func (f *fn) i64GtS()        { f.op(0x55) }
func (f *fn) i64GtU()        { f.op(0x56) }
func (f *fn) i64LeS()        { f.op(0x57) }
func (f *fn) i64LeU()        { f.op(0x58) }
func (f *fn) i64GeS()        { f.op(0x59) }
func (f *fn) i64GeU()        { f.op(0x5a) }
func (f *fn) i32Add()        { f.op(0x6a) }
func (f *fn) i32Sub()        { f.op(0x6b) }
func (f *fn) i32Mul()        { f.op(0x6c) }
func (f *fn) i32And()        { f.op(0x71) }
func (f *fn) i32Or()         { f.op(0x72) }
func (f *fn) i32Xor()        { f.op(0x73) }
func (f *fn) i32Shl()        { f.op(0x74) }
func (f *fn) i32ShrU()       { f.op(0x76) }
func (f *fn) i64Add()        { f.op(0x7c) }
func (f *fn) i64Sub()        { f.op(0x7d) }
func (f *fn) i64Mul()        { f.op(0x7e) }
func (f *fn) i64DivS()       { f.op(0x7f) }
func (f *fn) i64RemS()       { f.op(0x81) }
func (f *fn) i64And()        { f.op(0x83) }
func (f *fn) i64Or()         { f.op(0x84) }
func (f *fn) i64Xor()        { f.op(0x85) }
func (f *fn) i64Shl()        { f.op(0x86) }
func (f *fn) i64ShrS()       { f.op(0x87) }
func (f *fn) i64ShrU()       { f.op(0x88) }
func (f *fn) i64Rotl()       { f.op(0x89) }
func (f *fn) i32WrapI64()    { f.op(0xa7) }
func (f *fn) i64ExtendI32U() { f.op(0xad) }
func (f *fn) i64ExtendI32S() { f.op(0xac) }
