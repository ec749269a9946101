package murphi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/internal/modelgen"
	"github.com/locus-mc/locus/core/murphi"
)

// seedModels returns the corpus and example models as fuzz seeds.
func seedModels(f *testing.F) {
	for _, pattern := range []string{
		"../../examples/*.m",
		"../../../shared/models/rumur/*.m",
		"../../../shared/models/cmurphi/*/*.m",
		"testdata/*/*.m",
	} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil {
				f.Add(src)
			}
		}
	}
	f.Add([]byte(""))
	f.Add([]byte("rule begin end"))
	// Generated models that type-check and run: mutations of them reach
	// the checker and the compiler far more often than mutations of
	// random text.
	for seed := uint64(0); seed < 50; seed++ {
		f.Add([]byte(modelgen.Generate(modelgen.NewRand(seed)).Source))
	}
}

// FuzzFrontEnd feeds arbitrary text to the scanner, parser, checker and
// compiler: none may panic, every diagnostic must be located, and a model
// that parses must print back to text that parses the same.
func FuzzFrontEnd(f *testing.F) {
	seedModels(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		if os.Getenv("LOCUS_FUZZ_SLOW") != "" {
			// Find slow inputs: crash (so the fuzzer saves the input)
			// if one takes seconds.
			timer := time.AfterFunc(3*time.Second, func() { panic("slow input") })
			defer timer.Stop()
		}
		m, errs := murphi.ParseFile("fuzz.m", src)
		for _, e := range errs {
			if e.Offset.IsValid() && (e.Pos.Line < 1 || e.Pos.Col < 1) {
				t.Fatalf("unlocated diagnostic %q", e.Error())
			}
			if e.Msg == "" {
				t.Fatal("empty diagnostic")
			}
		}
		if errs.HasErrors() {
			return
		}
		printed := murphi.Format(m)
		m2, errs2 := murphi.ParseFile("printed.m", []byte(printed))
		if errs2.HasErrors() {
			t.Fatalf("printed model does not parse: %v\n%s", errs2, printed)
		}
		if again := murphi.Format(m2); again != printed {
			t.Fatalf("printing is not stable:\n%s\n---\n%s", printed, again)
		}
		ck, errs := murphi.Check(m)
		if errs.HasErrors() {
			return
		}
		leaves := uint64(0)
		for _, g := range ck.Globals {
			leaves += murphi.Leaves(g.Type)
		}
		if leaves > 1<<12 {
			return // legal but slow to lay out; not what fuzzing is for
		}
		mod, err := compile.Compile(ck)
		if err != nil {
			if !strings.Contains(err.Error(), ":") {
				t.Fatalf("unlocated compile error %q", err)
			}
			return
		}
		if len(mod.Rules) > 256 || len(mod.Starts) > 256 || mod.MaxFrame() > 1<<12 {
			return // legal, but each expansion would be slow
		}
		// Run the start states and one expansion: run-time errors are
		// fine, panics are not.
		mc := mod.NewMachine()
		mc.StepLimit = 1 << 14 // keep each input fast
		for i := range mod.Starts {
			if i > 4 {
				break
			}
			if err, _ := mc.RunStart(i); err == nil {
				cur := append([]int64(nil), mc.State()...)
				mod.SortMultisets(cur)
				mc.Expand(cur, 0, func(int, []int64) bool { return true })
			}
		}
	})
}
