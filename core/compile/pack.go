package compile

// This file packs slot arrays into bit vectors and back, and sorts multiset
// entries (multiset reduction, always on as in CMurphi).

import (
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/locus-mc/locus/core/murphi"
)

func (l *Leaf) encode(v, undef int64) uint64 {
	if v == undef {
		return 0
	}
	if l.Kind == LeafUnion {
		for _, p := range l.Parts {
			if p.Lo <= v && v <= p.Hi {
				return p.Base + uint64(v-p.Lo) + 1
			}
		}
		return 0
	}
	return uint64(v-l.Lo) + 1
}

func (l *Leaf) decode(e uint64, undef int64) int64 {
	if e == 0 {
		return undef
	}
	if l.Kind == LeafUnion {
		e--
		for _, p := range l.Parts {
			if n := uint64(p.Hi-p.Lo) + 1; e < p.Base+n {
				return p.Lo + int64(e-p.Base)
			}
		}
		return undef
	}
	return l.Lo + int64(e-1)
}

// leafCode is what packing needs of one leaf, precomputed at compile time
// so that a leaf costs a few instructions: packing runs once per successor
// and unpacking once per expanded state.
type leafCode struct {
	lo    int64
	mask  uint64 // 1<<bits - 1
	keep  uint64 // all ones, or 0 for a union leaf (encoded apart)
	at    int32  // first byte of the 64-bit word that holds the leaf
	shift uint8  // the leaf's first bit in that word
	bits  uint8
}

// packing is a model's packing plan.
type packing struct {
	codes  []leafCode
	unions []int // leaves of union type, whose codes need a search
	// words: every leaf lies within the 8 bytes at its `at`, and those
	// bytes lie within the packed state, so one 64-bit load or store
	// reaches it (leaves near the end use the state's last 8 bytes). It
	// fails only for states shorter than 8 bytes and leaves of 58 bits or
	// more, which take a slower path.
	words bool
}

// newPacking precomputes the packing of every leaf.
func newPacking(leaves []Leaf, stateBytes int) packing {
	p := packing{codes: make([]leafCode, len(leaves)), words: stateBytes >= 8}
	for i := range leaves {
		l := &leaves[i]
		at := min(l.Offset>>3, max(stateBytes-8, 0))
		c := leafCode{lo: l.Lo, at: int32(at), shift: uint8(l.Offset - 8*at),
			bits: uint8(l.Bits), mask: ^uint64(0), keep: ^uint64(0)}
		if l.Bits < 64 {
			c.mask = 1<<uint(l.Bits) - 1
		}
		if l.Kind == LeafUnion {
			if lo, ok := contiguous(l.Parts); ok {
				c.lo = lo // encoded as a range
			} else {
				c.keep = 0
				p.unions = append(p.unions, i)
			}
		}
		if int(c.shift)+l.Bits > 64 {
			p.words = false
		}
		p.codes[i] = c
	}
	return p
}

// contiguous reports whether a union's members' ordinals follow each other
// in member order, so that its encoding is that of the range from lo.
func contiguous(parts []UnionPart) (lo int64, ok bool) {
	if len(parts) == 0 {
		return 0, false
	}
	lo = parts[0].Lo
	for _, p := range parts {
		if p.Lo-lo != int64(p.Base) {
			return 0, false
		}
	}
	return lo, true
}

// code returns leaf i's encoding of slot value v.
func (m *Model) code(i int, v int64) uint64 {
	if v == m.Undef {
		return 0
	}
	c := &m.packing.codes[i]
	if c.keep == 0 {
		return m.Leaves[i].encode(v, m.Undef)
	}
	return uint64(v-c.lo) + 1
}

// Pack writes the packed form of slots into dst (len >= StateBytes).
func (m *Model) Pack(slots []int64, dst []byte) {
	var acc uint64 // bits not yet written, the lowest first
	nb := uint(0)  // how many
	pos := 0
	undef := m.Undef
	codes := m.packing.codes
	slots = slots[:len(codes)]
	dst = dst[:m.StateBytes]
	for i := range codes {
		c := &codes[i]
		v := slots[i]
		e := (uint64(v-c.lo) + 1) & c.keep
		if v == undef {
			e = 0
		}
		acc |= e << (nb & 63)
		nb += uint(c.bits)
		if nb >= 64 {
			binary.LittleEndian.PutUint64(dst[pos:], acc)
			pos += 8
			nb -= 64
			// The bits of e that did not fit (none if nb is 0).
			acc = 0
			if nb > 0 {
				acc = e >> ((uint(c.bits) - nb) & 63)
			}
		}
	}
	for ; pos < len(dst); pos++ {
		dst[pos] = byte(acc)
		acc >>= 8
	}
	for _, i := range m.packing.unions {
		m.setLeaf(dst, i, m.code(i, slots[i]))
	}
}

