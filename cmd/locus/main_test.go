package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/wasmgen/nativerun"
)

// locus runs the CLI in-process and returns its exit status and output.
func locus(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func example(name string) string { return filepath.Join("..", "..", "examples", name) }

func writeModel(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "model.m")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("bad JSON %q: %v", s, err)
	}
	return m
}

func TestJSONPass(t *testing.T) {
	code, out, _ := locus(t, "check", "--json", example("peterson.m"))
	if code != exitPass {
		t.Fatalf("exit %d, want 0\n%s", code, out)
	}
	m := decode(t, out)
	for _, k := range []string{"verdict", "states", "rules_fired", "depth", "seconds", "peak_bytes", "rss_bytes", "algorithm", "symmetry"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if m["verdict"] != "pass" || m["algorithm"] != "bfs" || m["symmetry"] != "exact" {
		t.Errorf("got verdict %v algorithm %v symmetry %v", m["verdict"], m["algorithm"], m["symmetry"])
	}
	if m["states"].(float64) <= 0 || m["rules_fired"].(float64) <= 0 {
		t.Errorf("no states or rules: %v", out)
	}
}

func TestJSONFail(t *testing.T) {
	code, out, _ := locus(t, "check", "--json", example("broken-mutex.m"))
	if code != exitFail {
		t.Fatalf("exit %d, want 1", code)
	}
	m := decode(t, out)
	v, _ := m["violation"].(map[string]any)
	if v == nil || v["kind"] != "invariant" || v["name"] != "mutual exclusion" {
		t.Fatalf("violation = %v", m["violation"])
	}
	trace, _ := v["trace"].([]any)
	if len(trace) < 2 {
		t.Fatalf("trace too short: %v", trace)
	}
}

func TestHumanTrace(t *testing.T) {
	code, out, _ := locus(t, "check", example("broken-mutex.m"))
	if code != exitFail {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"Counterexample", "startstate", "take the lock", "pc[1]: critical", "Result:       FAIL"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestRejected(t *testing.T) {
	p := writeModel(t, "var x: boolean;\nstartstate begin x := 3 end;\nrule begin y := true end;\n")
	code, out, errOut := locus(t, "check", "--json", p)
	if code != exitRejected {
		t.Fatalf("exit %d, want 2: %s %s", code, out, errOut)
	}
	m := decode(t, out)
	ds, _ := m["diagnostics"].([]any)
	if m["verdict"] != "rejected" || len(ds) < 2 {
		t.Fatalf("verdict %v diagnostics %v", m["verdict"], ds)
	}
	d := ds[0].(map[string]any)
	if d["line"].(float64) != 2 || d["col"].(float64) < 1 {
		t.Errorf("first diagnostic at %v:%v", d["line"], d["col"])
	}
	code, _, errOut = locus(t, "check", p)
	if code != exitRejected || !strings.Contains(errOut, "model.m:3:") {
		t.Errorf("human mode: exit %d, stderr %q", code, errOut)
	}
}

// bound-illegal.m in the Rumur corpus: a bad --bound value is a command-line error.
func TestBadBound(t *testing.T) {
	code, _, errOut := locus(t, "check", "--bound", "foobar", example("peterson.m"))
	if code != exitRejected || !strings.Contains(errOut, "bound") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	code, _, _ = locus(t, "check", "--bound=-3", example("peterson.m"))
	if code != exitRejected {
		t.Fatalf("negative bound: exit %d", code)
	}
}

// A budget beyond the machine's memory (often a byte count given where a
// bare number means MiB) is a command-line error, not a failed allocation.
func TestBudgetAboveMemory(t *testing.T) {
	pm := physicalMemory()
	if pm == 0 || pm >= 1<<50 {
		t.Skip("physical memory unknown here")
	}
	code, _, errOut := locus(t, "check", "-m", "2191588", example("peterson.m"))
	if code != exitRejected || !strings.Contains(errOut, "more than this machine's memory") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestIncomplete(t *testing.T) {
	code, out, _ := locus(t, "check", "--json", "--bound", "2", example("peterson.m"))
	m := decode(t, out)
	if code != exitIncomplete || m["verdict"] != "incomplete" || !strings.Contains(m["reason"].(string), "bound") {
		t.Fatalf("bound: exit %d, %v", code, out)
	}
	code, out, _ = locus(t, "check", "--json", "-m", "1K", example("german.m"))
	m = decode(t, out)
	if code != exitIncomplete || m["verdict"] != "incomplete" || !strings.Contains(m["reason"].(string), "memory") {
		t.Fatalf("memory: exit %d, %v", code, out)
	}
}

func TestIOError(t *testing.T) {
	code, _, _ := locus(t, "check", filepath.Join(t.TempDir(), "missing.m"))
	if code != exitError {
		t.Fatalf("exit %d, want 3", code)
	}
}

func TestOptions(t *testing.T) {
	for _, args := range [][]string{
		{"--algo", "dfs"}, {"--symmetry", "off"}, {"--symmetry", "heuristic"}, {"-ndl"},
		{"--deadlock", "stuck"}, {"--max-errors", "3"}, {"-m", "64"}, {"--memory", "1GiB"}, {"--trace", "none"},
	} {
		a := append([]string{"check", "--json"}, args...)
		code, out, errOut := locus(t, append(a, example("peterson.m"))...)
		if code != exitPass {
			t.Errorf("%v: exit %d %s %s", args, code, out, errOut)
		}
	}
	for _, args := range [][]string{{"--algo", "nope"}, {"--symmetry", "maybe"}, {"--deadlock", "x"}, {"-m", "lots"}} {
		a := append([]string{"check", "--json"}, args...)
		code, _, errOut := locus(t, append(a, example("peterson.m"))...)
		if code != exitRejected || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, errOut)
		}
	}
}

func TestUsage(t *testing.T) {
	if code, _, _ := locus(t); code != exitRejected {
		t.Errorf("no args: exit %d", code)
	}
	if code, _, _ := locus(t, "frobnicate"); code != exitRejected {
		t.Errorf("unknown command: exit %d", code)
	}
	if code, out, _ := locus(t, "help"); code != 0 || !strings.Contains(out, "locus check") {
		t.Errorf("help: exit %d %q", code, out)
	}
}

func TestCMurphiTraceFormat(t *testing.T) {
	for _, tc := range []struct {
		flags []string
		want  []string
		code  int
	}{
		{[]string{"--trace-format", "cmurphi"}, []string{"The following is the error trace for the error:\n\n\tInvariant \"mutual exclusion\" failed.\n", "Rule take the lock, p:1 fired.\nlocked:true\npc[1]:critical\n----------\n", "The last state of the trace (in full) is:\n", "End of the error trace.\n\nResult:       FAIL"}, exitFail},
		{[]string{"--trace-format", "cmurphi", "--trace", "full"}, []string{"Rule read the lock: it is free, p:1 fired.\nlocked:false\npc[1]:saw_free\npc[2]:idle\n"}, exitFail},
		{[]string{"--trace-format", "cmurphi", "--trace", "none"}, []string{"Violation (invariant)"}, exitFail},
		{[]string{"--trace-format", "xml"}, nil, exitRejected},
	} {
		code, out, _ := locus(t, append(append([]string{"check"}, tc.flags...), example("broken-mutex.m"))...)
		if code != tc.code {
			t.Fatalf("%v: exit %d, want %d", tc.flags, code, tc.code)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", tc.flags, w, out)
			}
		}
	}
}

// TestCodegenBeside: by default, where the go command is, the model's
// program is built beside the closures, and takes the search over when
// it is ready first: here it is built already (by a --codegen=go run),
// so it is ready at once on a model the closures take most of a second
// for; the counts are the closures' and a note says what happened.
func TestCodegenBeside(t *testing.T) {
	if why := nativerun.Available(); why != "" {
		t.Skip(why)
	}
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		t.Setenv("GOCACHE", strings.TrimSpace(string(out)))
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	model := filepath.Join("..", "..", "..", "shared", "models", "cmurphi", "mux", "mcslock1.m")
	if _, err := os.Stat(model); err != nil {
		t.Skip("corpus model not available: ", err)
	}
	_, ref, _ := locus(t, "check", "--json", "--symmetry", "off", "--codegen=off", model)
	if _, out, _ := locus(t, "check", "--json", "--symmetry", "off", "--codegen=go", model); decode(t, out)["code_gen"] != "go" {
		t.Fatalf("--codegen=go did not run generated code:\n%s", out)
	}
	t.Setenv("LOCUS_CODEGEN", "")
	_, out, errOut := locus(t, "check", "--json", "--symmetry", "off", model)
	want, got := decode(t, ref), decode(t, out)
	if got["code_gen"] != "go" || !strings.Contains(out, "when it was ready, the search ran again in it") {
		t.Fatalf("the built program did not take the search over: code_gen %v\n%s%s", got["code_gen"], out, errOut)
	}
	for _, k := range []string{"verdict", "states", "rules_fired", "depth"} {
		if got[k] != want[k] {
			t.Errorf("%s = %v by default, %v on the closures", k, got[k], want[k])
		}
	}
	_, out, _ = locus(t, "check", "--json", "--symmetry", "off", example("peterson.m"))
	if got := decode(t, out); got["code_gen"] != nil || strings.Contains(out, "ran again") {
		t.Errorf("peterson.m (done before its program is built) did not stay on the closures:\n%s", out)
	}
}

// TestCodegen: --codegen runs the search in generated code (on two
// workers: parts of the states, one instance each),
// translated to Go and built (go) or compiled in process (wazero), with
// the closures' counts and verdict, a failing model included, and says
// so; a bare --codegen is go where the go command is; with symmetry
// reduction (german's scalarsets), which the generator does not cover,
// the closures run it and a note says why.
func TestCodegen(t *testing.T) {
	// The models' programs are built in a cache of the test's; go's own
	// build cache stays where it is (it follows XDG_CACHE_HOME too).
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		t.Setenv("GOCACHE", strings.TrimSpace(string(out)))
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	kinds := []string{"wazero"}
	if nativerun.Available() == "" {
		kinds = append(kinds, "go")
	} else {
		t.Logf("--codegen=go not tested: %s", nativerun.Available())
	}
	for _, kind := range kinds {
		for _, name := range []string{"peterson.m", "broken-mutex.m"} {
			_, ref, _ := locus(t, "check", "--json", "--symmetry", "off", "--workers", "1", example(name))
			code, out, _ := locus(t, "check", "--json", "--symmetry", "off", "--workers", "2", "--codegen="+kind, example(name))
			want, got := decode(t, ref), decode(t, out)
			if got["code_gen"] != kind {
				t.Fatalf("%s --codegen=%s: code_gen %v", name, kind, got["code_gen"])
			}
			if w := got["workers"]; name == "peterson.m" && w != 2.0 {
				t.Fatalf("%s --codegen=%s --workers 2: on %v workers\n%s", name, kind, w, out)
			}
			for _, k := range []string{"verdict", "states", "rules_fired", "depth"} {
				if got[k] != want[k] {
					t.Errorf("%s: %s = %v with --codegen=%s, %v without", name, k, got[k], kind, want[k])
				}
			}
			if name == "broken-mutex.m" && code != exitFail {
				t.Errorf("%s --codegen=%s: exit %d, want %d", name, kind, code, exitFail)
			}
		}
	}
	// Symmetry reduction runs in generated code too (german's clients
	// are a scalarset), with the closures' counts.
	_, ref, _ := locus(t, "check", "--json", "--workers", "1", example("german.m"))
	_, out, _ := locus(t, "check", "--json", "--codegen="+kinds[len(kinds)-1], example("german.m"))
	if want, got := decode(t, ref), decode(t, out); got["code_gen"] != kinds[len(kinds)-1] || got["states"] != want["states"] || got["rules_fired"] != want["rules_fired"] {
		t.Errorf("german.m under symmetry reduction: code_gen %v, %v states, %v rules; the closures %v, %v", got["code_gen"], got["states"], got["rules_fired"], want["states"], want["rules_fired"])
	}
	// Hash compaction too: german's counterexample-free pass with a
	// bound, and the note that says the signatures are 64-bit.
	_, ref, _ = locus(t, "check", "--json", "--workers", "1", "--hash-compaction", "40", example("german.m"))
	_, out, _ = locus(t, "check", "--json", "--hash-compaction", "40", "--codegen="+kinds[len(kinds)-1], example("german.m"))
	if want, got := decode(t, ref), decode(t, out); got["code_gen"] != kinds[len(kinds)-1] || got["states"] != want["states"] || got["rules_fired"] != want["rules_fired"] ||
		got["guarantee"] != "omission-bound" || !strings.Contains(out, "kept 64-bit signatures, not 40-bit ones") {
		t.Errorf("german.m under hash compaction: code_gen %v, %v states, %v rules, guarantee %v; the closures %v, %v:\n%s",
			got["code_gen"], got["states"], got["rules_fired"], got["guarantee"], want["states"], want["rules_fired"], out)
	}
	_, out, errOut := locus(t, "check", "--codegen", "--max-errors", "2000", example("peterson.m"))
	if strings.Contains(out, "generated for the model") || !strings.Contains(errOut, "does not cover more than 1000 errors") {
		t.Errorf("with --max-errors 2000 the generated code ran, or no note says why not:\n%s%s", out, errOut)
	}
	// Up to 1000 errors it does: broken-mutex with three.
	_, ref, _ = locus(t, "check", "--json", "--workers", "1", "--max-errors", "3", example("broken-mutex.m"))
	_, out, _ = locus(t, "check", "--json", "--max-errors", "3", "--codegen="+kinds[len(kinds)-1], example("broken-mutex.m"))
	if want, got := decode(t, ref), decode(t, out); got["code_gen"] != kinds[len(kinds)-1] || fmt.Sprint(got["violations"]) != fmt.Sprint(want["violations"]) {
		t.Errorf("broken-mutex.m with --max-errors 3: code_gen %v, violations differ from the closures':\n%v\n%v", got["code_gen"], got["violations"], want["violations"])
	}
	_, out, _ = locus(t, "check", "--codegen", "--symmetry", "off", example("peterson.m"))
	if !strings.Contains(out, "in code generated for the model ("+kinds[len(kinds)-1]+")") {
		t.Errorf("the text output does not say the generated code ran:\n%s", out)
	}
	code, _, errOut := locus(t, "check", "--codegen=fast", example("peterson.m"))
	if code != exitRejected || !strings.Contains(errOut, "want beside, go, wazero, auto or off") {
		t.Errorf("--codegen=fast: exit %d, %s", code, errOut)
	}
}
