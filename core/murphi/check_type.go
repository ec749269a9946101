package murphi

// This file resolves type expressions and decides type compatibility.

import "math"

// maxElems bounds the values of one enum or scalarset and the elements of
// one array; maxLeaves bounds the scalar components of one type (and of the
// whole state), so that layouts stay addressable.
const (
	maxElems  = 1 << 24
	maxLeaves = 1 << 20
)

// Leaves returns the number of scalar components of a value of type t,
// saturating at maxLeaves+1.
func Leaves(t *Type) uint64 {
	sat := func(n uint64) uint64 {
		if n > maxLeaves {
			return maxLeaves + 1
		}
		return n
	}
	switch t.Kind {
	case TRecord:
		var n uint64
		for _, f := range t.Fields {
			n = sat(n + Leaves(f.Type))
		}
		return n
	case TArray:
		c, e := t.Index.Count(), Leaves(t.Elem)
		if c > maxLeaves || e > maxLeaves || c*e > maxLeaves {
			return maxLeaves + 1
		}
		return c * e
	case TMultiset:
		c, e := uint64(t.Size), Leaves(t.Elem)+1
		if c > maxLeaves || e > maxLeaves || c*e > maxLeaves {
			return maxLeaves + 1
		}
		return c * e
	}
	return 1
}

// tooLarge reports (once) a type with more than maxLeaves components.
func (c *Checker) tooLarge(t *Type, pos Pos) bool {
	if Leaves(t) > maxLeaves {
		c.r.errorf(pos, "type %s has more than %d scalar components; Locus cannot store it", t, maxLeaves)
		return true
	}
	return false
}

