//go:build js && wasm

package jsrun_test

import (
	"math/rand/v2"
	"testing"

	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/core/wasmgen"
	"github.com/locus-mc/locus/core/wasmgen/jsrun"
)

// model has states of 25 bytes: whole words and a tail.
const model = `
var a: array[1..25] of 0..254;
startstate begin for i: 1..25 do a[i] := 0; endfor; end;
rule "r" true ==> begin a[1] := 1; end;
`

// TestCalls drives a module through the host's calls of every kind of
// signature the search uses: an i32 to an i64 (hash: a BigInt coming
// back), an i64 to an i32 (find), i64 and i32 to an i32 (insert), and
// memory both ways. The hash must be state.LaneHash, as the search's
// start states need (the module's own hash places them in its index).
func TestCalls(t *testing.T) {
	m, diags := verify.Compile("m.m", []byte(model))
	if m == nil {
		t.Fatal(diags)
	}
	mod, err := wasmgen.Generate(m, wasmgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsrun.Runtime{}.Instantiate(mod)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	if r, err := inst.Call("init"); err != nil || r != 0 {
		t.Fatalf("init: %d, %v", r, err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	buf := make([]byte, mod.StateBytes)
	for n := range 100 {
		for i := range buf {
			buf[i] = byte(rng.Uint32())
		}
		if err := inst.Write(mod.Pack, buf); err != nil {
			t.Fatal(err)
		}
		back := make([]byte, len(buf))
		if err := inst.Read(mod.Pack, back); err != nil || string(back) != string(buf) {
			t.Fatalf("read back %x, %v; wrote %x", back, err, buf)
		}
		h, err := inst.Call("hash", uint64(mod.Pack))
		if err != nil {
			t.Fatal(err)
		}
		if want := state.LaneHash(buf); h != want {
			t.Fatalf("hash of %x: %#x, want %#x", buf, h, want)
		}
		if id, err := inst.Call("find", h); err != nil || int32(id) >= 0 {
			t.Fatalf("find before insert: %d, %v", int32(id), err)
		}
		if r, err := inst.Call("insert", mod.StartArgs(h)...); err != nil || r != 0 {
			t.Fatalf("insert: %d, %v", r, err)
		}
		if id, err := inst.Call("find", h); err != nil || int32(id) != int32(n) {
			t.Fatalf("find after insert: %d, %v; want %d", int32(id), err, n)
		}
	}
}
