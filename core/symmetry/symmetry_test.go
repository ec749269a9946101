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

// reachable returns up to limit states found by breadth-first search
// without symmetry reduction.
func reachable(m *compile.Model, limit int) [][]int64 {
	mc := m.NewMachine()
	seen := map[string]bool{}
	buf := make([]byte, m.StateBytes)
	var out [][]int64
	add := func(s []int64) {
		c := append([]int64(nil), s...)
		m.SortMultisets(c)
		m.Pack(c, buf)
		if !seen[string(buf)] && len(out) < limit {
			seen[string(buf)] = true
			out = append(out, c)
		}
	}
	for i := range m.Starts {
		if err, _ := mc.RunStart(i); err == nil {
			add(mc.State())
		}
	}
	for i := 0; i < len(out) && len(out) < limit; i++ {
		for from := 0; from < len(m.Rules); {
			_, err, at := mc.Expand(out[i], from, func(_ int, s []int64) bool { add(s); return true })
			if err == nil {
				break
			}
			from = at + 1
		}
	}
	return out
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

func BenchmarkCanonicalize(b *testing.B) {
	for _, path := range []string{models[2], models[1], models[7]} {
		b.Run(filepath.Base(path), func(b *testing.B) {
			t := &testing.T{}
			m := compileFile(t, path)
			states := reachable(m, 2000)
			r := New(m, Exact)
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
