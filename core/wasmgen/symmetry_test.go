//go:build !js

package wasmgen_test

import (
	"encoding/binary"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/symmetry"
	"github.com/locus-mc/locus/core/wasmgen"
)

// symModel puts scalarsets everywhere the Reducer looks: two of them, an
// array indexed twice by one (a leaf whose two dimensions name the same
// element), elements stored under another's index, unions of a scalarset
// with an enum and of two scalarsets, records.
const symModel = `
const N: 4; M: 3;
type P: scalarset(N); Q: scalarset(M);
  E: enum {a, b};
  U: union {P, E};
  V: union {P, Q};
  R: record x: P; y: 0..2; u: U; end;
var g: array[P] of array[P] of boolean;
    h: array[P] of R;
    k: array[Q] of V;
    w: array[Q] of array[P] of 0..1;
    z: P;
startstate begin clear g; clear h; clear k; clear w; clear z; end;
rule "r" true ==> begin z := z; end;
`

// symMultisetModel has scalarsets inside multisets (whose entries a
// permutation moves, so they are sorted again), a multiset in an array
// indexed by a scalarset, and a multiset inside a multiset's entries.
const symMultisetModel = `
type P: scalarset(3);
  M: record src: P; dst: P; n: 0..1; end;
  R: record inner: multiset [2] of P; b: boolean; end;
var net: multiset [3] of M;
    box: array[P] of multiset [2] of 0..1;
    outer: multiset [2] of R;
    z: P;
startstate begin undefine net; undefine box; undefine outer; clear z; end;
rule "r" true ==> begin z := z; end;
`

// TestCanonSameAsReducer: the generated canon gives every state the
// representative the Reducer gives it, in both modes, on states drawn over
// the leaves' whole ranges (undefined values too) and on states of few
// distinct values, whose ties make colour refinement and the enumeration
// of candidates work hardest.
func TestCanonSameAsReducer(t *testing.T) {
	models := map[string]*compile.Model{"sym.m": compileSource(t, "sym.m", []byte(symModel)),
		"sym-multiset.m": compileSource(t, "sym-multiset.m", []byte(symMultisetModel))}
	for _, f := range []string{"sym/n_peterson.m", "sym/cache3.m", "sym/adash.m", "sym/list6.m", "sym/mcslock1.m", "multiset+sym/newlist6.m"} {
		models[filepath.Base(f)] = compileFile(t, "../../../shared/models/cmurphi/"+f)
	}
	for name, m := range models {
		for _, mode := range []symmetry.Mode{symmetry.Exact, symmetry.Heuristic} {
			t.Run(name+map[symmetry.Mode]string{symmetry.Exact: "/exact", symmetry.Heuristic: "/heuristic"}[mode], func(t *testing.T) {
				r := symmetry.New(m, mode)
				if r == nil {
					t.Fatal("no scalarset to permute")
				}
				mod, inst := instantiate(t, m, wasmgen.Options{Symmetry: r.Plan()})
				defer inst.Close()
				rng := rand.New(rand.NewPCG(1, uint64(len(name))))
				un := m.NewUnpacker()
				packed := make([]byte, m.StateBytes+8)
				want := make([]int64, m.NumSlots)
				buf := make([]byte, 8*m.NumSlots)
				other, cur, curBuf := make([]byte, m.StateBytes+8), make([]int64, m.NumSlots), make([]byte, 8*m.NumSlots)
				enumerated := 0
				plan := r.Plan()
				for n := 0; n < 600; n++ {
					switch n % 3 {
					case 0, 1:
						randomState(rng, m, packed, n%3 == 1)
					case 2:
						cyclicState(rng, m, plan, packed)
					}
					un.Unpack(packed[:m.StateBytes], want)
					for i, v := range want {
						binary.LittleEndian.PutUint64(buf[8*i:], uint64(v))
					}
					orig := slices.Clone(want)
					before := r.Candidates
					r.Canonicalize(want)
					if r.Candidates > before {
						enumerated++
					}
					// canon starts from the current state's signatures
					// (symBase's): the state itself, or another.
					if n%4 < 2 {
						if err := inst.Write(mod.Cur, buf); err != nil {
							t.Fatal(err)
						}
					} else {
						randomState(rng, m, other, n%4 == 3)
						un.Unpack(other[:m.StateBytes], cur)
						for i, v := range cur {
							binary.LittleEndian.PutUint64(curBuf[8*i:], uint64(v))
						}
						if err := inst.Write(mod.Cur, curBuf); err != nil {
							t.Fatal(err)
						}
					}
					if _, err := inst.Call("symBase"); err != nil {
						t.Fatal(err)
					}
					if err := inst.Write(mod.Sym, buf); err != nil {
						t.Fatal(err)
					}
					if _, err := inst.Call("canonAny"); err != nil {
						t.Fatalf("canon of %s: %v", m.FormatState(orig), err)
					}
					if err := inst.Read(mod.Sym, buf); err != nil {
						t.Fatal(err)
					}
					got := make([]int64, m.NumSlots)
					for i := range got {
						got[i] = int64(binary.LittleEndian.Uint64(buf[8*i:]))
					}
					if !slices.Equal(got, want) {
						t.Fatalf("state %s:\ngenerated %s\nReducer   %s", m.FormatState(orig), m.FormatState(got), m.FormatState(want))
					}
				}
				t.Logf("%d states, %d by enumerating candidates", 600, enumerated)
			})
		}
	}
}

