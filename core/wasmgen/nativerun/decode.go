package nativerun

// This file reads the parts of a WebAssembly module that the translator
// needs: the subset core/wasmgen writes (one memory, mutable globals with
// constant initial values, exported functions, no imports, no tables, no
// data segments). Anything else is refused, so a module the translator
// does not understand is never run wrongly.

import (
	"errors"
	"fmt"
)

// Value types.
const (
	tI32 byte = 0x7f
	tI64 byte = 0x7e
)

type funcType struct{ params, results []byte }

type global struct {
	typ  byte
	init int64
}

type export struct {
	name string
	fn   uint32
}

// module is a decoded module.
type module struct {
	types           []funcType
	funcTypes       []uint32 // per defined function
	memMin, memMax  uint32
	globals         []global
	exports         []export
	bodies          [][]byte // per defined function: locals then code
	names           map[uint32]string
	hasMemoryExport bool
}

type reader struct {
	b   []byte
	pos int
}

var errShort = errors.New("unexpected end of module")

func (r *reader) byte() byte {
	if r.pos >= len(r.b) {
		panic(errShort)
	}
	c := r.b[r.pos]
	r.pos++
	return c
}

func (r *reader) uleb() uint64 {
	var v uint64
	for shift := 0; ; shift += 7 {
		c := r.byte()
		if shift < 64 {
			v |= uint64(c&0x7f) << shift
		}
		if c&0x80 == 0 {
			return v
		}
	}
}

func (r *reader) u32() uint32 {
	v := r.uleb()
	if v > 1<<32-1 {
		panic(fmt.Errorf("value %d is not a u32", v))
	}
	return uint32(v)
}

func (r *reader) sleb() int64 {
	var v int64
	shift := 0
	for {
		c := r.byte()
		if shift < 64 {
			v |= int64(c&0x7f) << shift
		}
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || r.pos+n > len(r.b) {
		panic(errShort)
	}
	b := r.b[r.pos : r.pos+n]
	r.pos += n
	return b
}

func (r *reader) name() string { return string(r.bytes(int(r.u32()))) }

func (r *reader) valType() byte {
	t := r.byte()
	if t != tI32 && t != tI64 {
		panic(fmt.Errorf("value type 0x%x", t))
	}
	return t
}

// decode reads a module.
func decode(code []byte) (m *module, err error) {
	defer func() {
		if x := recover(); x != nil {
			e, ok := x.(error)
			if !ok {
				panic(x)
			}
			m, err = nil, fmt.Errorf("nativerun: %w", e)
		}
	}()
	r := &reader{b: code}
	if string(r.bytes(8)) != "\x00asm\x01\x00\x00\x00" {
		return nil, errors.New("nativerun: not a WebAssembly 1.0 module")
	}
	m = &module{names: map[uint32]string{}}
	memories := 0
	for r.pos < len(r.b) {
		id := r.byte()
		s := &reader{b: r.bytes(int(r.u32()))}
		switch id {
		case 0:
			decodeNames(s, m)
			continue
		case 1:
			for n := s.u32(); n > 0; n-- {
				if s.byte() != 0x60 {
					panic(errors.New("a type that is not a function type"))
				}
				var t funcType
				for k := s.u32(); k > 0; k-- {
					t.params = append(t.params, s.valType())
				}
				for k := s.u32(); k > 0; k-- {
					t.results = append(t.results, s.valType())
				}
				if len(t.results) > 1 {
					panic(errors.New("a function with several results"))
				}
				m.types = append(m.types, t)
			}
		case 3:
			for n := s.u32(); n > 0; n-- {
				t := s.u32()
				if int(t) >= len(m.types) {
					panic(fmt.Errorf("type %d", t))
				}
				m.funcTypes = append(m.funcTypes, t)
			}
		case 5:
			for n := s.u32(); n > 0; n-- {
				memories++
				flags := s.byte()
				m.memMin = s.u32()
				m.memMax = 65536
				if flags&1 != 0 {
					m.memMax = s.u32()
				}
				if flags > 1 || m.memMax > 65536 || m.memMin > m.memMax {
					panic(errors.New("a memory that is not a 32-bit memory of at most 4 GiB"))
				}
			}
		case 6:
			for n := s.u32(); n > 0; n-- {
				g := global{typ: s.valType()}
				s.byte() // mutability: every global is a Go variable
				switch op := s.byte(); {
				case op == 0x41 && g.typ == tI32:
					g.init = int64(int32(s.sleb()))
				case op == 0x42 && g.typ == tI64:
					g.init = s.sleb()
				default:
					panic(fmt.Errorf("a global initialised by opcode 0x%x", op))
				}
				if s.byte() != 0x0b {
					panic(errors.New("a global initialiser that is not one constant"))
				}
				m.globals = append(m.globals, g)
			}
		case 7:
			for n := s.u32(); n > 0; n-- {
				name := s.name()
				kind := s.byte()
				idx := s.u32()
				switch kind {
				case 0:
					m.exports = append(m.exports, export{name, idx})
				case 2:
					m.hasMemoryExport = true
				case 3:
				default:
					panic(fmt.Errorf("an export of kind %d", kind))
				}
			}
		case 10:
			for n := s.u32(); n > 0; n-- {
				m.bodies = append(m.bodies, s.bytes(int(s.u32())))
			}
		default:
			// Imports (2), tables (4), start (8), elements (9), data (11).
			panic(fmt.Errorf("section %d, which generated modules do not have", id))
		}
		if s.pos != len(s.b) {
			panic(fmt.Errorf("section %d has %d bytes left over", id, len(s.b)-s.pos))
		}
	}
	if memories != 1 {
		return nil, fmt.Errorf("nativerun: %d memories, want 1", memories)
	}
	if len(m.bodies) != len(m.funcTypes) {
		return nil, fmt.Errorf("nativerun: %d function bodies for %d functions", len(m.bodies), len(m.funcTypes))
	}
	for _, e := range m.exports {
		if int(e.fn) >= len(m.funcTypes) {
			return nil, fmt.Errorf("nativerun: export %q of function %d", e.name, e.fn)
		}
	}
	return m, nil
}

// decodeNames reads the function names of a name section (for comments).
func decodeNames(s *reader, m *module) {
	if s.name() != "name" {
		s.pos = len(s.b)
		return
	}
	for s.pos < len(s.b) {
		id := s.byte()
		sub := &reader{b: s.bytes(int(s.u32()))}
		if id != 1 {
			continue
		}
		for n := sub.u32(); n > 0; n-- {
			idx := sub.u32()
			m.names[idx] = sub.name()
		}
	}
}
