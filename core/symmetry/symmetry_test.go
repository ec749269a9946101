package symmetry

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
)

func compileFile(t *testing.T, path string) *compile.Model {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return compileSource(t, path, src)
}

func compileSource(t *testing.T, path string, src []byte) *compile.Model {
	t.Helper()
	ast, errs := murphi.ParseFile(path, src)
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	ck, errs := murphi.Check(ast)
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	m, err := compile.Compile(ck)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// search runs a breadth-first search that keeps states in the form
// normalise gives them, and returns its first limit states (successors
// false) or the first limit successors it met, before normalising,
// duplicates included (successors true).
func search(m *compile.Model, normalise func([]int64), limit int, successors bool) [][]int64 {
	mc := m.NewMachine()
	seen := map[string]bool{}
	buf := make([]byte, m.StateBytes)
	var queue, met [][]int64
	add := func(s []int64) {
		if len(met) < limit {
			met = append(met, append([]int64(nil), s...))
		}
		c := append([]int64(nil), s...)
		normalise(c)
		m.Pack(c, buf)
		if !seen[string(buf)] && (successors || len(queue) < limit) {
			seen[string(buf)] = true
			queue = append(queue, c)
		}
	}
	out := &queue
	if successors {
		out = &met
	}
	for i := range m.Starts {
		if err, _ := mc.RunStart(i); err == nil {
			add(mc.State())
		}
	}
	for i := 0; i < len(queue) && len(*out) < limit; i++ {
		for from := 0; from < len(m.Rules); {
			_, err, at := mc.Expand(queue[i], from, func(_ int, s []int64) bool { add(s); return true })
			if err == nil {
				break
			}
			from = at + 1
		}
	}
	return *out
}

// reachable returns up to limit states found by breadth-first search
// without symmetry reduction.
func reachable(m *compile.Model, limit int) [][]int64 {
	return search(m, m.SortMultisets, limit, false)
}

var models = []string{
	"../../examples/german.m",
	"../../../shared/models/cmurphi/mux/mcslock1.m",
	"../../../shared/models/cmurphi/mux/n_peterson.m",
	"../../../shared/models/cmurphi/sym/list6.m",
	"../../../shared/models/cmurphi/sym/cache3.m",
	"../../../shared/models/cmurphi/multiset+sym/newlist6.m",
	"../../../shared/models/cmurphi/sci/sci.m",
	"../../../shared/models/cmurphi/dash/adash.m",
}

// TestCanonical checks the defining property of exact reduction: every
// permutation of a state has the same canonical form, which is itself a
// permutation of the state; and the heuristic maps into the same orbit.
func TestCanonical(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, path := range models {
		t.Run(filepath.Base(path), func(t *testing.T) {
			m := compileFile(t, path)
			exact := New(m, Exact)
			heur := New(m, Heuristic)
			if exact == nil {
				t.Fatal("no scalarset found")
			}
			states := reachable(m, 3000)
			n := m.NumSlots
			c1, c2, h := make([]int64, n), make([]int64, n), make([]int64, n)
			for _, s := range states {
				copy(c1, s)
				exact.Canonicalize(c1)
				for trial := 0; trial < 3; trial++ {
					// A random relabelling of every scalarset.
					for ti, pt := range exact.types {
						p := rng.Perm(pt.n)
						copy(exact.perm[ti], p)
					}
					exact.apply(s, c2)
					exact.Canonicalize(c2)
					for i := range c1 {
						if c1[i] != c2[i] {
							t.Fatalf("canonical forms differ for a permuted state:\n%s\nvs\n%s", m.FormatState(c1), m.FormatState(c2))
						}
					}
				}
				copy(h, s)
				heur.Canonicalize(h)
				exact.Canonicalize(h)
				for i := range c1 {
					if c1[i] != h[i] {
						t.Fatalf("heuristic left the orbit")
					}
				}
			}
		})
	}
}

// BenchmarkCanonicalize canonicalises the successors a reduced search
// meets, in its order.
func BenchmarkCanonicalize(b *testing.B) {
	for _, path := range []string{models[2], models[1], models[4], models[7]} {
		b.Run(filepath.Base(path), func(b *testing.B) {
			t := &testing.T{}
			m := compileFile(t, path)
			r := New(m, Exact)
			states := search(m, r.Canonicalize, 20000, true)
			s := make([]int64, m.NumSlots)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				copy(s, states[i%len(states)])
				r.Canonicalize(s)
			}
		})
	}
}

