package compile

// This file lays out the state: one slot per scalar leaf, and a bit offset
// and width per leaf in the packed vector (Murphi's bit compression: a type
// with n values takes ceil(log2(n+1)) bits, the extra code being undefined).

import (
	"math/bits"
	"strconv"

	"github.com/locus-mc/locus/core/murphi"
)

// SlotSize returns the number of slots a value of type t occupies.
func SlotSize(t *murphi.Type) int {
	switch t.Kind {
	case murphi.TRecord:
		n := 0
		for _, f := range t.Fields {
			n += SlotSize(f.Type)
		}
		return n
	case murphi.TArray:
		return int(t.Index.Count()) * SlotSize(t.Elem)
	case murphi.TMultiset:
		return int(t.Size) * (1 + SlotSize(t.Elem))
	}
	return 1
}

// FieldOffset returns the slot offset of field i within a record of type t.
func FieldOffset(t *murphi.Type, i int) int {
	off := 0
	for _, f := range t.Fields[:i] {
		off += SlotSize(f.Type)
	}
	return off
}

// bitsFor returns the width of a leaf with count values plus undefined.
func bitsFor(count uint64) int {
	if count == ^uint64(0) {
		return 64
	}
	return bits.Len64(count) // codes 0..count need Len64(count) bits
}

// IndexValues lists the values of an ordinal type in index order.
func IndexValues(t *murphi.Type) []int64 {
	var vals []int64
	switch t.Kind {
	case murphi.TUnion:
		for _, m := range t.Union {
			vals = append(vals, IndexValues(m)...)
		}
	default:
		for v := t.Lo; ; v++ {
			vals = append(vals, v)
			if v == t.Hi {
				break
			}
		}
	}
	return vals
}

// layout appends the leaves of a value of type t named name.
func (c *compiler) layout(name string, t *murphi.Type) {
	switch t.Kind {
	case murphi.TRecord:
		for _, f := range t.Fields {
			c.layout(name+"."+f.Name, f.Type)
		}
	case murphi.TArray:
		for _, v := range IndexValues(t.Index) {
			c.layout(name+"["+c.formatValue(t.Index, v)+"]", t.Elem)
		}
	case murphi.TMultiset:
		c.m.Multisets = append(c.m.Multisets, Multiset{
			Name: name, Slot: len(c.m.Leaves), Size: int(t.Size), EntrySlots: 1 + SlotSize(t.Elem),
		})
		for i := 0; i < int(t.Size); i++ {
			entry := name + "{" + strconv.Itoa(i) + "}"
			c.addLeaf(Leaf{Name: entry, Kind: LeafPresent, Lo: 1, Count: 1})
			c.layout(entry, t.Elem)
		}
	default:
		c.addLeaf(leafFor(name, t))
	}
}

func leafFor(name string, t *murphi.Type) Leaf {
	l := Leaf{Name: name, Type: t, Kind: LeafRange, Lo: t.Lo, Count: t.Count()}
	if t.Kind == murphi.TUnion {
		l.Kind = LeafUnion
		base := uint64(0)
		for _, m := range t.Union {
			l.Parts = append(l.Parts, UnionPart{Lo: m.Lo, Hi: m.Hi, Base: base})
			base += m.Count()
		}
	}
	return l
}

func (c *compiler) addLeaf(l Leaf) {
	l.Bits = bitsFor(l.Count)
	l.Offset = c.m.StateBits
	c.m.StateBits += l.Bits
	c.m.Leaves = append(c.m.Leaves, l)
}
