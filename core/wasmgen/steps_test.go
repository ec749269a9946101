//go:build !js

package wasmgen_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/locus-mc/locus/core/wasmgen"
)

// TestRunSteps runs steps on an instance that is not a Stepper (each a
// write, a call and a read of its own): a write lands before its call, a
// read sized by the call's result reads after it, and a step that fails
// stops the batch with the count of those that ran.
func TestRunSteps(t *testing.T) {
	mod, inst := instantiate(t, compileSource(t, "index.m", []byte(indexModel)), wasmgen.Options{})
	defer inst.Close()
	if r, err := inst.Call("init"); err != nil || r != 0 {
		t.Fatalf("init: %d, %v", r, err)
	}
	st := bytes.Repeat([]byte{7}, mod.StateBytes)
	steps := []wasmgen.Step{
		{WriteAt: mod.Pack, Write: st, Name: "hash", Args: []uint64{uint64(mod.Pack)}},
		{Name: "info", ReadAt: mod.Stats, ReadBytes: 8 * (wasmgen.InfoPages + 1)},
		{Name: "info", ReadAt: mod.Pack, ReadBytes: mod.StateBytes},
	}
	if done, err := wasmgen.RunSteps(inst, steps); done != len(steps) || err != nil {
		t.Fatalf("ran %d of %d steps: %v", done, len(steps), err)
	}
	h, err := inst.Call("hash", uint64(mod.Pack))
	if err != nil || steps[0].Result != h || h == 0 {
		t.Fatalf("the written state's hash %#x, want %#x (%v)", steps[0].Result, h, err)
	}
	if len(steps[1].Bytes) != 8*(wasmgen.InfoPages+1) || binary.LittleEndian.Uint64(steps[1].Bytes[8*wasmgen.InfoPages:]) == 0 {
		t.Fatalf("the counters read: %x", steps[1].Bytes)
	}
	if !bytes.Equal(steps[2].Bytes, st) {
		t.Fatalf("read back %x, want %x", steps[2].Bytes, st)
	}
	// find of the state: none (-1 as an i32), a result no read may be
	// sized by; then a call of a function that does not exist.
	steps = []wasmgen.Step{
		{Name: "info"},
		{Name: "find", Args: []uint64{h}, ReadAt: mod.Pack, ReadUnit: 1 << 20},
		{Name: "info"},
	}
	if done, err := wasmgen.RunSteps(inst, steps); done != 1 || err == nil {
		t.Fatalf("a read of a result's worth of units: ran %d steps, %v", done, err)
	}
	steps = []wasmgen.Step{{Name: "info"}, {Name: "nothing"}}
	if done, err := wasmgen.RunSteps(inst, steps); done != 1 || err == nil {
		t.Fatalf("a call of no function: ran %d steps, %v", done, err)
	}
}
