package wasmgen_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/murphi"
	"github.com/locus-mc/locus/core/wasmgen"
)

func compileFile(tb testing.TB, path string) *compile.Model {
	src, err := os.ReadFile(path)
	if err != nil {
		tb.Skip("corpus model not available: ", err)
	}
	return compileSource(tb, path, src)
}

func compileSource(tb testing.TB, path string, src []byte) *compile.Model {
	ast, errs := murphi.ParseFile(path, src)
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	ck, errs := murphi.Check(ast)
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	m, err := compile.Compile(ck)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestGenerateDeterministic: the same model gives the same module bytes;
// one that changed from run to run (map order leaking into the code) would
// make a failure of generated code impossible to reproduce.
func TestGenerateDeterministic(t *testing.T) {
	m := compileFile(t, "../../../shared/models/cmurphi/dash/adash.m")
	a, err := wasmgen.Generate(m, wasmgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := wasmgen.Generate(m, wasmgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Code, b.Code) {
		t.Fatalf("two modules of %d and %d bytes differ", len(a.Code), len(b.Code))
	}
	if string(a.Code[:4]) != "\x00asm" {
		t.Fatalf("not a wasm module: % x", a.Code[:8])
	}
}

// BenchmarkGenerateAdash measures generating the largest module of the
// corpus (adash inlines its procedures into 192 rule instances: 3.4 MB).
func BenchmarkGenerateAdash(b *testing.B) {
	m := compileFile(b, "../../../shared/models/cmurphi/dash/adash.m")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := wasmgen.Generate(m, wasmgen.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
