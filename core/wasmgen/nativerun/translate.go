package nativerun

// This file translates a decoded module to Go, as wasm2c translates
// WebAssembly to C: each function becomes a Go function, each local a Go
// variable, linear memory a reserved mapping addressed through unsafe
// pointers. The operand stack is resolved at translation time: a stack
// slot of depth d is the variable a<d> (i32) or b<d> (i64), and a run of
// pure instructions (constants, local and global reads, loads,
// arithmetic) is folded into one Go expression, written to its slot's
// variable only before an instruction with an effect (a store, a call, a
// local or global write, control flow). Structured control becomes labels
// and gotos at the top level of the function, with every variable
// declared before the first label, which is what Go's goto allows.

import (
	"bytes"
	"fmt"
	"strings"
)

// entry is an operand stack slot.
type entry struct {
	t    byte
	expr string
	kind int
	// isBool: expr is a Go bool (a comparison's i32 result), so a branch
	// on it needs no conversion.
	isBool bool
	val    uint64 // a constant's value
}

// signed is e converted to the signed type st (int32 or int64): Go
// refuses the conversion of a constant that does not fit, so a constant
// is written signed.
func signed(e entry, st string) string { return st + "(" + opnd(e) + ")" }

// opnd is e as the operand of a conversion or of an operator whose other
// operand is a constant too. Go evaluates constant expressions exactly
// and refuses one whose value does not fit its type, where WebAssembly
// wraps around, so a constant there goes through k32 or k64, identity
// functions that the compiler inlines and folds with wrapping arithmetic.
func opnd(e entry) string {
	if e.kind == kConst {
		return "k" + bitsOf(e.t) + "(" + e.expr + ")"
	}
	return num(e)
}

const (
	kVar   = iota // the slot's own variable
	kConst        // a constant
	kExpr         // an expression not yet evaluated
)

// label is an open block, loop or if.
type label struct {
	op      byte
	id      int
	height  int
	result  byte
	used    bool // a branch targets it
	hasElse bool
	topLine int // a loop's label line, kept empty if unused
	// sets are the lines that set a block's result, written when it
	// ends (see endResult).
	sets []resultSet
}

// resultSet is a line that sets a block's result to e, written when the
// block ends: the assignment, between before and after (a br_if's test).
type resultSet struct {
	line          int
	e             entry
	before, after string
}

type funcWriter struct {
	m         *module
	types     []byte // of the parameters and locals
	result    byte
	lines     []string
	stack     []entry
	ctrl      []*label
	labels    int
	reachable bool
	skip      int // blocks opened in unreachable code, not yet ended
	depth32   int // variables a0.. and b0.. used
	depth64   int
	bools     []int // labels whose result is the Go bool c<id>
}

// translateFunc writes defined function i.
func translateFunc(w *bytes.Buffer, m *module, i int) (err error) {
	defer func() {
		if x := recover(); x != nil {
			e, ok := x.(error)
			if !ok {
				panic(x)
			}
			err = fmt.Errorf("nativerun: function %d (%s): %w", i, m.names[uint32(i)], e)
		}
	}()
	t := m.types[m.funcTypes[i]]
	f := &funcWriter{m: m, types: append([]byte(nil), t.params...), reachable: true}
	if len(t.results) > 0 {
		f.result = t.results[0]
	}
	r := &reader{b: m.bodies[i]}
	for n := r.u32(); n > 0; n-- {
		k := r.u32()
		typ := r.valType()
		if k > 1<<16 {
			panic(fmt.Errorf("%d locals", k))
		}
		for ; k > 0; k-- {
			f.types = append(f.types, typ)
		}
	}
	f.body(r)
	if r.pos != len(r.b) {
		panic(fmt.Errorf("%d bytes after the function's end", len(r.b)-r.pos))
	}

	if name := m.names[uint32(i)]; name != "" {
		fmt.Fprintf(w, "// %s\n", strings.ReplaceAll(name, "\n", " "))
	}
	fmt.Fprintf(w, "func f%d(", i)
	for p := range t.params {
		if p > 0 {
			w.WriteString(", ")
		}
		fmt.Fprintf(w, "l%d %s", p, goType(t.params[p]))
	}
	w.WriteString(")")
	if f.result != 0 {
		w.WriteString(" " + goType(f.result))
	}
	w.WriteString(" {\n")
	// Only the variables the body names are declared, and only those it
	// never reads are marked used (_ = v): what Go's inliner counts is
	// then the body, so that small functions stay within its budget.
	reads, names := usage(f.lines)
	if names["m"] > 0 {
		w.WriteString("\tm := mem\n")
	}
	var vars, types []string
	for l := len(t.params); l < len(f.types); l++ {
		vars, types = append(vars, fmt.Sprintf("l%d", l)), append(types, goType(f.types[l]))
	}
	for d := 0; d < f.depth32; d++ {
		vars, types = append(vars, fmt.Sprintf("a%d", d)), append(types, "uint32")
	}
	for d := 0; d < f.depth64; d++ {
		vars, types = append(vars, fmt.Sprintf("b%d", d)), append(types, "uint64")
	}
	for _, id := range f.bools {
		vars, types = append(vars, fmt.Sprintf("c%d", id)), append(types, "bool")
	}
	var unread []string
	for i, v := range vars {
		if names[v] == 0 {
			continue
		}
		fmt.Fprintf(w, "\tvar %s %s\n", v, types[i])
		if reads[v] == 0 {
			unread = append(unread, v)
		}
	}
	for _, v := range unread {
		fmt.Fprintf(w, "\t_ = %s\n", v)
	}
	for _, l := range f.lines {
		if l != "" {
			w.WriteString(l)
			w.WriteByte('\n')
		}
	}
	w.WriteString("}\n\n")
	return nil
}

