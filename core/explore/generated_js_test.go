//go:build js

package explore_test

import (
	"os"
	"testing"

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
			if _, why := compareGenerated(t, c.file, src, c.opts, jsrun.Runtime{}); why == "" {
				generated++
			}
		})
	}
	if generated < 10 {
		t.Fatalf("only %d testdata models ran in generated code", generated)
	}
	t.Logf("%d testdata models ran in generated code", generated)
}
