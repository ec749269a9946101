package reference

// This file defines values: a tree that mirrors the type, with one node per
// record field, array element and multiset entry.

import (
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/locus-mc/locus/core/murphi"
)

// Value is a Murphi value of type Type. A scalar is Def and Int (integers
// themselves; booleans 0 and 1; enum and scalarset values the checker's
// global ordinals). A record holds its fields in Elems, an array its
// elements in index order, and a multiset its Size entries, nil for an
// absent entry.
type Value struct {
	Type  *murphi.Type
	Def   bool
	Int   int64
	Elems []*Value
}

// newValue returns an undefined value of type t (multisets empty).
func newValue(t *murphi.Type) *Value {
	v := &Value{Type: t}
	switch t.Kind {
	case murphi.TRecord:
		for _, f := range t.Fields {
			v.Elems = append(v.Elems, newValue(f.Type))
		}
	case murphi.TArray:
		for range indexValues(t.Index) {
			v.Elems = append(v.Elems, newValue(t.Elem))
		}
	case murphi.TMultiset:
		v.Elems = make([]*Value, t.Size)
	}
	return v
}

// scalar returns a defined scalar value.
func scalar(t *murphi.Type, x int64) *Value { return &Value{Type: t, Def: true, Int: x} }

// clone returns a deep copy of v.
func (v *Value) clone() *Value {
	if v == nil {
		return nil
	}
	c := &Value{Type: v.Type, Def: v.Def, Int: v.Int}
	if v.Elems != nil {
		c.Elems = make([]*Value, len(v.Elems))
		for i, e := range v.Elems {
			c.Elems[i] = e.clone()
		}
	}
	return c
}

// isAggregate reports whether values of t have components.
func isAggregate(t *murphi.Type) bool {
	return t.Kind == murphi.TRecord || t.Kind == murphi.TArray || t.Kind == murphi.TMultiset
}

// indexValues lists the values of an ordinal type, in index order (a
// union lists its members' values member by member).
func indexValues(t *murphi.Type) []int64 {
	if t.Kind == murphi.TUnion {
		var out []int64
		for _, m := range t.Union {
			out = append(out, indexValues(m)...)
		}
		return out
	}
	var out []int64
	for v := t.Lo; ; v++ {
		out = append(out, v)
		if v == t.Hi {
			return out
		}
	}
}

// ---------------------------------------------------------------------------
// Integers, signed or (in a model with a literal above 2^63-1) unsigned.

// num is how the model reads the bits of an integer.
type num struct{ unsigned bool }

func (n num) big(x int64) *big.Int {
	if n.unsigned {
		return new(big.Int).SetUint64(uint64(x))
	}
	return big.NewInt(x)
}

var (
	minInt64  = big.NewInt(-1 << 63)
	maxInt64  = big.NewInt(1<<63 - 1)
	maxUint64 = new(big.Int).SetUint64(^uint64(0))
)

// fit returns the 64-bit value of b, or false if b overflows the model's
// integers.
func (n num) fit(b *big.Int) (int64, bool) {
	if n.unsigned {
		if b.Sign() < 0 || b.Cmp(maxUint64) > 0 {
			return 0, false
		}
		return int64(b.Uint64()), true
	}
	if b.Cmp(minInt64) < 0 || b.Cmp(maxInt64) > 0 {
		return 0, false
	}
	return b.Int64(), true
}

// cmp compares two integers.
func (n num) cmp(a, b int64) int { return n.big(a).Cmp(n.big(b)) }

func (n num) format(x int64) string {
	if n.unsigned {
		return strconv.FormatUint(uint64(x), 10)
	}
	return strconv.FormatInt(x, 10)
}

// contains reports whether the defined scalar x is a value of type t.
func (n num) contains(t *murphi.Type, x int64) bool {
	switch t.Kind {
	case murphi.TInt:
		return true
	case murphi.TRange:
		return n.cmp(t.Lo, x) <= 0 && n.cmp(x, t.Hi) <= 0
	case murphi.TBool, murphi.TEnum, murphi.TScalarset:
		return t.Lo <= x && x <= t.Hi
	case murphi.TUnion:
		for _, m := range t.Union {
			if m.Lo <= x && x <= m.Hi {
				return true
			}
		}
		return false
	case murphi.TMultisetIndex:
		return 0 <= x && x < t.Elem.Size
	}
	return false
}

