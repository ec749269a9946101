//go:build linux || darwin

package main

// The CLI as a process: signals at every stage, crashes of every kind, and
// the spill directory. These tests build the binary (and a variant that can
// crash on purpose) and run it; their models are generated.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binary returns the path of the locus binary built for the tests, with
// the crash hook if crash is set.
func binary(t *testing.T, crash bool) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "locus-cli-test-")
		if buildErr != nil {
			return
		}
		for _, b := range []struct{ name, tags string }{{"locus", ""}, {"locus-crash", "locustestcrash"}} {
			out, err := exec.Command("go", "build", "-tags", b.tags, "-o", filepath.Join(binDir, b.name), ".").CombinedOutput()
			if err != nil {
				buildErr = fmt.Errorf("go build %s: %v\n%s", b.name, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	if crash {
		return filepath.Join(binDir, "locus-crash")
	}
	return filepath.Join(binDir, "locus")
}

func TestMain(m *testing.M) {
	// The default makes each model's code beside the closures, and which
	// finishes first decides the notes and the workers; the tests of
	// other things run the closures alone (TestCodegenBeside runs both).
	os.Setenv("LOCUS_CODEGEN", "off")
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// result is the part of the JSON result these tests read.
type result struct {
	Verdict           string `json:"verdict"`
	Reason            string `json:"reason"`
	States            *int64 `json:"states"`
	DiskBytesWritten  int64  `json:"disk_bytes_written"`
	DiagnosticsLength int
}

func parseResult(t *testing.T, out string) result {
	t.Helper()
	var r result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("stdout is not one JSON result: %v\n%s", err, out)
	}
	return r
}

// frontEndHeavy is a model whose parsing, checking and compiling each take
// a good part of a second: many small rules.
func frontEndHeavy(t *testing.T) string {
	var b strings.Builder
	b.WriteString("var x: 0..3;\nstartstate begin x := 0; end;\n")
	for i := 0; b.Len() < 3<<20; i++ {
		fmt.Fprintf(&b, "rule \"r%d\" x = %d ==> begin x := (x + 1) %% 4; end;\n", i, i%4)
	}
	return writeModel(t, b.String())
}

// searchHeavy is a model with about 27 billion states: it runs until
// stopped, and with a small budget its queue spills to disk.
const searchHeavy = `var a: 0..3000; b: 0..3000; c: 0..3000;
startstate begin a := 0; b := 0; c := 0; end;
rule "a" true ==> begin a := (a + 1) % 3001; end;
rule "b" true ==> begin b := (b + 1) % 3001; end;
rule "c" true ==> begin c := (c + 1) % 3001; end;
`

var diskQueue = regexp.MustCompile(`queue \d+\+([1-9]\d*)`)

// interrupt starts `locus check --json --progress`, sends sig once ready
// says so about a line of its standard error, and returns the exit status
// and standard output.
func interrupt(t *testing.T, bin string, sig syscall.Signal, ready func(line string) bool, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"check", "--json", "--progress"}, args...)...)
	var out strings.Builder
	cmd.Stdout = &out
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	sent := false
	for sc.Scan() {
		if !sent && ready(sc.Text()) {
			cmd.Process.Signal(sig)
			sent = true
		}
	}
	io.Copy(io.Discard, stderr)
	err = cmd.Wait()
	if !sent {
		t.Fatalf("the check ended (%v) before it was ready to be interrupted:\n%s", err, out.String())
	}
	return cmd.ProcessState.ExitCode(), out.String()
}

func stageLine(stage string) func(string) bool {
	return func(line string) bool { return strings.TrimSpace(line) == stage }
}

// TestInterruptEveryStage: SIGINT and SIGTERM stop a check while it parses,
// type-checks, compiles or searches (with its queue spilled to disk): verdict
// incomplete, the JSON printed, exit 4, and nothing left on disk.
func TestInterruptEveryStage(t *testing.T) {
	bin := binary(t, false)
	heavy := frontEndHeavy(t)
	search := writeModel(t, searchHeavy)
	names := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, tc := range []struct {
			stage string
			model string
			ready func(string) bool
			flags []string
		}{
			{"parsing", heavy, stageLine("parsing"), nil},
			{"type-checking", heavy, stageLine("type-checking"), nil},
			{"compiling", heavy, stageLine("compiling"), nil},
			{"searching", search, diskQueue.MatchString, []string{"-m", "256M", "--queue-fraction", "0.001"}},
		} {
			t.Run(names[sig]+" while "+tc.stage, func(t *testing.T) {
				dir := t.TempDir()
				code, out := interrupt(t, bin, sig, tc.ready, append(tc.flags, "--disk-dir", dir, tc.model)...)
				if code != exitIncomplete {
					t.Fatalf("exit %d, want %d\n%s", code, exitIncomplete, out)
				}
				r := parseResult(t, out)
				name := names[sig]
				want := "interrupted by " + name + " while " + tc.stage
				if tc.stage == "searching" {
					want = "interrupted by " + name + " after "
				}
				if r.Verdict != "incomplete" || !strings.HasPrefix(r.Reason, want) {
					t.Fatalf("verdict %s (%s), want incomplete (%s...)", r.Verdict, r.Reason, want)
				}
				if tc.stage == "searching" && (r.States == nil || *r.States == 0 || r.DiskBytesWritten == 0) {
					t.Fatalf("the interrupted search reported no states or no spill: %s", out)
				}
				if left, _ := os.ReadDir(dir); len(left) > 0 {
					t.Fatalf("left in the spill directory: %v", left)
				}
			})
		}
	}
}