func goType(t byte) string {
	if t == tI64 {
		return "uint64"
	}
	return "uint32"
}

func (f *funcWriter) emit(format string, args ...any) {
	f.lines = append(f.lines, "\t"+fmt.Sprintf(format, args...))
}

// slot names the variable of stack depth d for type t.
func (f *funcWriter) slot(d int, t byte) string {
	if t == tI64 {
		f.depth64 = max(f.depth64, d+1)
		return fmt.Sprintf("b%d", d)
	}
	f.depth32 = max(f.depth32, d+1)
	return fmt.Sprintf("a%d", d)
}

func (f *funcWriter) push(e entry) { f.stack = append(f.stack, e) }

func (f *funcWriter) pushExpr(t byte, expr string) { f.push(entry{t: t, expr: expr, kind: kExpr}) }

func (f *funcWriter) pushBool(expr string) {
	f.push(entry{t: tI32, expr: expr, kind: kExpr, isBool: true})
}

func (f *funcWriter) pop() entry {
	if len(f.stack) == 0 || (len(f.ctrl) > 0 && len(f.stack) <= f.ctrl[len(f.ctrl)-1].height) {
		panic(fmt.Errorf("operand stack underflow"))
	}
	e := f.stack[len(f.stack)-1]
	f.stack = f.stack[:len(f.stack)-1]
	return e
}

func (f *funcWriter) popT(t byte) entry {
	e := f.pop()
	if e.t != t {
		panic(fmt.Errorf("operand of type 0x%x where 0x%x is wanted", e.t, t))
	}
	return e
}

// num is e as a number.
func num(e entry) string {
	if e.isBool {
		return "b2u(" + e.expr + ")"
	}
	return e.expr
}

// cond is e as a Go condition (non-zero).
func cond(e entry) string {
	if e.isBool {
		return e.expr
	}
	return "(" + e.expr + " != 0)"
}

// flush evaluates every pending expression on the stack into its slot,
// bottom up: an expression reads only slots at or above its own depth,
// which are written after it.
func (f *funcWriter) flush() {
	for d, e := range f.stack {
		if e.kind != kExpr {
			continue
		}
		v := f.slot(d, e.t)
		f.emit("%s = %s", v, num(e))
		f.stack[d] = entry{t: e.t, expr: v, kind: kVar}
	}
}

// pushResult evaluates a statement's result into the next slot.
func (f *funcWriter) pushResult(t byte, format string, args ...any) {
	v := f.slot(len(f.stack), t)
	f.emit("%s = "+format, append([]any{v}, args...)...)
	f.push(entry{t: t, expr: v, kind: kVar})
}

func blockType(r *reader) byte {
	switch bt := r.byte(); bt {
	case 0x40:
		return 0
	case tI32, tI64:
		return bt
	default:
		panic(fmt.Errorf("block type 0x%x", bt))
	}
}

