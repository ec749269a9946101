//go:build js

package explore_test

import (
	"context"
	"os"
	"testing"

	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/core/wasmgen/jsrun"
)

// TestBrowserRuntimeSameAsClosures is TestGeneratedSameAsClosures for the
// runtime the browser's engine uses (the JavaScript host's WebAssembly:
// V8 under Node here), on the testdata models: the same results in every
// field but times and memory, and the models written for the generator's
// features (codegen=covered) must run in it.
func TestBrowserRuntimeSameAsClosures(t *testing.T) {
	generated := 0
	for _, c := range testdataCases(t) {
		t.Run(c.name, func(t *testing.T) {
			src, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			c.opts.Workers = 1
			c.opts.Algorithm = "bfs"
			want := verify.Check(context.Background(), c.file, src, c.opts)
			o := c.opts
			o.Generated = jsrun.Runtime{}
			got := verify.Check(context.Background(), c.file, src, o)
			if got.CodeGen == "" {
				for _, d := range got.Diagnostics {
					if generatorBug(d.Message) {
						t.Fatal(d.Message)
					}
				}
				if locusHeader(src)["codegen"] == "covered" {
					t.Fatalf("a codegen=covered model ran on the closures: %v", got.Diagnostics)
				}
			} else {
				generated++
			}
			got.CodeGen = ""
			if g, w := comparable(t, got), comparable(t, want); g != w {
				t.Fatalf("generated:\n%s\nclosures:\n%s", g, w)
			}
		})
	}
	if generated < 10 {
		t.Fatalf("only %d testdata models ran in generated code", generated)
	}
	t.Logf("%d testdata models ran in generated code", generated)
}