// swapModel has scalarset values and indices in every position the
// reducer distinguishes: a row of a record, a matrix over one type, a
// type indexing another's values, and a union.
const swapModel = `
const N: 4;
type pid: scalarset(N);
  other: scalarset(3);
  rec: record owner: pid; mark: 0..3; peer: array[pid] of boolean; end;
var next: array[pid] of pid;
  m: array[pid] of array[pid] of 0..2;
  r: array[pid] of rec;
  who: pid;
  o: array[other] of pid;
  u: union {pid, other};
startstate begin undefine next; undefine m; undefine r; undefine who; undefine o; undefine u; end;
rule "step" true ==> begin who := who; end;
`

// TestSwapFixes checks swapFixes, which looks only at the leaves a swap
// may change, against its definition (the swapped state equals the
// state) on random states made fixed by the swap, some then changed in
// one leaf.
func TestSwapFixes(t *testing.T) {
	m := compileSource(t, "swap.m", []byte(swapModel))
	r := New(m, Exact)
	rng := rand.New(rand.NewSource(2))
	s, swapped := make([]int64, m.NumSlots), make([]int64, m.NumSlots)
	identity := func() {
		for ti, pt := range r.types {
			for e := 0; e < pt.n; e++ {
				r.perm[ti][e] = e
			}
		}
	}
	fixed := 0
	for trial := 0; trial < 20000; trial++ {
		ti := rng.Intn(len(r.types))
		n := r.types[ti].n
		a := rng.Intn(n)
		b := (a + 1 + rng.Intn(n-1)) % n
		// A random state, then every leaf the swap moves set to the
		// image of its partner, and every leaf it leaves in place given
		// a value the swap keeps.
		for p := range s {
			li := &r.leaves[p]
			switch {
			case li.val >= 0 || li.val == -2:
				pt := r.types[rng.Intn(len(r.types))]
				if li.val >= 0 {
					pt = r.types[li.val]
				}
				s[p] = pt.lo + int64(rng.Intn(pt.n))
			default:
				s[p] = int64(rng.Intn(3))
			}
		}
		identity()
		r.perm[ti][a], r.perm[ti][b] = b, a
		for _, p := range r.active {
			q, v := r.image(p, s[p])
			if q > p {
				s[q] = v
				if q2, v2 := r.image(q, v); q2 != p || v2 != s[p] {
					s[p] = v2 // v's image is s[p] again only if s[p] was kept
				}
			} else if q == p && v != s[p] {
				s[p] = r.types[ti].lo + int64(r.types[ti].n) // not a value of ti: kept
				if li := &r.leaves[p]; li.val >= 0 {
					s[p] = r.undef
				}
			}
		}
		if trial%2 == 1 {
			s[r.active[rng.Intn(len(r.active))]] += int64(1 + rng.Intn(2))
		}
		r.apply(s, swapped)
		want := true
		for i := range s {
			want = want && s[i] == swapped[i]
		}
		identity()
		if got := r.swapFixes(s, ti, a, b); got != want {
			t.Fatalf("swapFixes(type %d, %d, %d) = %v, want %v, state:\n%s", ti, a, b, got, want, m.FormatState(s))
		}
		if want {
			fixed++
		}
	}
	t.Logf("%d of 20000 fixed", fixed)
	if fixed < 5000 {
		t.Fatalf("only %d of the states were fixed by their swap: the test builds too few", fixed)
	}
}
