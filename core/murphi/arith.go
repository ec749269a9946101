package murphi

// This file defines Murphi integer arithmetic, shared by constant folding
// and the compiled model: C semantics for / and % (truncation; the remainder
// has the dividend's sign), Rumur's total shifts, and an error on any
// intermediate overflow of the 64-bit value type.

import (
	"math"
	"math/bits"
	"strconv"
)

// ArithErr is the outcome of an arithmetic operation.
type ArithErr uint8

// Arithmetic outcomes.
const (
	ArithOK ArithErr = iota
	ArithOverflow
	ArithDivZero
)

// Arith performs integer operations on values of one model: signed int64, or
// unsigned uint64 bit patterns when Unsigned is set.
type Arith struct{ Unsigned bool }

// Add returns a+b.
func (ar Arith) Add(a, b int64) (int64, ArithErr) {
	if ar.Unsigned {
		r, carry := bits.Add64(uint64(a), uint64(b), 0)
		if carry != 0 {
			return 0, ArithOverflow
		}
		return int64(r), ArithOK
	}
	r := a + b
	if (a^r)&(b^r) < 0 {
		return 0, ArithOverflow
	}
	return r, ArithOK
}

// Sub returns a-b.
func (ar Arith) Sub(a, b int64) (int64, ArithErr) {
	if ar.Unsigned {
		r, borrow := bits.Sub64(uint64(a), uint64(b), 0)
		if borrow != 0 {
			return 0, ArithOverflow
		}
		return int64(r), ArithOK
	}
	r := a - b
	if (a^b)&(a^r) < 0 {
		return 0, ArithOverflow
	}
	return r, ArithOK
}

// Mul returns a*b.
func (ar Arith) Mul(a, b int64) (int64, ArithErr) {
	if ar.Unsigned {
		hi, lo := bits.Mul64(uint64(a), uint64(b))
		if hi != 0 {
			return 0, ArithOverflow
		}
		return int64(lo), ArithOK
	}
	if a == 0 || b == 0 {
		return 0, ArithOK
	}
	r := a * b
	if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, ArithOverflow
	}
	return r, ArithOK
}

// Div returns a/b, truncated toward zero.
func (ar Arith) Div(a, b int64) (int64, ArithErr) {
	if b == 0 {
		return 0, ArithDivZero
	}
	if ar.Unsigned {
		return int64(uint64(a) / uint64(b)), ArithOK
	}
	if a == math.MinInt64 && b == -1 {
		return 0, ArithOverflow
	}
	return a / b, ArithOK
}

// Mod returns a%b with the sign of a.
func (ar Arith) Mod(a, b int64) (int64, ArithErr) {
	if b == 0 {
		return 0, ArithDivZero
	}
	if ar.Unsigned {
		return int64(uint64(a) % uint64(b)), ArithOK
	}
	if b == -1 {
		return 0, ArithOK
	}
	return a % b, ArithOK
}

// Neg returns -a.
func (ar Arith) Neg(a int64) (int64, ArithErr) {
	if ar.Unsigned {
		if a != 0 {
			return 0, ArithOverflow
		}
		return 0, ArithOK
	}
	if a == math.MinInt64 {
		return 0, ArithOverflow
	}
	return -a, ArithOK
}

// Shl returns a << b; a negative b shifts right, and shifting by 64 or more
// gives 0.
func (ar Arith) Shl(a, b int64) int64 {
	if !ar.Unsigned && b < 0 {
		if b == math.MinInt64 {
			return 0
		}
		return ar.Shr(a, -b)
	}
	if uint64(b) >= 64 {
		return 0
	}
	return int64(uint64(a) << uint(b))
}

// Shr returns a >> b (arithmetic for signed values); a negative b shifts
// left, and shifting by 64 or more gives 0.
func (ar Arith) Shr(a, b int64) int64 {
	if !ar.Unsigned && b < 0 {
		if b == math.MinInt64 {
			return 0
		}
		return ar.Shl(a, -b)
	}
	if uint64(b) >= 64 {
		return 0
	}
	if ar.Unsigned {
		return int64(uint64(a) >> uint(b))
	}
	return a >> uint(b)
}

// Less reports a < b.
func (ar Arith) Less(a, b int64) bool {
	if ar.Unsigned {
		return uint64(a) < uint64(b)
	}
	return a < b
}

// Format prints v in decimal.
func (ar Arith) Format(v int64) string {
	if ar.Unsigned {
		return strconv.FormatUint(uint64(v), 10)
	}
	return strconv.FormatInt(v, 10)
}

func (c *Checker) arith() Arith          { return Arith{Unsigned: c.unsigned} }
func (c *Checker) less(a, b int64) bool  { return c.arith().Less(a, b) }
func (c *Checker) fmtInt(v int64) string { return c.arith().Format(v) }
func (c *Checker) inRange(t *Type, v int64) bool {
	if t.Kind == TRange {
		return !c.less(v, t.Lo) && !c.less(t.Hi, v)
	}
	return t.containsSigned(v)
}