// leave evaluates the stack before control leaves for l's end: the
// pending expressions, and l's result (the top, left unevaluated until l
// ends, when it is known whether it is a condition). What else the block
// left on the stack is dropped: it was pure, or a slot evaluated already.
func (f *funcWriter) leave(l *label) {
	if l.op == 0x03 || l.result == 0 {
		f.flush()
		return
	}
	top := f.stack[len(f.stack)-1]
	f.stack = f.stack[:len(f.stack)-1]
	f.flush()
	f.stack = append(f.stack, top)
	f.resultLine(l, "", "")
}

// resultLine records a line that sets l's result to the top of the
// stack, the assignment between before and after.
func (f *funcWriter) resultLine(l *label, before, after string) {
	e := f.stack[len(f.stack)-1]
	if e.t != l.result {
		panic(fmt.Errorf("a block result of the wrong type"))
	}
	l.sets = append(l.sets, resultSet{len(f.lines), e, before, after})
	f.lines = append(f.lines, "")
}

// endResult writes the lines that set l's result, and returns its entry.
// A result that is a condition on every path (a comparison, or the
// constant 0 or 1, as the generator's && and || leave) is the Go bool
// c<id>: a branch on it is then a branch on the comparisons, which Go's
// compiler threads through the constants, where a number would be set
// to 0 or 1 and tested again.
func (f *funcWriter) endResult(l *label) entry {
	isBool := l.result == tI32 && len(l.sets) > 0
	for _, s := range l.sets {
		if !s.e.isBool && !(s.e.kind == kConst && s.e.val <= 1) {
			isBool = false
		}
	}
	v := f.slot(l.height, l.result)
	if isBool {
		v = fmt.Sprintf("c%d", l.id)
		f.bools = append(f.bools, l.id)
	}
	for _, s := range l.sets {
		x := num(s.e)
		switch {
		case isBool && s.e.isBool:
			x = s.e.expr
		case isBool:
			x = fmt.Sprint(s.e.val == 1)
		case x == v && s.before == "":
			continue // the value is in the result's slot already
		}
		f.lines[s.line] = "\t" + s.before + v + " = " + x + s.after
	}
	return entry{t: l.result, expr: v, kind: kVar, isBool: isBool}
}

func (f *funcWriter) target(d uint32) *label {
	if int(d) >= len(f.ctrl) {
		panic(fmt.Errorf("branch to depth %d of %d", d, len(f.ctrl)))
	}
	l := f.ctrl[len(f.ctrl)-1-int(d)]
	l.used = true
	return l
}