// position returns where value x sits in the index type t, or false.
func (n num) position(t *murphi.Type, x int64) (int, bool) {
	if !n.contains(t, x) {
		return 0, false
	}
	if t.Kind == murphi.TUnion {
		base := 0
		for _, m := range t.Union {
			if m.Lo <= x && x <= m.Hi {
				return base + int(x-m.Lo), true
			}
			base += int(m.Hi-m.Lo) + 1
		}
	}
	return int(uint64(x) - uint64(t.Lo)), true
}

// ---------------------------------------------------------------------------
// Text

// scalarText prints a scalar of type t.
func (n num) scalarText(t *murphi.Type, v *Value) string {
	if !v.Def {
		return "undefined"
	}
	x := v.Int
	switch t.Kind {
	case murphi.TBool:
		if x != 0 {
			return "true"
		}
		return "false"
	case murphi.TEnum:
		return t.Members[x-t.Lo]
	case murphi.TScalarset:
		return scalarsetName(t) + "#" + strconv.FormatInt(x-t.Lo+1, 10)
	case murphi.TUnion:
		for _, m := range t.Union {
			if m.Lo <= x && x <= m.Hi {
				return n.scalarText(m, v)
			}
		}
	}
	return n.format(x)
}

func scalarsetName(t *murphi.Type) string {
	if t.Name != "" {
		return t.Name
	}
	return "scalarset" + strconv.Itoa(t.ID)
}

// text prints v. Multiset entries print in sorted order, so that the text
// of a multiset does not depend on where its entries sit.
func (n num) text(v *Value) string {
	var b strings.Builder
	n.write(&b, v)
	return b.String()
}

func (n num) write(b *strings.Builder, v *Value) {
	t := v.Type
	switch t.Kind {
	case murphi.TRecord:
		b.WriteByte('{')
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(f.Name)
			b.WriteByte('=')
			n.write(b, v.Elems[i])
		}
		b.WriteByte('}')
	case murphi.TArray:
		b.WriteByte('[')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteByte(',')
			}
			n.write(b, e)
		}
		b.WriteByte(']')
	case murphi.TMultiset:
		var entries []string
		for _, e := range v.Elems {
			if e != nil {
				entries = append(entries, n.text(e))
			}
		}
		sort.Strings(entries)
		b.WriteString("{|")
		b.WriteString(strings.Join(entries, ","))
		b.WriteString("|}")
	default:
		b.WriteString(n.scalarText(t, v))
	}
}

// ---------------------------------------------------------------------------
// Multiset order

// sortMultisets puts the entries of every multiset inside v in one fixed
// order. The order of entries is not part of a state's meaning; fixing one
// order only decides which entry a choose index names. The order chosen is
// absent entries first, then present entries compared leaf by leaf, an
// undefined leaf before any value and values by their number: the order in
// which Locus keeps them, so that rule instances over choose indices line
// up in both implementations and can be compared one by one.
func (n num) sortMultisets(v *Value) {
	if v == nil {
		return
	}
	for _, e := range v.Elems {
		n.sortMultisets(e)
	}
	if v.Type.Kind == murphi.TMultiset {
		sort.SliceStable(v.Elems, func(i, j int) bool { return n.entryLess(v.Elems[i], v.Elems[j]) })
	}
}

func (n num) entryLess(a, b *Value) bool {
	if a == nil || b == nil {
		return a == nil && b != nil
	}
	return n.compareLeaves(a, b) < 0
}

// compareLeaves compares two values of one type leaf by leaf.
func (n num) compareLeaves(a, b *Value) int {
	if a.Type.Kind == murphi.TMultiset {
		for i := range a.Elems {
			ea, eb := a.Elems[i], b.Elems[i]
			switch {
			case ea == nil && eb == nil:
				continue
			case ea == nil:
				return -1
			case eb == nil:
				return 1
			}
			if c := n.compareLeaves(ea, eb); c != 0 {
				return c
			}
		}
		return 0
	}
	if a.Elems != nil {
		for i := range a.Elems {
			if c := n.compareLeaves(a.Elems[i], b.Elems[i]); c != 0 {
				return c
			}
		}
		return 0
	}
	switch {
	case !a.Def && !b.Def:
		return 0
	case !a.Def:
		return -1
	case !b.Def:
		return 1
	}
	switch {
	case a.Int < b.Int:
		return -1
	case a.Int > b.Int:
		return 1
	}
	return 0
}