// setLeaf overwrites leaf i's bits in the packed state dst with e.
func (m *Model) setLeaf(dst []byte, i int, e uint64) {
	c := &m.packing.codes[i]
	if m.packing.words {
		w := binary.LittleEndian.Uint64(dst[c.at:])
		w = w&^(c.mask<<(c.shift&63)) | e<<(c.shift&63)
		binary.LittleEndian.PutUint64(dst[c.at:], w)
		return
	}
	setBits(dst, int(c.at)*8+int(c.shift), int(c.bits), e)
}

// PackFrom writes the packed form of slots into dst (len >= StateBytes),
// given another state base and its packed form basePacked: only the leaves
// where slots differs from base are encoded. A successor differs from the
// state it came from in a few slots, so this costs a comparison per slot
// instead of an encoding per leaf. It reports whether slots differs from
// base at all.
func (m *Model) PackFrom(dst, basePacked []byte, base, slots []int64) (differs bool) {
	n := m.StateBytes
	dst = dst[:n]
	copy(dst, basePacked[:n])
	codes := m.packing.codes
	k := len(codes)
	slots, base = slots[:k], base[:k]
	fast := m.packing.words
	undef := m.Undef
	for i, v := range slots {
		if v == base[i] {
			continue
		}
		differs = true
		c := &codes[i]
		if !fast || c.keep == 0 {
			m.setLeaf(dst, i, m.code(i, v))
			continue
		}
		e := uint64(v-c.lo) + 1
		if v == undef {
			e = 0
		}
		sh := c.shift & 63
		w := binary.LittleEndian.Uint64(dst[c.at:])
		binary.LittleEndian.PutUint64(dst[c.at:], w&^(c.mask<<sh)|e<<sh)
	}
	return differs
}

// setBits writes the low n bits of e at bit offset off of b, byte by byte.
func setBits(b []byte, off, n int, e uint64) {
	for done := 0; done < n; {
		at, sh := (off+done)>>3, uint((off+done)&7)
		k := min(8-int(sh), n-done)
		mask := byte(1<<uint(k)-1) << sh
		b[at] = b[at]&^mask | byte(e>>uint(done))<<sh&mask
		done += k
	}
}

// getBits reads n bits at bit offset off of b, byte by byte.
func getBits(b []byte, off, n int) uint64 {
	var e uint64
	for done := 0; done < n; {
		at, sh := (off+done)>>3, uint((off+done)&7)
		k := min(8-int(sh), n-done)
		e |= uint64(b[at]>>sh&byte(1<<uint(k)-1)) << uint(done)
		done += k
	}
	return e
}

// Unpacker decodes packed states. It remembers the last state UnpackNext
// decoded, so each Unpacker serves one goroutine.
type Unpacker struct {
	m    *Model
	prev []byte // the state UnpackNext last decoded
	have bool
	// Leaves [first[k], end[k]) have bits in the k-th 8 bytes.
	first, end []int32
}

// NewUnpacker returns an Unpacker for m.
func (m *Model) NewUnpacker() *Unpacker {
	u := &Unpacker{m: m, prev: make([]byte, m.StateBytes)}
	words := (m.StateBytes + 7) / 8
	u.first, u.end = make([]int32, words), make([]int32, words)
	for k := range words {
		lo, hi := 64*k, 64*k+64
		u.first[k] = int32(len(m.Leaves))
		for i := range m.Leaves {
			l := &m.Leaves[i]
			if l.Offset < hi && l.Offset+l.Bits > lo {
				u.first[k] = min(u.first[k], int32(i))
				u.end[k] = int32(i + 1)
			}
		}
		u.end[k] = max(u.end[k], u.first[k])
	}
	return u
}

// UnpackNext decodes the packed state src into slots, which must hold what
// the previous UnpackNext call decoded: only the leaves in 8-byte words
// that differ from that state are decoded. States popped one after another
// from a breadth-first queue are often siblings, a few words apart.
func (u *Unpacker) UnpackNext(src []byte, slots []int64) {
	m := u.m
	n := m.StateBytes
	src = src[:n]
	if !u.have || n <= 24 {
		// (Short states: comparing words costs about what decoding does.)
		u.Unpack(src, slots)
		copy(u.prev, src)
		u.have = true
		return
	}
	prev := u.prev[:n]
	next := int32(0) // leaves before it are decoded
	for k := range u.first {
		at := 8 * k
		if at+8 <= n {
			if binary.LittleEndian.Uint64(src[at:]) == binary.LittleEndian.Uint64(prev[at:]) {
				continue
			}
		} else if string(src[at:]) == string(prev[at:]) {
			continue
		}
		lo := max(u.first[k], next)
		next = max(next, u.end[k])
		m.unpackRange(src, slots, int(lo), int(next))
	}
	copy(prev, src)
}

