//go:build js

package explore_test

import (
	"os"
	"testing"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/core/wasmgen/jsrun"
)

// TestBrowserRuntimeSameAsClosures is TestGeneratedSameAsClosures for the
// runtime the browser's engine uses (the JavaScript host's WebAssembly:
// V8 under Node here), on the testdata models and two corpus models
// under symmetry reduction: the same results in every
// field but times and memory (also under hash compaction), and the models written for the generator's
// features (codegen=covered) must run in it.
func TestBrowserRuntimeSameAsClosures(t *testing.T) {
	generated := 0
	cases := testdataCases(t)
	// Two corpus models under reduction, whose states need the whole of
	// canon (mcslock1's enumerate candidates).
	for _, f := range []string{"sym/mcslock1.m", "sym/list6.m"} {
		cases = append(cases, parallelCase{f + " sym=exact", "../../../shared/models/cmurphi/" + f, verify.Options{Options: job.Options{Symmetry: "exact"}}})
	}
	// Hash compaction: a trace rebuilt from the trail, and a search of
	// many queue chunks.
	cases = append(cases,
		parallelCase{"symmetry-trace.m hash=40", "testdata/symmetry-trace.m", verify.Options{Options: job.Options{Symmetry: "exact", HashCompaction: 40}}},
		parallelCase{"sym/mcslock1.m sym=off hash=64", "../../../shared/models/cmurphi/sym/mcslock1.m", verify.Options{Options: job.Options{Symmetry: "off", HashCompaction: 64}}})
	for _, c := range cases {
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
		t.Fatalf("only %d of %d models ran in generated code", generated, len(cases))
	}
	t.Logf("%d of %d models ran in generated code", generated, len(cases))
}
