package compile

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/murphi"
)

// packModels are models whose layouts cover narrow and wide leaves,
// unions, multisets and states shorter than a word.
var packModels = []string{
	"../../../shared/models/cmurphi/sci/sci.m",
	"../../../shared/models/cmurphi/dash/adash.m",
	"../../../shared/models/cmurphi/sym/cache3.m",
	"../../../shared/models/cmurphi/mux/mcslock1.m",
	"../../../shared/models/cmurphi/multiset+sym/newlist6.m",
	"../../../shared/models/cmurphi/toy/pingpong.m",
	"../../../shared/models/rumur/uint64-model.m",
	"inline:no variables", // an empty state still packs to one byte
	"inline:a state shorter than a word",
	"inline:unions",
}

var inlineModels = map[string]string{
	"no variables": `startstate begin end; rule "r" true ==> begin end;`,
	"a state shorter than a word": `
type e: enum { A, B, C };
var x: 0..5; b: boolean; y: array [1..3] of e; z: -3..200;
startstate begin x := 0; b := true; end;`,
	"unions": `
type a: enum { X, Y }; b: enum { P, Q, R }; c: scalarset(2); d: scalarset(3);
  ac: union { a, c }; ca: union { c, a }; bc: union { b, c }; ab: union { d, a, b };
var u: ac; v: ca; w: array [1..3] of bc; x: ab; y: array [c] of record f: ac; g: ca; end;
startstate begin end;`,
}

func compileFile(t testing.TB, path string) *Model {
	t.Helper()
	var src []byte
	if name, ok := strings.CutPrefix(path, "inline:"); ok {
		src = []byte(inlineModels[name])
	} else {
		var err error
		if src, err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
	}
	ast, errs := murphi.ParseFile(path, src)
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	ck, errs := murphi.Check(ast)
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	m, err := Compile(ck)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// randomValue returns a legal slot value of leaf l, or undefined.
func randomValue(rng *rand.Rand, m *Model, l *Leaf) int64 {
	if rng.Intn(5) == 0 {
		return m.Undef
	}
	switch l.Kind {
	case LeafUnion:
		p := l.Parts[rng.Intn(len(l.Parts))]
		return p.Lo + rng.Int63n(p.Hi-p.Lo+1)
	case LeafPresent:
		return 1
	}
	if l.Count == ^uint64(0) {
		return int64(rng.Uint64())
	}
	return l.Lo + int64(rng.Uint64()%l.Count)
}

func randomState(rng *rand.Rand, m *Model) []int64 {
	s := make([]int64, m.NumSlots)
	for i := range s {
		s[i] = randomValue(rng, m, &m.Leaves[i])
	}
	return s
}

// referencePack packs bit by bit from the layout, independently of the
// word-at-a-time code under test.
func referencePack(m *Model, slots []int64) []byte {
	out := make([]byte, m.StateBytes)
	for i := range m.Leaves {
		l := &m.Leaves[i]
		e := l.encode(slots[i], m.Undef)
		for b := 0; b < l.Bits; b++ {
			if e>>uint(b)&1 != 0 {
				bit := l.Offset + b
				out[bit>>3] |= 1 << uint(bit&7)
			}
		}
	}
	return out
}

func TestPack(t *testing.T) {
	for _, path := range packModels {
		t.Run(filepath.Base(path), func(t *testing.T) {
			m := compileFile(t, path)
			rng := rand.New(rand.NewSource(1))
			got := make([]byte, m.StateBytes)
			from := make([]byte, m.StateBytes)
			back := make([]int64, m.NumSlots)
			up := m.NewUnpacker()
			next := make([]int64, m.NumSlots) // decoded by UnpackNext
			upNext := m.NewUnpacker()
			for trial := 0; trial < 300; trial++ {
				s := randomState(rng, m)
				want := referencePack(m, s)
				// A dirty buffer: Pack must write every byte.
				for i := range got {
					got[i] = 0xa5
				}
				m.Pack(s, got)
				if !bytes.Equal(got, want) {
					t.Fatalf("Pack = %x, want %x", got, want)
				}
				up.Unpack(got, back)
				for i := range s {
					if back[i] != s[i] {
						t.Fatalf("Unpack(Pack(s)) slot %d (%s) = %d, want %d", i, m.Leaves[i].Name, back[i], s[i])
					}
				}
				upNext.UnpackNext(got, next)
				for i := range s {
					if next[i] != s[i] {
						t.Fatalf("UnpackNext slot %d (%s) = %d, want %d", i, m.Leaves[i].Name, next[i], s[i])
					}
				}
				// A successor: a few slots changed, or none.
				succ := append([]int64(nil), s...)
				changes := rng.Intn(4)
				if trial%7 == 0 {
					changes = len(s) // every slot redrawn
				}
				for k := 0; k < changes && len(s) > 0; k++ {
					i := rng.Intn(len(s))
					succ[i] = randomValue(rng, m, &m.Leaves[i])
				}
				differs := m.PackFrom(from, got, s, succ)
				want = referencePack(m, succ)
				if !bytes.Equal(from, want) {
					t.Fatalf("PackFrom = %x, want %x", from, want)
				}
				// A sibling, a few words from the last state decoded.
				upNext.UnpackNext(from, next)
				for i := range succ {
					if next[i] != succ[i] {
						t.Fatalf("UnpackNext (sibling) slot %d (%s) = %d, want %d", i, m.Leaves[i].Name, next[i], succ[i])
					}
				}
				same := true
				for i := range s {
					same = same && s[i] == succ[i]
				}
				if differs == same {
					t.Fatalf("PackFrom reports differs=%v for states that are equal=%v", differs, same)
				}
			}
		})
	}
}

func benchmarkPacking(b *testing.B, path string) {
	m := compileFile(b, path)
	rng := rand.New(rand.NewSource(1))
	s := randomState(rng, m)
	succ := append([]int64(nil), s...)
	succ[len(succ)/2] = randomValue(rng, m, &m.Leaves[len(succ)/2])
	buf := make([]byte, m.StateBytes)
	base := make([]byte, m.StateBytes)
	m.Pack(s, base)
	b.Run("Pack", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			m.Pack(succ, buf)
		}
	})
	b.Run("PackFrom", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			m.PackFrom(buf, base, s, succ)
		}
	})
	up := m.NewUnpacker()
	b.Run("Unpack", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			up.Unpack(base, succ)
		}
	})
}

