package modelgen_test

import (
	"runtime"
	"testing"

	"github.com/locus-mc/locus/core/internal/modelgen"
	"github.com/locus-mc/locus/core/murphi"
)

// TestGeneratedModelsCheck: every generated model parses and type-checks.
func TestGeneratedModelsCheck(t *testing.T) {
	n := 3000
	if testing.Short() || runtime.GOOS == "js" {
		n = 300 // js/wasm (Node) runs it several times slower
	}
	for seed := uint64(0); seed < uint64(n); seed++ {
		m := modelgen.Generate(modelgen.NewRand(seed))
		ast, errs := murphi.ParseFile("gen.m", []byte(m.Source))
		if !errs.HasErrors() {
			_, errs = murphi.Check(ast)
		}
		if errs.HasErrors() {
			t.Fatalf("seed %d: %v\n%s", seed, errs.Errors(), m.Source)
		}
	}
}

// TestBytesSource: the fuzzer's bytes steer the generator, and any bytes
// give a model.
func TestBytesSource(t *testing.T) {
	for _, data := range [][]byte{nil, {0}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, make([]byte, 64)} {
		a := modelgen.Generate(modelgen.NewBytes(data))
		b := modelgen.Generate(modelgen.NewBytes(data))
		if a.Source != b.Source {
			t.Fatalf("bytes %v give two models", data)
		}
	}
}