func (f *funcWriter) body(r *reader) {
	for {
		op := r.byte()
		if !f.reachable {
			if f.skipOp(op, r) {
				continue
			}
		}
		switch op {
		case 0x00:
			f.flush()
			f.emit(`panic(trap("unreachable"))`)
			f.reachable = false
		case 0x01:
		case 0x02, 0x03:
			bt := blockType(r)
			f.flush()
			f.labels++
			l := &label{op: op, id: f.labels, height: len(f.stack), result: bt}
			if op == 0x03 {
				if bt != 0 {
					panic(fmt.Errorf("a loop with a result"))
				}
				l.topLine = len(f.lines)
				f.lines = append(f.lines, "")
			}
			f.ctrl = append(f.ctrl, l)
		case 0x04:
			bt := blockType(r)
			c := f.popT(tI32)
			f.flush()
			f.labels++
			l := &label{op: op, id: f.labels, height: len(f.stack), result: bt}
			f.emit("if !%s {\n\t\tgoto E%d\n\t}", cond(c), l.id)
			f.ctrl = append(f.ctrl, l)
		case 0x05:
			if len(f.ctrl) == 0 || f.ctrl[len(f.ctrl)-1].op != 0x04 || f.ctrl[len(f.ctrl)-1].hasElse {
				panic(fmt.Errorf("else without if"))
			}
			l := f.ctrl[len(f.ctrl)-1]
			if f.reachable {
				f.leave(l)
				f.emit("goto L%d", l.id)
				l.used = true
			}
			f.lines = append(f.lines, fmt.Sprintf("E%d:", l.id))
			l.hasElse = true
			f.stack = f.stack[:l.height]
			f.reachable = true
		case 0x0b:
			if len(f.ctrl) == 0 {
				if f.reachable {
					if f.result != 0 {
						f.emit("return %s", num(f.popT(f.result)))
					} else {
						f.emit("return")
					}
				} else if f.result != 0 {
					f.emit(`panic(trap("unreachable"))`)
				}
				return
			}
			l := f.ctrl[len(f.ctrl)-1]
			f.ctrl = f.ctrl[:len(f.ctrl)-1]
			if f.reachable {
				f.leave(l)
			}
			switch {
			case l.op == 0x03:
				if l.used {
					f.lines[l.topLine] = fmt.Sprintf("L%d:", l.id)
				}
			case l.op == 0x04 && !l.hasElse:
				if l.result != 0 {
					panic(fmt.Errorf("an if with a result and no else"))
				}
				f.lines = append(f.lines, fmt.Sprintf("E%d:", l.id))
				f.reachable = true
			}
			if l.op != 0x03 && l.used {
				f.lines = append(f.lines, fmt.Sprintf("L%d:", l.id))
				f.reachable = true
			}
			f.stack = f.stack[:l.height]
			if l.op != 0x03 && l.result != 0 {
				if e := f.endResult(l); f.reachable {
					f.push(e)
				}
			}
		case 0x0c:
			l := f.target(r.u32())
			f.leave(l)
			f.emit("goto L%d", l.id)
			f.reachable = false
		case 0x0d:
			l := f.target(r.u32())
			c := f.popT(tI32)
			f.flush()
			if l.op != 0x03 && l.result != 0 {
				f.resultLine(l, "if "+cond(c)+" {\n\t\t", fmt.Sprintf("\n\t\tgoto L%d\n\t}", l.id))
			} else {
				f.emit("if %s {\n\t\tgoto L%d\n\t}", cond(c), l.id)
			}
		case 0x0e:
			n := r.u32()
			if n > 1<<16 {
				panic(fmt.Errorf("a br_table of %d targets", n))
			}
			targets := make([]*label, n)
			for i := range targets {
				targets[i] = f.target(r.u32())
			}
			def := f.target(r.u32())
			c := f.popT(tI32)
			f.flush()
			f.brTable(c, targets, def)
			f.reachable = false
		case 0x0f:
			if f.result != 0 {
				f.emit("return %s", num(f.popT(f.result)))
			} else {
				f.emit("return")
			}
			f.reachable = false
		case 0x10:
			idx := r.u32()
			if int(idx) >= len(f.m.funcTypes) {
				panic(fmt.Errorf("call of function %d", idx))
			}
			t := f.m.types[f.m.funcTypes[idx]]
			args := make([]string, len(t.params))
			for k := len(t.params) - 1; k >= 0; k-- {
				args[k] = num(f.popT(t.params[k]))
			}
			f.flush()
			call := fmt.Sprintf("f%d(%s)", idx, strings.Join(args, ", "))
			if len(t.results) > 0 {
				f.pushResult(t.results[0], "%s", call)
			} else {
				f.emit("%s", call)
			}
		case 0x1a:
			f.pop()
		case 0x1b:
			c := f.popT(tI32)
			b := f.pop()
			a := f.pop()
			if a.t != b.t {
				panic(fmt.Errorf("select of two types"))
			}
			f.pushExpr(a.t, fmt.Sprintf("sel%s(%s, %s, %s)", bitsOf(a.t), cond(c), num(a), num(b)))
		case 0x20:
			l := f.local(r.u32())
			f.pushExpr(f.types[l], fmt.Sprintf("l%d", l))
		case 0x21, 0x22:
			l := f.local(r.u32())
			v := f.popT(f.types[l])
			f.flush()
			f.emit("l%d = %s", l, num(v))
			if op == 0x22 {
				f.pushExpr(f.types[l], fmt.Sprintf("l%d", l))
			}
		case 0x23:
			g := f.global(r.u32())
			f.pushExpr(f.m.globals[g].typ, fmt.Sprintf("g%d", g))
		case 0x24:
			g := f.global(r.u32())
			v := f.popT(f.m.globals[g].typ)
			f.flush()
			f.emit("g%d = %s", g, num(v))
		case 0x28, 0x29, 0x2d, 0x31:
			r.u32() // alignment: a hint
			off := r.u32()
			a := f.popT(tI32)
			p := address(a, off)
			switch op {
			case 0x28:
				f.pushExpr(tI32, "*(*uint32)("+p+")")
			case 0x29:
				f.pushExpr(tI64, "*(*uint64)("+p+")")
			case 0x2d:
				f.pushExpr(tI32, "uint32(*(*uint8)("+p+"))")
			case 0x31:
				f.pushExpr(tI64, "uint64(*(*uint8)("+p+"))")
			}
		case 0x36, 0x37, 0x3a:
			r.u32()
			off := r.u32()
			t := tI32
			if op == 0x37 {
				t = tI64
			}
			v := f.popT(t)
			a := f.popT(tI32)
			f.flush()
			p := address(a, off)
			switch op {
			case 0x36:
				f.emit("*(*uint32)(%s) = %s", p, num(v))
			case 0x37:
				f.emit("*(*uint64)(%s) = %s", p, num(v))
			case 0x3a:
				f.emit("*(*uint8)(%s) = uint8(%s)", p, num(v))
			}
		case 0x3f:
			r.byte()
			f.flush()
			f.pushResult(tI32, "msize")
		case 0x40:
			r.byte()
			n := f.popT(tI32)
			f.flush()
			f.pushResult(tI32, "grow(%s)", num(n))
		case 0x41:
			v := uint32(int32(r.sleb()))
			f.push(entry{t: tI32, expr: fmt.Sprint(v), kind: kConst, val: uint64(v)})
		case 0x42:
			v := uint64(r.sleb())
			f.push(entry{t: tI64, expr: fmt.Sprint(v), kind: kConst, val: v})
		case 0x45:
			a := f.popT(tI32)
			if a.isBool {
				f.pushBool("(!" + a.expr + ")")
			} else {
				f.pushBool("(" + opnd(a) + " == 0)")
			}
		case 0x50:
			a := f.popT(tI64)
			f.pushBool("(" + opnd(a) + " == 0)")
		case 0xa7:
			f.pushExpr(tI32, "uint32("+opnd(f.popT(tI64))+")")
		case 0xac:
			f.pushExpr(tI64, "uint64(int64("+signed(f.popT(tI32), "int32")+"))")
		case 0xad:
			f.pushExpr(tI64, "uint64("+opnd(f.popT(tI32))+")")
		case 0xfc:
			switch sub := r.u32(); sub {
			case 10:
				r.byte()
				r.byte()
				n, s, d := f.popT(tI32), f.popT(tI32), f.popT(tI32)
				f.flush()
				f.emit("memcopy(%s, %s, %s)", num(d), num(s), num(n))
			case 11:
				r.byte()
				n, v, d := f.popT(tI32), f.popT(tI32), f.popT(tI32)
				f.flush()
				f.emit("memfill(%s, %s, %s)", num(d), num(v), num(n))
			default:
				panic(fmt.Errorf("instruction 0xfc %d", sub))
			}
		default:
			if !f.numeric(op) {
				panic(fmt.Errorf("instruction 0x%x", op))
			}
		}
	}
}

