//go:build !js && !wasip1

package nativerun

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/wasmgen"
	"github.com/locus-mc/locus/core/wasmgen/wazerorun"
)

// A small assembler for test modules: every function is (i64, i64) -> i64
// with two i32 locals (2, 3) and two i64 locals (4, 5).
func leb(v uint64) []byte {
	var b []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func sleb(v int64) []byte {
	var b []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func cat(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch p := p.(type) {
		case byte:
			b = append(b, p)
		case int:
			b = append(b, byte(p))
		case []byte:
			b = append(b, p...)
		default:
			panic(fmt.Sprintf("%T", p))
		}
	}
	return b
}

func get(i int) []byte         { return []byte{0x20, byte(i)} }
func set(i int) []byte         { return []byte{0x21, byte(i)} }
func i32c(v int32) []byte      { return cat(0x41, sleb(int64(v))) }
func i64c(v int64) []byte      { return cat(0x42, sleb(v)) }
func memop(op, off int) []byte { return cat(op, 0, leb(uint64(off))) }

const (
	wrap    = 0xa7
	extendU = 0xad
	extendS = 0xac
	end     = 0x0b
)

// testModule assembles bodies into a module exporting them as f0, f1, …
// and a memory of 1 to 4 pages; one i64 global.
func testModule(bodies [][]byte) []byte {
	section := func(id byte, body []byte) []byte { return cat(id, leb(uint64(len(body))), body) }
	n := uint64(len(bodies))
	out := []byte("\x00asm\x01\x00\x00\x00")
	out = append(out, section(1, cat(1, 0x60, 2, tI64, tI64, 1, tI64))...)
	funcs := leb(n)
	for range bodies {
		funcs = append(funcs, 0)
	}
	out = append(out, section(3, funcs)...)
	out = append(out, section(5, cat(1, 1, 1, 4))...)
	out = append(out, section(6, cat(1, tI64, 1, 0x42, sleb(-3), end))...)
	exports := leb(n + 1)
	for i := range bodies {
		name := fmt.Sprintf("f%d", i)
		exports = append(exports, cat(len(name), []byte(name), 0, leb(uint64(i)))...)
	}
	exports = append(exports, cat(6, []byte("memory"), 2, 0)...)
	out = append(out, section(7, exports)...)
	code := leb(n)
	for _, b := range bodies {
		fn := cat(2, 2, tI32, 2, tI64, b, end)
		code = append(code, cat(leb(uint64(len(fn))), fn)...)
	}
	return append(out, section(10, code)...)
}

// instructionBodies exercise every instruction and control construct the
// translator handles.
func instructionBodies() [][]byte {
	var bodies [][]byte
	// i64 binary operators, and comparisons (an i32 result, extended).
	for op := 0x7c; op <= 0x8a; op++ {
		bodies = append(bodies, cat(get(0), get(1), op))
	}
	for op := 0x51; op <= 0x5a; op++ {
		bodies = append(bodies, cat(get(0), get(1), op, extendU))
	}
	// i32 operators on the wrapped arguments, extended both ways.
	for op := 0x6a; op <= 0x78; op++ {
		bodies = append(bodies, cat(get(0), wrap, get(1), wrap, op, extendS))
	}
	for op := 0x46; op <= 0x4f; op++ {
		bodies = append(bodies, cat(get(0), wrap, get(1), wrap, op, extendU))
	}
	for _, op := range []int{0x67, 0x68, 0x69} {
		bodies = append(bodies, cat(get(0), wrap, op, extendU), cat(get(0), op+0x12))
	}
	// Constants on either side, negative ones included (Go refuses some
	// conversions of constants), and division by a constant 0.
	bodies = append(bodies,
		cat(get(0), wrap, i32c(-5), 0x48, extendU),
		cat(i64c(-7), get(1), 0x53, extendU),
		cat(get(0), i64c(-1), 0x81),
		cat(get(0), wrap, i32c(0), 0x6e, extendU),
		cat(i32c(-9), extendS),
		cat(i32c(-9), i32c(2), 0x75, extendS),
	)
	// eqz of a comparison and of a number.
	bodies = append(bodies,
		cat(get(0), get(1), 0x53, 0x45, extendU),
		cat(get(0), wrap, 0x45, extendU),
		cat(get(0), 0x50, extendU),
	)
	// i32 and/or of comparisons (Go's && and ||), with the identity (0 |,
	// 1 &) on either side, in an if's condition, and with a number.
	lt, is7, ne0 := cat(get(0), get(1), 0x53), cat(get(0), i64c(7), 0x51), cat(get(1), i64c(0), 0x52)
	bodies = append(bodies,
		cat(lt, is7, 0x71, extendU),
		cat(lt, is7, 0x72, extendU),
		cat(i32c(0), lt, 0x72, extendU),
		cat(lt, i32c(1), 0x71, extendU),
		cat(i32c(1), is7, 0x72, extendU),
		cat(lt, i32c(0), 0x71, extendU),
		cat(lt, is7, 0x72, ne0, 0x71, 0x04, tI64, get(0), 0x05, get(1), end),
		cat(is7, get(0), wrap, 0x71, extendU),
		cat(lt, get(1), wrap, 0x72, extendU),
	)
	// i32 results that are conditions on every path (the Go bool c<id>):
	// of an if, used by an if and by eqz; of a block left by br_if and by
	// br (over a value it drops), with a % in the br_if's condition; and
	// results that are not (a 2, a number), which stay numbers.
	bodies = append(bodies,
		cat(lt, 0x04, tI32, is7, 0x05, i32c(0), end, 0x04, tI64, get(0), 0x05, get(1), end),
		cat(lt, 0x04, tI32, i32c(1), 0x05, ne0, end, 0x45, extendU),
		cat(lt, 0x04, tI32, i32c(1), 0x05, i32c(0), end, extendU),
		cat(0x02, tI32, is7, lt, 0x0d, 0, 0x1a, ne0, end, 0x45, extendU),
		cat(0x02, tI32, get(0), wrap, is7, 0x0c, 0, end, extendU),
		cat(0x02, tI32, i32c(1), get(0), get(1), 0x82, i64c(3), 0x51, 0x0d, 0, 0x1a, i32c(0), end, extendU),
		cat(lt, 0x04, tI32, i32c(2), 0x05, i32c(0), end, extendU),
		cat(lt, 0x04, tI32, is7, 0x05, get(1), wrap, end, extendU),
	)
	// br_table: to blocks and past them, an index beyond the table (the
	// default), a target listed twice, a table of 9 (a jump table), and
	// one in unreachable code.
	table := func(depths ...int) []byte {
		b := cat(0x0e, len(depths)-1)
		for _, d := range depths {
			b = append(b, byte(d))
		}
		return b
	}
	bodies = append(bodies,
		cat(0x02, 0x40, 0x02, 0x40, 0x02, 0x40, get(0), wrap, table(0, 1, 0, 2, 1, 2), end,
			i64c(10), 0x0f, end, i64c(20), 0x0f, end, i64c(30)),
		cat(0x02, 0x40, 0x02, 0x40, 0x02, 0x40, get(1), wrap, i32c(-3), 0x6a, table(0, 1, 2, 0, 1, 2, 0, 1, 2, 1), end,
			i64c(10), 0x0f, end, get(0), 0x0f, end, get(1)),
		cat(0x02, 0x40, 0x0c, 0, get(0), wrap, table(0, 0, 0), end, get(1)),
	)
	// block (result i64): br_if carrying a value.
	bodies = append(bodies, cat(0x02, tI64, i64c(7), get(0), 0x50, 0x0d, 0, 0x1a, get(1), end))
	// if/else with a result.
	bodies = append(bodies, cat(get(0), i64c(0), 0x53, 0x04, tI64, get(1), 0x05, get(1), i64c(1), 0x7c, end))
	// if without else, writing a local.
	bodies = append(bodies, cat(get(1), set(4), get(0), wrap, 0x04, 0x40, get(0), set(4), end, get(4)))
	// loop: the sum of 0 … (a & 63).
	bodies = append(bodies, cat(get(0), wrap, i32c(63), 0x71, set(2),
		0x02, 0x40, 0x03, 0x40,
		get(4), get(3), extendU, 0x7c, set(4),
		get(3), get(2), 0x4f, 0x0d, 1,
		get(3), i32c(1), 0x6a, 0x22, 3, 0x1a,
		0x0c, 0, end, end, get(4)))
	// select, both types.
	bodies = append(bodies,
		cat(get(0), get(1), get(0), get(1), 0x54, 0x1b),
		cat(get(0), wrap, get(1), wrap, get(1), wrap, 0x1b, extendU))
	// Memory: stores and loads at offsets, a byte store, copy, fill, size
	// and grow.
	addr := cat(get(0), wrap, i32c(0xff8), 0x71)
	bodies = append(bodies,
		cat(addr, get(1), memop(0x37, 16), addr, memop(0x29, 16)),
		cat(addr, get(1), memop(0x37, 0), addr, memop(0x31, 3)),
		cat(addr, get(1), wrap, memop(0x3a, 5), addr, memop(0x2d, 5), extendU),
		cat(addr, get(1), wrap, memop(0x36, 8), addr, memop(0x28, 8), extendU),
		cat(i32c(64), get(1), memop(0x37, 0), i32c(200), i32c(64), i32c(8), 0xfc, 10, 0, 0, i32c(200), memop(0x29, 0)),
		cat(i32c(300), get(0), wrap, i32c(16), 0xfc, 11, 0, i32c(300), memop(0x29, 8)),
		cat(0x3f, 0, extendU, i32c(0), 0x40, 0, extendU, 0x7c),
		cat(i32c(1), 0x40, 0, extendS, i32c(10), 0x40, 0, extendS, 0x7c, 0x3f, 0, extendU, 0x7c),
	)
	// Globals, and a call of another function.
	bodies = append(bodies, cat(0x23, 0, get(0), 0x7c, 0x24, 0, get(0), get(1), 0x10, 0, 0x23, 0, 0x7c))
	// Code after a branch, and a return from inside blocks.
	bodies = append(bodies,
		cat(0x02, 0x40, 0x0c, 0, i64c(1), 0x1a, 0x02, 0x40, end, end, get(0)),
		cat(0x02, 0x40, 0x02, 0x40, get(1), 0x0f, end, end, get(0)),
		cat(0x02, tI64, get(0), get(1), 0x0c, 0, 0x1a, end))
	// Traps: unreachable, and a signed division that overflows.
	bodies = append(bodies,
		cat(get(0), i64c(12345), 0x51, 0x04, 0x40, 0x00, end, get(0)),
		cat(get(0), get(1), 0x7f))
	return bodies
}

// TestTranslatedInstructions runs every instruction the translator
// handles through wazero and through the translated program, on
// arguments that reach the edge cases (zero, -1, the minimum, large
// shifts): results and traps must agree.
func TestTranslatedInstructions(t *testing.T) {
	if why := Available(); why != "" {
		t.Skip(why)
	}
	bodies := instructionBodies()
	mod := &wasmgen.Module{Code: testModule(bodies)}
	want, err := wazerorun.Runtime{}.Instantiate(mod)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	got, err := Runtime{CacheDir: t.TempDir()}.Instantiate(mod)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	args := []uint64{0, 1, 2, 3, 7, 12345, 63, 64, 65, 1 << 31, 1<<31 - 1, 1 << 32, 0xffffffff, 1 << 63, 1<<63 - 1, ^uint64(0), ^uint64(1), 0x123456789abcdef}
	calls := 0
	for i := range bodies {
		name := fmt.Sprintf("f%d", i)
		for _, a := range args {
			for _, b := range args {
				w, werr := want.Call(name, a, b)
				g, gerr := got.Call(name, a, b)
				calls++
				if (werr != nil) != (gerr != nil) || w != g {
					t.Fatalf("%s(%#x, %#x): translated %#x (%v), wazero %#x (%v); body % x", name, a, b, g, gerr, w, werr, bodies[i])
				}
			}
		}
	}
	// Memory as the host sees it.
	wb, gb := make([]byte, 4096), make([]byte, 4096)
	if err := want.Read(0, wb); err != nil {
		t.Fatal(err)
	}
	if err := got.Read(0, gb); err != nil {
		t.Fatal(err)
	}
	if string(wb) != string(gb) {
		t.Fatal("the memories differ after the calls")
	}
	t.Logf("%d functions, %d calls agree", len(bodies), calls)
}

// TestInstance: the host's side of the protocol: reads and writes in and
// out of memory, a trap that leaves the program serving, a program that
// crashed, and a second instance that finds its program built.
func TestInstance(t *testing.T) {
	if why := Available(); why != "" {
		t.Skip(why)
	}
	dir := t.TempDir()
	mod := &wasmgen.Module{Code: testModule(instructionBodies())}
	in, err := Runtime{CacheDir: dir}.Instantiate(mod)
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Write(100, []byte("abcdefgh")); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 8)
	if err := in.Read(100, b); err != nil || string(b) != "abcdefgh" {
		t.Fatalf("read back %q, %v", b, err)
	}
	if err := in.Read(4<<16-4, b); err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Fatalf("a read past the memory: %v", err)
	}
	if err := in.Write(4<<16-4, b); err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Fatalf("a write past the memory: %v", err)
	}
	last := fmt.Sprintf("f%d", len(instructionBodies())-1) // signed division
	if _, err := in.Call(last, 1, 0); err == nil || !strings.Contains(err.Error(), "divide by zero") {
		t.Fatalf("division by zero: %v", err)
	}
	if r, err := in.Call(last, 10, 3); err != nil || r != 3 {
		t.Fatalf("after a trap: %d, %v", r, err)
	}
	if _, err := in.Call("nothing"); err == nil {
		t.Fatal("a call of no function succeeded")
	}
	in.(*instance).cmd.Process.Kill()
	if _, err := in.Call(last, 10, 3); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("a call of a killed program: %v", err)
	}
	in.Close()

	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("%d builds in the cache, want 1", len(entries))
	}
	bin := filepath.Join(dir, entries[0].Name(), "model")
	st, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	in, err = Runtime{CacheDir: dir}.Instantiate(mod)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if st2, err := os.Stat(bin); err != nil || !st2.ModTime().Equal(st.ModTime()) {
		t.Fatalf("the program was built again: %v", err)
	}
	if r, err := in.Call(last, 10, 3); err != nil || r != 3 {
		t.Fatalf("the cached program: %d, %v", r, err)
	}
}

