package reference_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/internal/reference"
	"github.com/locus-mc/locus/core/murphi"
)

// load parses, checks and prepares a model for the reference.
func load(t *testing.T, file string, src []byte) *reference.Model {
	t.Helper()
	ast, errs := murphi.ParseFile(file, src)
	if errs.HasErrors() {
		t.Fatalf("parse: %v", errs)
	}
	ck, errs := murphi.Check(ast)
	if errs.HasErrors() {
		t.Fatalf("check: %v", errs)
	}
	m, err := reference.New(ck)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestExploreTestdata runs the reference on the engine tests' models, whose
// first line states the expected outcome ("-- locus: verdict=fail
// kind=deadlock states=12 ..."): the reference must agree with what was
// measured there, independently of Locus.
func TestExploreTestdata(t *testing.T) {
	files, _ := filepath.Glob("../../explore/testdata/*.m")
	if len(files) == 0 {
		t.Fatal("no models")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			header, _, _ := strings.Cut(string(src), "\n")
			want := map[string]string{}
			for _, kv := range strings.Fields(strings.TrimPrefix(header, "-- locus:")) {
				k, v, _ := strings.Cut(kv, "=")
				want[k] = v
			}
			if n, _ := strconv.Atoi(want["states"]); n > 20000 {
				t.Skipf("%d states: a test of scale, not of semantics", n)
			}
			if want["scale"] == "work" {
				// Past the step limit (2^26 steps in one rule): more
				// than the reference's work budget for a search.
				t.Skip("a test of the step limit's scale, not of semantics")
			}
			m := load(t, file, src)
			// Symmetry is off unless the header asks for it (as in the
			// engine test).
			opts := reference.Options{Symmetry: want["symmetry"] == "exact", Deadlock: want["deadlock"]}
			opts.MaxErrors, _ = strconv.Atoi(want["maxerrors"])
			res, err := m.Check(opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != want["verdict"] {
				t.Fatalf("verdict %s %v, want %s", res.Verdict, res.Violations, want["verdict"])
			}
			if k := want["kind"]; k != "" && (len(res.Violations) == 0 || res.Violations[0].Kind != k) {
				t.Fatalf("violations %v, want kind %s", res.Violations, k)
			}
			if n := want["violations"]; n != "" && strconv.Itoa(len(res.Violations)) != n {
				t.Fatalf("%d violations %v, want %s", len(res.Violations), res.Violations, n)
			}
			if s := want["states"]; s != "" && strconv.FormatInt(res.States, 10) != s {
				t.Fatalf("states %d, want %s", res.States, s)
			}
			if r := want["rules"]; r != "" && strconv.FormatInt(res.RulesFired, 10) != r {
				t.Fatalf("rules fired %d, want %s", res.RulesFired, r)
			}
		})
	}
}
