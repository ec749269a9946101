//go:build !js

package wasmgen_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/wasmgen"
	"github.com/locus-mc/locus/core/wasmgen/wazerorun"
)

// indexModel has states of 9 bytes: room for a distinct state per number.
const indexModel = `
var a: array[0..7] of 0..255;
startstate begin for i: 0..7 do a[i] := 0; endfor; end;
rule "r" true ==> begin a[0] := 1; end;
`

// instantiate generates m's module under o and instantiates it in wazero.
func instantiate(t *testing.T, m *compile.Model, o wasmgen.Options) (*wasmgen.Module, wasmgen.Instance) {
	t.Helper()
	mod, err := wasmgen.Generate(m, o)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := wazerorun.Runtime{}.Instantiate(mod)
	if err != nil {
		t.Fatal(err)
	}
	return mod, inst
}

// mix64 is splitmix64's finalizer: hashes spread over all 64 bits.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// TestIndex drives the module's index (find and insert) with hashes
// chosen to stress it, each for a distinct state: spread evenly, then
// crowded under one prefix of 14 bits (one corner of the directory goes
// deep while the other blocks stay shallow, so many directory entries
// describe each of them), then spread evenly again (the shallow blocks
// grow and split, and each of their entries must follow), which must all
// be found with their ids, as must none of the states never inserted.
// Last, states whose hashes agree in every bit the index uses: no split
// can part them, and the index must say so (memory ran out), not loop.
// Under hash compaction (whose blocks grow before they split) the same,
// where found is a key met, and a state of the same hash is taken for it.
// No group of states may have a mark (none was expanded), and the exact
// index's records must hold the states.
func TestIndex(t *testing.T) {
	for _, compact := range []bool{false, true} {
		name := map[bool]string{false: "exact", true: "compact"}[compact]
		t.Run(name, func(t *testing.T) { testIndex(t, compact) })
	}
}

func testIndex(t *testing.T, compact bool) {
	mod, inst := instantiate(t, compileSource(t, "index.m", []byte(indexModel)), wasmgen.Options{Compact: compact})
	defer inst.Close()
	if r, err := inst.Call("init"); err != nil || r != 0 {
		t.Fatalf("init: %d, %v", r, err)
	}
	state := make([]byte, mod.StateBytes)
	find := func(n, h uint64) int64 {
		t.Helper()
		clear(state)
		binary.LittleEndian.PutUint64(state, n)
		if err := inst.Write(mod.Pack, state); err != nil {
			t.Fatal(err)
		}
		id, err := inst.Call("find", h)
		if err != nil {
			t.Fatal(err)
		}
		return int64(int32(id))
	}
	insert := func(n, h uint64) uint64 {
		t.Helper()
		if id := find(n, h); id >= 0 {
			t.Fatalf("state %d (hash %#x) found (id %d) before it was inserted", n, h, id)
		}
		r, err := inst.Call("insert", mod.StartArgs(h)...)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	const spread, crowded, total = 60000, 60000, 180000
	hash := func(n uint64) uint64 {
		if n < spread || n >= spread+crowded {
			return mix64(n)
		}
		return 0x2bcd<<50 | mix64(n)>>14 // the top 14 bits fixed
	}
	for n := uint64(0); n < total; n++ {
		if r := insert(n, hash(n)); r != 0 {
			t.Fatalf("state %d: insert says memory ran out", n)
		}
	}
	for n := uint64(0); n < total; n++ {
		want := int64(n)
		if compact {
			want = 0 // a key's states keep no id
		}
		if id := find(n, hash(n)); id != want {
			t.Fatalf("state %d (hash %#x): found as id %d", n, hash(n), id)
		}
		// A state never inserted, with the same hash and with others.
		if id := find(n+1<<40, hash(n)); id != -1 && !compact {
			t.Fatalf("a state never inserted, hash %#x: found as id %d", hash(n), id)
		}
		if id := find(n+1<<40, hash(n)^1<<40); id != -1 {
			t.Fatalf("a state never inserted, hash %#x: found as id %d", hash(n)^1<<40, id)
		}
	}
	// No state was expanded, so no group of them has a mark yet; the
	// exact index's records are the states alone, in id order.
	rec := make([]byte, mod.RecordBytes)
	for n := uint64(0); n < total; n++ {
		read := func(export string, buf []byte) {
			t.Helper()
			at, err := inst.Call(export, n)
			if err != nil {
				t.Fatal(err)
			}
			if err := inst.Read(uint32(at), buf); err != nil {
				t.Fatal(err)
			}
		}
		if !compact {
			read("record", rec)
			if got := binary.LittleEndian.Uint64(rec); got != n || rec[8] != 0 {
				t.Fatalf("record %d holds %x", n, rec)
			}
		}
		if n%(1<<wasmgen.MarkShift) == 0 {
			var mark [4]byte
			read("mark", mark[:])
			if m := binary.LittleEndian.Uint32(mark[:]); m != wasmgen.NoParent {
				t.Fatalf("states %d on, none expanded, have a mark %d", n, m)
			}
		}
	}
	// The index uses none of hash bits 0-31 (a slot's tag and its home
	// are bits 32-63, the directory the top bits): these hashes are all
	// one to it.
	const same = 0x1234_5678_9abc_def0 &^ (1<<32 - 1)
	for k := uint64(0); ; k++ {
		if k > 512 {
			t.Fatal("states the index cannot part were all taken: blocks past their size")
		}
		if insert(1<<48+k, same|k) != 0 {
			break
		}
	}
}

// TestHash checks the module's hash against state.LaneHash on random
// states of lengths that take each of its paths: under a word (bytes one
// by one), whole words, words and a tail (the last word loaded again and
// shifted), more words than accumulators.
func TestHash(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 3, 8, 12, 16, 25, 40, 63} {
		// n bytes of state: n byte-sized leaves
		src := fmt.Sprintf("var a: array[1..%d] of 0..254;\nstartstate begin for i: 1..%d do a[i] := 0; endfor; end;\nrule \"r\" true ==> begin a[1] := 1; end;\n", n, n)
		mod, err := wasmgen.Generate(compileSource(t, "hash.m", []byte(src)), wasmgen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if mod.StateBytes != n {
			t.Fatalf("%d leaves of 8 bits: a state of %d bytes", n, mod.StateBytes)
		}
		inst, err := wazerorun.Runtime{}.Instantiate(mod)
		if err != nil {
			t.Fatal(err)
		}
		// the pack buffer padded to words: bytes past the state must not count
		buf := make([]byte, (n+7)&^7)
		for range 200 {
			for i := range buf {
				buf[i] = byte(rng.Uint32())
			}
			if err := inst.Write(mod.Pack, buf); err != nil {
				t.Fatal(err)
			}
			h, err := inst.Call("hash", uint64(mod.Pack))
			if err != nil {
				t.Fatal(err)
			}
			if want := state.LaneHash(buf[:n]); h != want {
				t.Fatalf("%d bytes %x: the module's hash is %#x, state.LaneHash %#x", n, buf[:n], h, want)
			}
		}
		inst.Close()
	}
}