// TestShare: memory shared with the program (Share) is the program's
// memory at the address shared, both ways, and a second share takes the
// next part of the shared file; a share that is not page-aligned or runs
// past the memory is refused and leaves the program serving.
func TestShare(t *testing.T) {
	if why := Available(); why != "" {
		t.Skip(why)
	}
	if runtime.GOOS != "linux" {
		t.Skip("memory is shared with programs on Linux only")
	}
	mod := &wasmgen.Module{Code: testModule(instructionBodies())}
	inst, err := Runtime{CacheDir: t.TempDir()}.Instantiate(mod)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	sh := inst.(wasmgen.SharedInstance)
	for _, bad := range [][2]uint32{{100, 4096}, {4096, 100}, {1 << 16, 4096}} {
		if _, err := sh.Share(bad[0], bad[1]); err == nil {
			t.Fatalf("shared %d bytes at %d", bad[1], bad[0])
		}
	}
	for _, at := range []uint32{4096, 32768} {
		view, err := sh.Share(at, 8192)
		if err != nil {
			t.Fatal(err)
		}
		copy(view[10:], "shared")
		b := make([]byte, 6)
		if err := inst.Read(at+10, b); err != nil || string(b) != "shared" {
			t.Fatalf("the program read %q, %v", b, err)
		}
		if err := inst.Write(at+8000, []byte("back")); err != nil {
			t.Fatal(err)
		}
		if string(view[8000:8004]) != "back" {
			t.Fatalf("the host read %q", view[8000:8004])
		}
	}
	last := fmt.Sprintf("f%d", len(instructionBodies())-1)
	if r, err := inst.Call(last, 10, 3); err != nil || r != 3 {
		t.Fatalf("after sharing: %d, %v", r, err)
	}
}