func bitsOf(t byte) string {
	if t == tI64 {
		return "64"
	}
	return "32"
}

// address is the Go pointer of a memory access: the effective address is
// the 33-bit sum of the operand and the offset, which uintptr holds.
func address(a entry, off uint32) string {
	if off == 0 {
		return "unsafe.Add(m, uintptr(" + num(a) + "))"
	}
	return fmt.Sprintf("unsafe.Add(m, uintptr(%s)+%d)", num(a), off)
}

func (f *funcWriter) local(l uint32) uint32 {
	if int(l) >= len(f.types) {
		panic(fmt.Errorf("local %d of %d", l, len(f.types)))
	}
	return l
}

func (f *funcWriter) global(g uint32) uint32 {
	if int(g) >= len(f.m.globals) {
		panic(fmt.Errorf("global %d of %d", g, len(f.m.globals)))
	}
	return g
}

// Binary operators by opcode: the Go operator, and whether the operands
// are compared or combined as signed.
var (
	compare32 = map[byte]struct {
		op     string
		signed bool
	}{0x46: {"==", false}, 0x47: {"!=", false}, 0x48: {"<", true}, 0x49: {"<", false}, 0x4a: {">", true}, 0x4b: {">", false},
		0x4c: {"<=", true}, 0x4d: {"<=", false}, 0x4e: {">=", true}, 0x4f: {">=", false}}
	// the i64 comparisons are the i32 ones' opcodes + 0x0b
	arith = map[byte]string{0x6a: "+", 0x6b: "-", 0x6c: "*", 0x71: "&", 0x72: "|", 0x73: "^"}
	// the i64 arithmetic is the i32 one's opcodes + 0x12
)

