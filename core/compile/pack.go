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

// Pack writes the packed form of slots into dst (len >= StateBytes).
func (m *Model) Pack(slots []int64, dst []byte) {
	var acc uint64
	nb := 0
	pos := 0
	undef := m.Undef
	pk := m.pack
	slots = slots[:len(pk)]
	for i := range pk {
		l := &pk[i]
		v := slots[i]
		var e uint64
		if v != undef {
			if l.union {
				e = m.Leaves[i].encode(v, undef)
			} else {
				e = uint64(v-l.lo) + 1
			}
		}
		acc |= e << uint(nb)
		nb += int(l.bits)
		if nb >= 64 {
			binary.LittleEndian.PutUint64(dst[pos:], acc)
			pos += 8
			nb -= 64
			if nb > 0 {
				acc = e >> uint(int(l.bits)-nb)
			} else {
				acc = 0
			}
		}
	}
	for ; nb > 0; nb -= 8 {
		dst[pos] = byte(acc)
		acc >>= 8
		pos++
	}
}

// Unpacker decodes packed states; it owns a padded scratch buffer.
type Unpacker struct {
	m   *Model
	buf []byte
}

// NewUnpacker returns an Unpacker for m.
func (m *Model) NewUnpacker() *Unpacker {
	return &Unpacker{m: m, buf: make([]byte, m.StateBytes+16)}
}

// Unpack decodes the packed state src into slots.
func (u *Unpacker) Unpack(src []byte, slots []int64) {
	buf := u.buf
	copy(buf, src[:u.m.StateBytes])
	undef := u.m.Undef
	for i := range u.m.Leaves {
		l := &u.m.Leaves[i]
		off := l.Offset
		b := off >> 3
		sh := uint(off & 7)
		x := binary.LittleEndian.Uint64(buf[b:]) >> sh
		if int(sh)+l.Bits > 64 {
			x |= uint64(buf[b+8]) << (64 - sh)
		}
		if l.Bits < 64 {
			x &= 1<<uint(l.Bits) - 1
		}
		if x == 0 {
			slots[i] = undef
		} else if l.Kind == LeafUnion {
			slots[i] = l.decode(x, undef)
		} else {
			slots[i] = l.Lo + int64(x-1)
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