// Unpack decodes the packed state src into slots.
func (u *Unpacker) Unpack(src []byte, slots []int64) {
	m := u.m
	m.unpackRange(src[:m.StateBytes], slots[:len(m.packing.codes)], 0, len(m.packing.codes))
}

// unpackRange decodes leaves lo..hi-1 of the packed state src into slots.
func (m *Model) unpackRange(src []byte, slots []int64, lo, hi int) {
	undef := m.Undef
	codes := m.packing.codes[lo:hi]
	out := slots[lo:hi]
	if m.packing.words {
		for i := range codes {
			c := &codes[i]
			x := binary.LittleEndian.Uint64(src[c.at:]) >> (c.shift & 63) & c.mask
			v := c.lo + int64(x-1)
			if x == 0 {
				v = undef
			}
			out[i] = v
		}
	} else {
		for i := range codes {
			c := &codes[i]
			x := getBits(src, int(c.at)*8+int(c.shift), int(c.bits))
			v := c.lo + int64(x-1)
			if x == 0 {
				v = undef
			}
			out[i] = v
		}
	}
	for _, i := range m.packing.unions {
		if lo <= i && i < hi {
			c := &m.packing.codes[i]
			x := getBits(src, int(c.at)*8+int(c.shift), int(c.bits))
			slots[i] = m.Leaves[i].decode(x, undef)
		}
	}
}

// SortMultisets puts every multiset's entries in canonical order, so that
// states differing only in the order of multiset entries are one state.
// A multiset inside another's entries is laid out after it, so going
// backwards sorts the inner ones first: an outer multiset then compares
// entries whose own multisets are already in order.
func (m *Model) SortMultisets(slots []int64) {
	for i := len(m.Multisets) - 1; i >= 0; i-- {
		ms := &m.Multisets[i]
		sortEntries(slots[ms.Slot:ms.Slot+ms.Size*ms.EntrySlots], ms.EntrySlots)
	}
}

// sortEntries insertion-sorts fixed-size blocks lexicographically.
func sortEntries(s []int64, w int) {
	n := len(s) / w
	var tmpBuf [16]int64
	tmp := tmpBuf[:0]
	if w <= len(tmpBuf) {
		tmp = tmpBuf[:w]
	} else {
		tmp = make([]int64, w)
	}
	for i := 1; i < n; i++ {
		if cmpBlock(s[(i-1)*w:i*w], s[i*w:(i+1)*w]) <= 0 {
			continue
		}
		copy(tmp, s[i*w:(i+1)*w])
		j := i
		for j > 0 && cmpBlock(s[(j-1)*w:j*w], tmp) > 0 {
			copy(s[j*w:(j+1)*w], s[(j-1)*w:j*w])
			j--
		}
		copy(s[j*w:(j+1)*w], tmp)
	}
}

func cmpBlock(a, b []int64) int {
	for k := range a {
		if a[k] != b[k] {
			if a[k] < b[k] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// FormatLeaf prints the value of leaf i in slots.
func (m *Model) FormatLeaf(i int, v int64) string {
	l := &m.Leaves[i]
	if v == m.Undef {
		if l.Kind == LeafPresent {
			return "absent"
		}
		return "undefined"
	}
	if l.Kind == LeafPresent {
		return "present"
	}
	return m.FormatValue(l.Type, v)
}

// FormatValue prints a value of simple type t.
func (m *Model) FormatValue(t *murphi.Type, v int64) string {
	if v == m.Undef {
		return "undefined"
	}
	return formatValue(m.Arith, t, v)
}

func formatValue(ar murphi.Arith, t *murphi.Type, v int64) string {
	switch t.Kind {
	case murphi.TBool:
		if v != 0 {
			return "true"
		}
		return "false"
	case murphi.TEnum:
		if i := v - t.Lo; i >= 0 && i < int64(len(t.Members)) {
			return t.Members[i]
		}
	case murphi.TScalarset:
		name := t.Name
		if name == "" {
			name = "scalarset"
		}
		return name + "_" + strconv.FormatInt(v-t.Lo+1, 10)
	case murphi.TUnion:
		for _, mt := range t.Union {
			if mt.Lo <= v && v <= mt.Hi {
				return formatValue(ar, mt, v)
			}
		}
	case murphi.TMultisetIndex:
		return strconv.FormatInt(v, 10)
	}
	return ar.Format(v)
}

// FormatState prints every leaf as "name:value", one per line.
func (m *Model) FormatState(slots []int64) string {
	var b strings.Builder
	for i := range m.Leaves {
		b.WriteString(m.Leaves[i].Name)
		b.WriteByte(':')
		b.WriteString(m.FormatLeaf(i, slots[i]))
		b.WriteByte('\n')
	}
	return b.String()
}