// numeric writes a numeric instruction, or says it is not one.
func (f *funcWriter) numeric(op byte) bool {
	t, base := tI32, op
	switch {
	case op >= 0x51 && op <= 0x5a:
		t, base = tI64, op-0x0b
	case op >= 0x79 && op <= 0x8a:
		t, base = tI64, op-0x12
	}
	it, st, bits := "uint32", "int32", "31"
	if t == tI64 {
		it, st, bits = "uint64", "int64", "63"
	}
	if c, ok := compare32[base]; ok && (t == tI32 && op <= 0x4f || t == tI64) {
		b, a := f.popT(t), f.popT(t)
		x := num(a)
		if a.kind == kConst && b.kind == kConst {
			x = opnd(a)
		}
		if c.signed {
			f.pushBool(fmt.Sprintf("(%s %s %s)", signed(a, st), c.op, signed(b, st)))
		} else {
			f.pushBool(fmt.Sprintf("(%s %s %s)", x, c.op, num(b)))
		}
		return true
	}
	if base < 0x67 || base > 0x78 {
		return false
	}
	switch base {
	case 0x67, 0x68, 0x69: // clz, ctz, popcnt
		a := f.popT(t)
		fn := map[byte]string{0x67: "LeadingZeros", 0x68: "TrailingZeros", 0x69: "OnesCount"}[base]
		f.pushExpr(t, fmt.Sprintf("%s(bits.%s%s(%s))", it, fn, bitsOf(t), opnd(a)))
		return true
	}
	b, a := f.popT(t), f.popT(t)
	if t == tI32 && (base == 0x71 || base == 0x72) && f.boolOp(base, a, b) {
		return true
	}
	x, y := num(a), num(b)
	if a.kind == kConst && b.kind == kConst {
		x = opnd(a)
	}
	if b.kind == kConst && b.val == 0 && base >= 0x6d && base <= 0x70 {
		// Go refuses a division by the constant 0.
		f.pushExpr(t, "zdiv"+bitsOf(t)+"()")
		return true
	}
	switch base {
	case 0x6a, 0x6b, 0x6c, 0x71, 0x72, 0x73:
		f.pushExpr(t, fmt.Sprintf("(%s %s %s)", x, arith[base], y))
	case 0x6d:
		f.pushExpr(t, fmt.Sprintf("divs%s(%s, %s)", bitsOf(t), x, y))
	case 0x6e:
		f.pushExpr(t, fmt.Sprintf("(%s / %s)", x, y))
	case 0x6f:
		f.pushExpr(t, fmt.Sprintf("%s(%s %% %s)", it, signed(a, st), signed(b, st)))
	case 0x70:
		f.pushExpr(t, fmt.Sprintf("(%s %% %s)", x, y))
	case 0x74:
		f.pushExpr(t, fmt.Sprintf("(%s << (%s & %s))", x, y, bits))
	case 0x75:
		f.pushExpr(t, fmt.Sprintf("%s(%s >> (%s & %s))", it, signed(a, st), y, bits))
	case 0x76:
		f.pushExpr(t, fmt.Sprintf("(%s >> (%s & %s))", x, y, bits))
	case 0x77:
		f.pushExpr(t, fmt.Sprintf("bits.RotateLeft%s(%s, int(%s & %s))", bitsOf(t), x, y, bits))
	case 0x78:
		f.pushExpr(t, fmt.Sprintf("bits.RotateLeft%s(%s, -int(%s & %s))", bitsOf(t), x, y, bits))
	}
	return true
}

