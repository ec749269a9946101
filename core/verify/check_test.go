package verify

import (
	"testing"

	"github.com/locus-mc/locus/core/job"
)

// TestRunTagIgnoresWorkers: a checkpoint names the model and the options
// that decide the result; the workers do not (a resumed run goes on on
// one, whatever the first asked for), the symmetry does.
func TestRunTagIgnoresWorkers(t *testing.T) {
	src := []byte("var x: boolean;")
	o := Options{Options: job.Options{Algorithm: "auto", Workers: 2}}
	one := o
	one.Workers = 1
	other := o
	other.Symmetry = "off"
	if runTag(src, o) != runTag(src, one) {
		t.Error("2 workers and 1 tag different runs")
	}
	if runTag(src, o) == runTag(src, other) {
		t.Error("symmetry off tags the same run")
	}
}