func BenchmarkPackingSCI(b *testing.B) {
	benchmarkPacking(b, "../../../shared/models/cmurphi/sci/sci.m")
}

func BenchmarkPackingMCSLock1(b *testing.B) {
	benchmarkPacking(b, "../../../shared/models/cmurphi/mux/mcslock1.m")
}

// TestPackSuccessor checks, on every successor of the first states of the
// corpus models, that packing from the slots a rule wrote gives the
// state's packed form, and that Differs agrees with a full comparison: a
// write that compiled code failed to record would store a wrong state.
func TestPackSuccessor(t *testing.T) {
	paths, _ := filepath.Glob("../../../shared/models/cmurphi/*/*.m")
	more, _ := filepath.Glob("../../../shared/models/rumur/*.m")
	paths = append(paths, more...)
	if len(paths) < 100 {
		t.Fatalf("the corpus is missing: %d models", len(paths))
	}
	limit := 400
	if testing.Short() {
		limit = 50
	}
	checked := 0
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ast, errs := murphi.ParseFile(path, src)
		if errs.HasErrors() {
			continue
		}
		ck, errs := murphi.Check(ast)
		if errs.HasErrors() {
			continue
		}
		m, err := Compile(ck)
		if err != nil {
			continue
		}
		mc := m.NewMachine()
		mc.StepLimit = 1 << 16
		seen := map[string]bool{}
		var queue [][]int64
		add := func(s []int64) {
			buf := make([]byte, m.StateBytes)
			m.Pack(s, buf)
			if !seen[string(buf)] && len(seen) < limit {
				seen[string(buf)] = true
				queue = append(queue, append([]int64(nil), s...))
			}
		}
		for i := range m.Starts {
			if err, assumed := mc.RunStart(i); err == nil && !assumed {
				add(mc.State())
			}
		}
		got := make([]byte, m.StateBytes)
		want := make([]byte, m.StateBytes)
		curPacked := make([]byte, m.StateBytes)
		for k := 0; k < len(queue); k++ {
			cur := queue[k]
			m.Pack(cur, curPacked)
			emit := func(r int, succ []int64) bool {
				differs := mc.PackSuccessor(got, curPacked, cur)
				m.Pack(succ, want)
				if !bytes.Equal(got, want) {
					t.Fatalf("%s: rule %s: PackSuccessor = %x, want %x", path, m.Rules[r].Name, got, want)
				}
				same := true
				for i := range succ {
					same = same && succ[i] == cur[i]
				}
				if differs == same || mc.Differs(cur) == same {
					t.Fatalf("%s: rule %s: differs = %v (Differs %v), states equal = %v", path, m.Rules[r].Name, differs, mc.Differs(cur), same)
				}
				checked++
				add(succ)
				return true
			}
			for from := 0; from < len(m.Rules); {
				_, rerr, at := mc.Expand(cur, from, emit)
				if rerr == nil {
					break
				}
				from = at + 1
			}
		}
	}
	t.Logf("%d successors checked", checked)
}