// TestDecodeRefuses: a module outside the generator's subset is refused,
// never translated in part.
func TestDecodeRefuses(t *testing.T) {
	good := testModule([][]byte{cat(get(0))})
	if _, _, err := program(good, 0, 0); err != nil {
		t.Fatal(err)
	}
	for name, code := range map[string][]byte{
		"not wasm":    []byte("\x00asm\x02\x00\x00\x00"),
		"truncated":   good[:len(good)-3],
		"import":      append(append([]byte{}, good...), 2, 1, 0),
		"opcode":      testModule([][]byte{cat(get(0), 0x8f, 0x1a, get(0))}),
		"float":       testModule([][]byte{cat(0x43, 0, 0, 0, 0, 0x1a, get(0))}),
		"bad local":   testModule([][]byte{cat(get(9))}),
		"bad branch":  testModule([][]byte{cat(0x0c, 5)}),
		"underflow":   testModule([][]byte{cat(0x7c)}),
		"else alone":  testModule([][]byte{cat(0x05, get(0))}),
		"table":       append(append([]byte{}, good...), 4, 1, 0),
		"bad globals": testModule([][]byte{cat(0x23, 3)}),
	} {
		if _, _, err := program(code, 0, 0); err == nil {
			t.Errorf("%s: translated", name)
		}
	}
}

