// Package difftest runs Murphi models under Locus and under the reference
// interpreter (core/internal/reference) and reports every disagreement:
// verdicts, violation kinds, state, rule and cover counts, and the outcome
// of every rule at every reachable state.
//
// TestDifferential compares a fixed budget of generated models
// (core/internal/modelgen); FuzzDifferential lets `go test -fuzz` steer the
// generator for longer runs; TestDisagreements re-runs every model that
// ever disagreed (testdata/*.m).
package difftest

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locus-mc/locus/core/internal/modelgen"
)

// seeds is the CI budget of generated models: about 20 s of CPU natively.
// Under js/wasm (Node) the same code runs several times slower, so it
// checks fewer.
func seeds() int {
	if n, err := strconv.Atoi(os.Getenv("LOCUS_DIFF_SEEDS")); err == nil {
		return n
	}
	if runtime.GOOS == "js" {
		return 30
	}
	if testing.Short() {
		return 100
	}
	return 300
}

// slow is how long one comparison may take before the log says so.
const slow = 2 * time.Second

// TestDifferential compares generated models.
func TestDifferential(t *testing.T) {
	first := uint64(0)
	if s, err := strconv.ParseUint(os.Getenv("LOCUS_DIFF_FIRST"), 10, 64); err == nil {
		first = s
	}
	var compared, states, skipped, asym int
	failures := 0
	for seed := first; seed < first+uint64(seeds()); seed++ {
		gm := modelgen.Generate(modelgen.NewRand(seed))
		start := time.Now()
		o := compare(gm.Source, gm)
		if d := time.Since(start); d > slow {
			t.Logf("seed %d took %v (%d states)", seed, d.Round(time.Millisecond), o.states)
		}
		switch {
		case len(o.problems) > 0:
			failures++
			save(t, fmt.Sprintf("seed-%d.m", seed), gm)
			t.Errorf("seed %d (symmetry=%v deadlock=%s maxerrors=%d bound=%d):\n%s\n--- model:\n%s",
				seed, gm.Symmetry, gm.Deadlock, gm.MaxErrors, gm.Bound, strings.Join(o.problems, "\n"), gm.Source)
			if failures >= 3 && os.Getenv("LOCUS_DIFF_KEEPGOING") == "" {
				t.FailNow()
			}
		case o.skipped != "":
			skipped++
		default:
			compared++
			states += o.states
			if o.asymmetric {
				asym++
			}
		}
	}
	t.Logf("differential: %d models compared (%d states; %d compared without symmetry, being asymmetric), %d skipped",
		compared, states, asym, skipped)
}

// header is the first line of a saved model: the options it runs with.
func header(gm modelgen.Model) string {
	sym := "off"
	if gm.Symmetry {
		sym = "exact"
	}
	return fmt.Sprintf("-- difftest: symmetry=%s deadlock=%s maxerrors=%d bound=%d\n", sym, gm.Deadlock, gm.MaxErrors, gm.Bound)
}

// save writes a disagreeing model to $LOCUS_DIFF_SAVE, if set, ready to
// become a testdata file.
func save(t *testing.T, name string, gm modelgen.Model) {
	dir := os.Getenv("LOCUS_DIFF_SAVE")
	if dir == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(header(gm)+gm.Source), 0o644); err != nil {
		t.Log(err)
	}
}

// TestDisagreements re-runs every model that ever made Locus and the
// reference disagree ($LOCUS_DIFF_FILES, a glob, names others). Each file's first line gives the options:
// "-- difftest: symmetry=exact deadlock=stuck maxerrors=1 bound=0".
func TestDisagreements(t *testing.T) {
	pattern := "testdata/*.m"
	if p := os.Getenv("LOCUS_DIFF_FILES"); p != "" {
		pattern = p // e.g. the models a fuzzing run saved
	}
	files, _ := filepath.Glob(pattern)
	if len(files) == 0 {
		t.Fatal("no testdata models")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			gm := modelgen.Model{Source: string(src), Deadlock: "stuttering", MaxErrors: 1}
			header, _, _ := strings.Cut(string(src), "\n")
			if !strings.HasPrefix(header, "-- difftest:") {
				t.Fatalf("missing '-- difftest:' header")
			}
			for _, kv := range strings.Fields(strings.TrimPrefix(header, "-- difftest:")) {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "symmetry":
					gm.Symmetry = v == "exact"
				case "deadlock":
					gm.Deadlock = v
				case "maxerrors":
					gm.MaxErrors, _ = strconv.Atoi(v)
				case "bound":
					gm.Bound, _ = strconv.Atoi(v)
				default:
					t.Fatalf("unknown option %s", k)
				}
			}
			o := compare(gm.Source, gm)
			if o.skipped != "" {
				t.Fatalf("not compared: %s", o.skipped)
			}
			if len(o.problems) > 0 {
				t.Fatal(strings.Join(o.problems, "\n"))
			}
		})
	}
}

// tally appends one line per comparison to $LOCUS_DIFF_STATS, if set
// ("compared STATES", "skipped 0" or "disagreed STATES"): fuzzing workers
// are separate processes, so this is how a long run counts what it did.
func tally(o outcome) {
	name := os.Getenv("LOCUS_DIFF_STATS")
	if name == "" {
		return
	}
	what := "compared"
	switch {
	case len(o.problems) > 0:
		what = "disagreed"
	case o.skipped != "":
		what = "skipped"
	}
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintf(f, "%s %d\n", what, o.states)
	f.Close()
}

// FuzzDifferential: go test -run XXX -fuzz FuzzDifferential ./core/internal/difftest
func FuzzDifferential(f *testing.F) {
	for _, s := range []string{"", "\x00\x01", "locus", "\xff\xfe\xfd\xfc\xfb\xfa"} {
		f.Add([]byte(s))
	}
	// A longer run affords larger models than the CI budget, within the
	// 10 s the fuzzer gives one input.
	maxStates, maxWork, timeBudget = 3000, 5_000_000, 3*time.Second
	f.Fuzz(func(t *testing.T, data []byte) {
		gm := modelgen.Generate(modelgen.NewBytes(data))
		name := fmt.Sprintf("%x", sha256.Sum256(data))[:16]
		// The fuzzer kills a worker after 10 s on one input: keep the
		// model before that happens, to see what was slow.
		slowTimer := time.AfterFunc(8*time.Second, func() { save(t, "slow-"+name+".m", gm) })
		defer slowTimer.Stop()
		o := compare(gm.Source, gm)
		tally(o)
		if len(o.problems) > 0 {
			save(t, "fuzz-"+name+".m", gm)
			t.Fatalf("(symmetry=%v deadlock=%s maxerrors=%d bound=%d):\n%s\n--- model:\n%s",
				gm.Symmetry, gm.Deadlock, gm.MaxErrors, gm.Bound, strings.Join(o.problems, "\n"), gm.Source)
		}
	})
}