// cyclicState packs into dst a state of m that a rotation of one type's
// elements leaves unchanged (leaves indexed by them hold what depends on
// their indexes' differences only): colours cannot tell those elements
// apart, and few transpositions fix the state, so that the Reducer
// enumerates candidates.
func cyclicState(rng *rand.Rand, m *compile.Model, plan *symmetry.Plan, dst []byte) {
	randomState(rng, m, dst, true)
	seed := rng.Uint64()
	tc := rng.IntN(len(plan.Types))
	n := plan.Types[tc].N
	for _, al := range plan.Active {
		lf := &m.Leaves[al.Slot]
		key := mix64(seed ^ al.PosHash)
		kc := -1 // the first index of type tc
		for i, d := range al.Dims {
			switch {
			case d.Type != tc:
			case kc < 0:
				kc = d.K
			default:
				key = mix64(key ^ uint64((d.K-kc+n)%n)<<8 ^ uint64(i))
			}
		}
		code := uint64(0) // undefined: names no element
		switch {
		case len(lf.Parts) > 0:
		case al.Val == tc:
			if j := int(key % uint64(n+1)); j < n && kc >= 0 {
				code = uint64(plan.Types[tc].Lo+int64((kc+j)%n)-lf.Lo) + 1
			}
		default:
			code = key % min(lf.Count+1, 3)
		}
		mask := uint64(1)<<uint(lf.Bits) - 1
		w := binary.LittleEndian.Uint64(dst[lf.Offset>>3:])
		w = w&^(mask<<uint(lf.Offset&7)) | code<<uint(lf.Offset&7)
		binary.LittleEndian.PutUint64(dst[lf.Offset>>3:], w)
	}
}

// randomState packs into dst a state of m: each leaf's code drawn over its
// range, undefined included, or (few) from its first three codes only.
func randomState(rng *rand.Rand, m *compile.Model, dst []byte, few bool) {
	clear(dst)
	for _, lf := range m.Leaves {
		n := lf.Count + 1
		if few {
			n = min(n, 3)
		}
		c := rng.Uint64N(n)
		w := binary.LittleEndian.Uint64(dst[lf.Offset>>3:])
		w |= c << uint(lf.Offset&7)
		binary.LittleEndian.PutUint64(dst[lf.Offset>>3:], w)
	}
}

// TestCanonRefusesLargeScalarsets: the enumeration keeps a class's
// elements in an i64's bits, so a scalarset of more than 64 elements
// under reduction is refused (the closures reduce it), with a reason.
func TestCanonRefusesLargeScalarsets(t *testing.T) {
	m := compileSource(t, "large.m", []byte(`
type p: scalarset(65);
var on: array [p] of boolean;
startstate begin for i: p do on[i] := false end end;
ruleset i: p do rule begin on[i] := !on[i] end end;
`))
	_, err := wasmgen.Generate(m, wasmgen.Options{Symmetry: symmetry.New(m, symmetry.Exact).Plan()})
	if _, ok := err.(*wasmgen.Unsupported); !ok || !strings.Contains(err.Error(), "more than 64 elements") {
		t.Fatalf("got %v, want a refusal of the 65 elements", err)
	}
	if _, err := wasmgen.Generate(m, wasmgen.Options{}); err != nil {
		t.Fatalf("without reduction: %v", err)
	}
}