func (c *Checker) typeExpr(t TypeExpr) *Type {
	switch t := t.(type) {
	case *BooleanType:
		return BoolType
	case *NamedType:
		obj := c.scope.Lookup(t.Name.Name)
		if obj == nil {
			c.undefined(t.Name, " type")
			return InvalidType
		}
		t.Name.Obj = obj
		if obj.Kind != ObjType {
			c.r.errorf(t.Pos(), "%s is a %s, not a type", t.Name.Name, obj.Kind)
			return InvalidType
		}
		return obj.Type
	case *RangeType:
		lo, okLo := c.constInt(t.Lo, "the lower bound of a range")
		hi, okHi := c.constInt(t.Hi, "the upper bound of a range")
		if !okLo || !okHi {
			return InvalidType
		}
		if c.less(hi, lo) {
			c.r.errorf(t.Pos(), "empty range %s .. %s: the upper bound is below the lower bound", c.fmtInt(lo), c.fmtInt(hi))
			return InvalidType
		}
		if !c.unsigned && lo == math.MinInt64 {
			c.r.errorf(t.Pos(), "range lower bound %d is too small: one value is reserved for 'undefined'", lo)
			return InvalidType
		}
		if c.unsigned && uint64(hi) == math.MaxUint64 {
			c.r.errorf(t.Pos(), "range %s .. %s has 2^64 values; with 'undefined' it needs 65 bits, and Locus supports 64-bit values", c.fmtInt(lo), c.fmtInt(hi))
			return InvalidType
		}
		if !c.unsigned && uint64(hi-lo) == math.MaxUint64 {
			c.r.errorf(t.Pos(), "range %d .. %d has 2^64 values; with 'undefined' it needs 65 bits, and Locus supports 64-bit values", lo, hi)
			return InvalidType
		}
		return &Type{Kind: TRange, Lo: lo, Hi: hi, ID: c.newTypeID(), Pos: t.Pos()}
	case *EnumType:
		typ := &Type{Kind: TEnum, ID: c.newTypeID(), Pos: t.Pos()}
		typ.Lo = c.ordinal
		for _, m := range t.Members {
			typ.Members = append(typ.Members, m.Name)
			obj := &Object{Kind: ObjConst, Name: m.Name, Pos: m.Pos(), Type: typ, Value: c.ordinal, ReadOnly: true}
			m.Obj = obj
			c.declare(obj)
			c.ordinal++
		}
		typ.Hi = c.ordinal - 1
		if len(t.Members) == 0 {
			return InvalidType
		}
		return typ
	case *ScalarsetType:
		n, ok := c.constInt(t.Size, "the size of a scalarset")
		if !ok {
			return InvalidType
		}
		if n < 1 || n > maxElems {
			c.r.errorf(t.Size.Pos(), "scalarset size must be between 1 and %d, not %s", maxElems, c.fmtInt(n))
			return InvalidType
		}
		typ := &Type{Kind: TScalarset, Size: n, Lo: c.ordinal, Hi: c.ordinal + n - 1, ID: c.newTypeID(), Pos: t.Pos()}
		c.ordinal += n
		return typ
	case *UnionType:
		typ := &Type{Kind: TUnion, ID: c.newTypeID(), Pos: t.Pos()}
		seen := map[int]bool{}
		for _, m := range t.Members {
			mt := c.typeExpr(m)
			if mt == InvalidType {
				return InvalidType
			}
			if mt.Kind != TEnum && mt.Kind != TScalarset {
				c.r.errorf(m.Pos(), "a union can only combine enum and scalarset types, not %s", mt)
				return InvalidType
			}
			if seen[mt.ID] {
				c.r.errorf(m.Pos(), "%s appears twice in the union", mt)
				return InvalidType
			}
			seen[mt.ID] = true
			typ.Union = append(typ.Union, mt)
		}
		if len(typ.Union) < 2 {
			c.r.errorf(t.Pos(), "a union needs at least two member types")
			return InvalidType
		}
		return typ
	case *RecordType:
		typ := &Type{Kind: TRecord, ID: c.newTypeID(), Pos: t.Pos()}
		names := map[string]Pos{}
		for _, fd := range t.Fields {
			ft := c.typeExpr(fd.Type)
			for _, n := range fd.Names {
				if prev, dup := names[n.Name]; dup {
					e := c.r.errorf(n.Pos(), "duplicate field %s in record", n.Name)
					c.r.note(e, prev, "previous field %s", n.Name)
					continue
				}
				names[n.Name] = n.Pos()
				typ.Fields = append(typ.Fields, &Field{Name: n.Name, Type: ft, Pos: n.Pos()})
			}
		}
		if c.tooLarge(typ, t.Pos()) {
			return InvalidType
		}
		return typ
	case *ArrayType:
		idx := c.typeExpr(t.Index)
		elem := c.typeExpr(t.Elem)
		if idx == InvalidType || elem == InvalidType {
			return InvalidType
		}
		if !idx.IsOrdinal() {
			c.r.errorf(t.Index.Pos(), "an array index must be a boolean, enum, subrange, scalarset or union type, not %s", idx)
			return InvalidType
		}
		if idx.Count() > maxElems {
			c.r.errorf(t.Index.Pos(), "array index type %s has too many values (%d; at most %d)", idx, idx.Count(), maxElems)
			return InvalidType
		}
		at := &Type{Kind: TArray, Index: idx, Elem: elem, ID: c.newTypeID(), Pos: t.Pos()}
		if c.tooLarge(at, t.Pos()) {
			return InvalidType
		}
		return at
	case *MultisetType:
		n, ok := c.constInt(t.Size, "the size of a multiset")
		elem := c.typeExpr(t.Elem)
		if !ok || elem == InvalidType {
			return InvalidType
		}
		if n < 1 || n > maxElems {
			c.r.errorf(t.Size.Pos(), "multiset size must be between 1 and %d, not %s", maxElems, c.fmtInt(n))
			return InvalidType
		}
		mt := &Type{Kind: TMultiset, Size: n, Elem: elem, ID: c.newTypeID(), Pos: t.Pos()}
		if c.tooLarge(mt, t.Pos()) {
			return InvalidType
		}
		return mt
	case *BadType:
		return InvalidType
	}
	return InvalidType
}

