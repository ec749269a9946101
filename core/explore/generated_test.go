//go:build !js

package explore_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/core/wasmgen/wazerorun"
)

// TestGeneratedSameAsClosures runs every testdata model and some corpus
// models once on the compiled closures and once with generated code
// (core/wasmgen, run by wazero): the results must be the same in every
// field but times and memory. A model the generator does not cover runs
// on the closures and says why; enough models must be covered that the
// comparison means something.
func TestGeneratedSameAsClosures(t *testing.T) {
	dir := "../../../shared/models/"
	cases := testdataCases(t)
	files, err := filepath.Glob(dir + "rumur/*.m")
	if err != nil || len(files) < 100 {
		t.Fatalf("the rumur corpus is missing (%d models)", len(files))
	}
	files = append(files, dir+"cmurphi/others/arbiter.m", dir+"cmurphi/toy/sort5.m", dir+"cmurphi/toy/pingpong.m")
	for _, f := range files {
		cases = append(cases, parallelCase{strings.TrimPrefix(f, dir), f, verify.Options{Options: job.Options{Symmetry: "off"}}})
	}
	generated := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			c.opts.Workers = 1
			c.opts.Algorithm = "bfs"
			want := verify.Check(context.Background(), c.file, src, c.opts)
			o := c.opts
			o.Generated = wazerorun.Runtime{}
			got := verify.Check(context.Background(), c.file, src, o)
			if got.CodeGen == "" {
				why := ""
				for _, d := range got.Diagnostics {
					if strings.Contains(d.Message, "closures") {
						why = d.Message
					}
				}
				if why == "" && want.Verdict != verify.Rejected {
					t.Fatalf("the closures ran the search and no note says why: %+v", got.Diagnostics)
				}
				t.Logf("closures: %s", why)
			} else {
				generated++
				if got.CodeGen != "wazero" {
					t.Fatalf("code_gen %q, want wazero", got.CodeGen)
				}
			}
			got.CodeGen = ""
			got.Diagnostics, want.Diagnostics = nil, nil
			if g, w := comparable(t, got), comparable(t, want); g != w {
				t.Fatalf("generated:\n%s\nclosures:\n%s", g, w)
			}
		})
	}
	if generated < len(cases)/3 {
		t.Fatalf("only %d of %d models ran in generated code", generated, len(cases))
	}
	t.Logf("%d of %d models ran in generated code", generated, len(cases))
}