// BenchmarkTranslateSci measures translating a large module.
func BenchmarkTranslateSci(b *testing.B) {
	path := "../../../../shared/models/cmurphi/sci/sci.m"
	src, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	ast, errs := murphi.ParseFile(path, src)
	ck, errs2 := murphi.Check(ast)
	if len(errs)+len(errs2) > 0 {
		b.Fatal(errs, errs2)
	}
	m, err := compile.Compile(ck)
	if err != nil {
		b.Fatal(err)
	}
	mod, err := wasmgen.Generate(m, wasmgen.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if _, _, err := program(mod.Code, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPrune: the cache keeps the most recently used programs.
func TestPrune(t *testing.T) {
	root := t.TempDir()
	base := time.Now().Add(-time.Hour)
	for i := 0; i < 5; i++ {
		dir := filepath.Join(root, fmt.Sprint(i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		at := base.Add(time.Duration(i) * time.Minute)
		os.Chtimes(dir, at, at)
	}
	prune(root, 3)
	entries, _ := os.ReadDir(root)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if strings.Join(left, ",") != "2,3,4" {
		t.Fatalf("left %v, want the three most recent: 2,3,4", left)
	}
}

// TestProgramBuildsElsewhere: the program for a system without Linux's
// mmap and madvise flags compiles there (cross-compiled for macOS, where
// syscall.Madvise does not exist).
func TestProgramBuildsElsewhere(t *testing.T) {
	goCmd, err := goTool()
	if err != nil {
		t.Skip(err)
	}
	src, _, err := program(testModule(instructionBodies()), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module locusmodel\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goCmd, "build", "-o", os.DevNull, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=darwin", "GOARCH=arm64", "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("darwin/arm64: %v\n%s", err, out)
	}
}