// skipOp passes over an instruction of unreachable code, and says whether
// it was passed over (an else or end of the open block is not).
func (f *funcWriter) skipOp(op byte, r *reader) bool {
	switch op {
	case 0x02, 0x03, 0x04:
		blockType(r)
		f.skip++
		return true
	case 0x05:
		return f.skip > 0
	case 0x0b:
		if f.skip > 0 {
			f.skip--
			return true
		}
		return false
	case 0x0e:
		for n := r.u32(); n > 0; n-- {
			r.u32()
		}
		r.u32()
	case 0x0c, 0x0d, 0x10, 0x20, 0x21, 0x22, 0x23, 0x24:
		r.u32()
	case 0x28, 0x29, 0x2d, 0x31, 0x36, 0x37, 0x3a:
		r.u32()
		r.u32()
	case 0x3f, 0x40:
		r.byte()
	case 0x41, 0x42:
		r.sleb()
	case 0xfc:
		switch r.u32() {
		case 10:
			r.byte()
			r.byte()
		case 11:
			r.byte()
		default:
			panic(fmt.Errorf("instruction 0xfc in unreachable code"))
		}
	case 0x00, 0x01, 0x0f, 0x1a, 0x1b, 0x45, 0x50, 0xa7, 0xac, 0xad:
	default:
		if !(op >= 0x46 && op <= 0x5a || op >= 0x67 && op <= 0x8a) {
			panic(fmt.Errorf("instruction 0x%x", op))
		}
	}
	return true
}

// usage counts the identifiers of lines: names, every occurrence; reads,
// those that are not the left side of an assignment (a line "v = …").
func usage(lines []string) (reads, names map[string]int) {
	reads, names = map[string]int{}, map[string]int{}
	for _, l := range lines {
		for _, line := range strings.Split(l, "\n") {
			t := strings.TrimLeft(line, "\t")
			assigned := ""
			if i := strings.Index(t, " = "); i > 0 && isIdent(t[:i]) {
				assigned = t[:i]
			}
			for i := 0; i < len(t); {
				if !identStart(t[i]) {
					i++
					continue
				}
				j := i + 1
				for j < len(t) && (identStart(t[j]) || t[j] >= '0' && t[j] <= '9') {
					j++
				}
				id := t[i:j]
				names[id]++
				if i > 0 || id != assigned {
					reads[id]++
				}
				i = j
			}
		}
	}
	return reads, names
}

func identStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		if !identStart(s[i]) && (i == 0 || s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return s != ""
}

// brTable writes a br_table as a Go switch, the indexes of a target in
// one case. Every index is listed, the default's too, so that the cases
// are dense: Go compiles such a switch (of 8 or more) to a jump table.
func (f *funcWriter) brTable(c entry, targets []*label, def *label) {
	for _, l := range append(targets, def) {
		if l.op != 0x03 && l.result != 0 {
			panic(fmt.Errorf("a br_table to a block with a result"))
		}
	}
	var order []*label
	cases := map[*label][]string{}
	for i, l := range targets {
		if cases[l] == nil {
			order = append(order, l)
		}
		cases[l] = append(cases[l], fmt.Sprint(i))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "switch %s {", num(c))
	for _, l := range order {
		fmt.Fprintf(&b, "\n\tcase %s:\n\t\tgoto L%d", strings.Join(cases[l], ", "), l.id)
	}
	fmt.Fprintf(&b, "\n\tdefault:\n\t\tgoto L%d\n\t}", def.id)
	f.emit("%s", b.String())
}

// boolOp pushes an i32 and (0x71) or or (0x72) of conditions as a Go
// condition, if it is one: && or || of two (the generator's disjunctions
// of a switch's case values, conjunctions of a guard's literals), which
// Go compiles to branches where b2u's would be set and combined; or one
// with the identity (0 |, 1 &), which is the condition. Skipping the
// right operand is safe: an entry on the stack is pure (calls and
// checks are statements).
func (f *funcWriter) boolOp(base byte, a, b entry) bool {
	id := uint64(0)
	op := "||"
	if base == 0x71 {
		id, op = 1, "&&"
	}
	switch {
	case a.isBool && b.isBool:
		f.pushBool("(" + a.expr + " " + op + " " + b.expr + ")")
	case a.kind == kConst && a.val == id && b.isBool:
		f.push(b)
	case b.kind == kConst && b.val == id && a.isBool:
		f.push(a)
	default:
		return false
	}
	return true
}