// constInt checks x and returns its constant integer value.
func (c *Checker) constInt(x Expr, what string) (int64, bool) {
	tv := c.expr(x)
	if tv.Type == InvalidType {
		return 0, false
	}
	if !tv.Type.IsInteger() {
		c.r.errorf(x.Pos(), "%s must be an integer, not %s", what, tv.Type)
		return 0, false
	}
	if !tv.Const {
		// Calls of pure functions of constants fold at check time.
		v, ok, why := c.fold(x)
		if !ok {
			c.r.errorf(x.Pos(), "%s must be a constant (%s)", what, why)
			return 0, false
		}
		return v, true
	}
	return tv.Value, true
}

// identical reports whether a and b are the same type in the sense needed for
// var parameters: same kind and bounds, same enum/scalarset declaration,
// structurally identical aggregates.
func identical(a, b *Type) bool {
	if a == b {
		return true
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case TBool, TInt:
		return true
	case TRange:
		return a.Lo == b.Lo && a.Hi == b.Hi
	case TEnum, TScalarset, TUnion:
		return a.ID == b.ID
	case TRecord:
		if len(a.Fields) != len(b.Fields) {
			return false
		}
		for i := range a.Fields {
			if a.Fields[i].Name != b.Fields[i].Name || !identical(a.Fields[i].Type, b.Fields[i].Type) {
				return false
			}
		}
		return true
	case TArray:
		return identical(a.Index, b.Index) && identical(a.Elem, b.Elem)
	case TMultiset:
		return a.Size == b.Size && identical(a.Elem, b.Elem)
	case TMultisetIndex:
		return identical(a.Elem, b.Elem)
	}
	return false
}

// compatible reports whether values of src may be assigned to dst (and
// compared with them). Integers mix freely (range checks happen at run
// time); enums and scalarsets only with themselves or a union holding them;
// aggregates structurally (Rumur).
func compatible(dst, src *Type) bool {
	if dst == InvalidType || src == InvalidType {
		return true // already reported
	}
	if dst.IsInteger() && src.IsInteger() {
		return true
	}
	switch dst.Kind {
	case TBool:
		return src.Kind == TBool
	case TEnum, TScalarset:
		if src.Kind == TUnion {
			return unionHas(src, dst)
		}
		return (src.Kind == TEnum || src.Kind == TScalarset) && src.ID == dst.ID
	case TUnion:
		if src.Kind == TUnion {
			return src.ID == dst.ID || unionOverlaps(dst, src)
		}
		return unionHas(dst, src)
	case TRecord:
		if src.Kind != TRecord || len(src.Fields) != len(dst.Fields) {
			return false
		}
		for i := range dst.Fields {
			if !compatible(dst.Fields[i].Type, src.Fields[i].Type) {
				return false
			}
		}
		return true
	case TArray:
		return src.Kind == TArray && sameIndex(dst.Index, src.Index) && compatible(dst.Elem, src.Elem)
	case TMultiset:
		return src.Kind == TMultiset && src.Size == dst.Size && compatible(dst.Elem, src.Elem)
	case TMultisetIndex:
		return src.Kind == TMultisetIndex && identical(dst.Elem, src.Elem)
	}
	return false
}

// sameIndex reports whether two array index types enumerate the same values.
func sameIndex(a, b *Type) bool {
	if a.IsInteger() && b.IsInteger() {
		return a.Lo == b.Lo && a.Hi == b.Hi
	}
	return identical(a, b)
}

func unionHas(u, t *Type) bool {
	for _, m := range u.Union {
		if m.ID == t.ID {
			return true
		}
	}
	return false
}

func unionOverlaps(a, b *Type) bool {
	for _, m := range b.Union {
		if unionHas(a, m) {
			return true
		}
	}
	return false
}