// TestCrashIsAnError: whatever kills the checking process — a panic, a
// panic in another goroutine, a fatal runtime error, a stack overflow, an
// abrupt exit — ends as verdict error, exit 3, asking for a bug report,
// never as exit 2 (a rejection).
func TestCrashIsAnError(t *testing.T) {
	bin := binary(t, true)
	model := example("peterson.m")
	for _, tc := range []struct{ kind, want string }{
		{"panic", "panic: a test panic"},
		{"goroutine", "panic: a test panic in a goroutine"},
		{"fatal", "fatal error: concurrent map writes"},
		{"stack", "fatal error: stack overflow"},
		{"exit", "ended abruptly (exit status 2)"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			cmd := exec.Command(bin, "check", "--json", model)
			cmd.Env = append(os.Environ(), "LOCUS_TEST_CRASH="+tc.kind)
			out, _ := cmd.Output()
			if code := cmd.ProcessState.ExitCode(); code != exitError {
				t.Fatalf("exit %d, want %d", code, exitError)
			}
			r := parseResult(t, string(out))
			if r.Verdict != "error" || !strings.Contains(r.Reason, tc.want) || !strings.Contains(r.Reason, "bug in Locus") {
				t.Fatalf("verdict %s (%s), want error naming %q and asking for a bug report", r.Verdict, r.Reason, tc.want)
			}
		})
	}
	t.Run("human output", func(t *testing.T) {
		cmd := exec.Command(bin, "check", model)
		cmd.Env = append(os.Environ(), "LOCUS_TEST_CRASH=fatal")
		out, _ := cmd.Output()
		if code := cmd.ProcessState.ExitCode(); code != exitError || !strings.Contains(string(out), "error: internal error: fatal error: concurrent map writes") {
			t.Fatalf("exit %d, output %q", code, out)
		}
	})
}

// TestHungCheckIsKilled: a check that ignores the signal is killed after a
// while; the run still ends as incomplete with its JSON.
func TestHungCheckIsKilled(t *testing.T) {
	bin := binary(t, true)
	cmd := exec.Command(bin, "check", "--json", example("peterson.m"))
	cmd.Env = append(os.Environ(), "LOCUS_TEST_CRASH=hang")
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitIncomplete {
		t.Fatalf("exit %d, want %d: %s", code, exitIncomplete, out.String())
	}
	if r := parseResult(t, out.String()); r.Verdict != "incomplete" || !strings.Contains(r.Reason, "did not stop in time") {
		t.Fatalf("verdict %s (%s)", r.Verdict, r.Reason)
	}
}

// TestSpillDirectory: a run that never spills makes no directory; one that
// spills removes its own; a start removes the directories of dead runs and
// keeps those of live ones.
func TestSpillDirectory(t *testing.T) {
	base := t.TempDir()
	// A dead run's leftovers: a directory and its lock file, not held.
	dead := filepath.Join(base, spillPrefix+"dead")
	os.MkdirAll(dead, 0o700)
	os.WriteFile(filepath.Join(dead, "q-000001"), []byte("queued states"), 0o600)
	os.WriteFile(dead+".lock", nil, 0o600)
	// A live run's: its lock is held (here, by this process).
	live := filepath.Join(base, spillPrefix+"live")
	os.MkdirAll(live, 0o700)
	lock, err := lockFile(live + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	defer unlockFile(lock)
	if code, out, _ := locus(t, "check", "--json", "--disk-dir", base, example("peterson.m")); code != exitPass {
		t.Fatalf("exit %d: %s", code, out)
	}
	names := func() []string {
		entries, _ := os.ReadDir(base)
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	if got, want := strings.Join(names(), " "), spillPrefix+"live "+spillPrefix+"live.lock"; got != want {
		t.Fatalf("after a run that did not spill: %s, want %s", got, want)
	}
	// A run that spills leaves nothing of its own.
	model := writeModel(t, strings.NewReplacer("3000", "60", "3001", "61").Replace(searchHeavy))
	code, out, _ := locus(t, "check", "--json", "-m", "16M", "--queue-fraction", "0.001", "--disk-dir", base, model)
	r := parseResult(t, out)
	if code != exitPass || r.DiskBytesWritten == 0 {
		t.Fatalf("exit %d, %d bytes spilled: %s", code, r.DiskBytesWritten, out)
	}
	if got, want := strings.Join(names(), " "), spillPrefix+"live "+spillPrefix+"live.lock"; got != want {
		t.Fatalf("after a run that spilled: %s, want %s", got, want)
	}
}
