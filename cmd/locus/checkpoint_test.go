//go:build linux || darwin

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// checkpointed is the part of a checkpointed run's JSON result the tests
// compare.
type checkpointed struct {
	Verdict    string  `json:"verdict"`
	Reason     string  `json:"reason"`
	States     *int64  `json:"states"`
	RulesFired int64   `json:"rules_fired"`
	Depth      int     `json:"depth"`
	LevelSizes []int64 `json:"level_sizes"`
	Checkpoint *struct {
		Resumed   int  `json:"resumed"`
		Resumable bool `json:"resumable"`
	} `json:"checkpoint"`
}

// newestCheckpoint returns the generation of the newest manifest in dir.
func newestCheckpoint(dir string) int64 {
	names, _ := filepath.Glob(filepath.Join(dir, "manifest-*"))
	var gen int64
	for _, n := range names {
		g, err := strconv.ParseInt(strings.TrimPrefix(filepath.Base(n), "manifest-"), 16, 64)
		if err == nil && g > gen {
			gen = g
		}
	}
	return gen
}

// killAt runs locus with args as the engine's own process (no supervisor)
// and kills it with SIGKILL once dir holds checkpoint gen.
func killAt(t *testing.T, bin, dir string, gen int64, args ...string) {
	t.Helper()
	killWhen(t, bin, fmt.Sprintf("checkpoint %d", gen), func() bool { return newestCheckpoint(dir) >= gen }, args...)
}

// killWhen runs locus with args as the engine's own process and kills it
// with SIGKILL once ready says so.
func killWhen(t *testing.T, bin, what string, ready func() bool, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(2 * time.Minute)
	for !ready() {
		select {
		case err := <-exited:
			t.Fatalf("locus %v ended (%v) before %s", args, err, what)
		case <-deadline:
			cmd.Process.Kill()
			t.Fatalf("no %s within 2 minutes", what)
		case <-time.After(2 * time.Millisecond):
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-exited
}

// petersonModel writes the corpus's n_peterson model (N=7) for a test.
func petersonModel(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../../../shared/models/cmurphi/mux/n_peterson.m")
	if err != nil {
		t.Fatal(err)
	}
	return writeModel(t, string(src))
}

// TestCheckpointResume kills a checkpointed ldbfs run with SIGKILL at three
// points (the first session and two resumed ones), resumes it to the end,
// and gets the counts of an uninterrupted run.
func TestCheckpointResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs n_peterson N=7 twice")
	}
	bin, model := binary(t, false), petersonModel(t)
	flags := []string{"--algo", "ldbfs", "-m", "600K"}
	run := func(args ...string) checkpointed {
		t.Helper()
		out, err := exec.Command(bin, args...).Output()
		var r checkpointed
		if jerr := json.Unmarshal(out, &r); jerr != nil {
			t.Fatalf("locus %v: %v: %s", args, err, out)
		}
		return r
	}

	whole := t.TempDir()
	want := run(append([]string{"check", "--json", "--checkpoint", whole}, append(flags, model)...)...)
	if want.Verdict != "pass" || want.States == nil || want.Checkpoint == nil || want.Checkpoint.Resumable {
		t.Fatalf("uninterrupted run: %+v", want)
	}
	if left, _ := filepath.Glob(filepath.Join(whole, "*-*")); len(left) > 0 {
		t.Fatalf("a finished run left %d files, such as %s", len(left), left[0])
	}

	dir := t.TempDir()
	killAt(t, bin, dir, 3, append([]string{"check", "--json", "--checkpoint", dir}, append(flags, model)...)...)
	// A second run cannot start over the first one's files.
	if out, err := exec.Command(bin, append([]string{"check", "--checkpoint", dir}, append(flags, model)...)...).CombinedOutput(); err == nil || !strings.Contains(string(out), "locus resume") {
		t.Fatalf("a new run in a directory holding one: %v\n%s", err, out)
	}
	killAt(t, bin, dir, 40, "resume", "--json", dir)
	killAt(t, bin, dir, 90, "resume", "--json", dir)
	got := run("resume", "--json", dir)
	if got.Verdict != want.Verdict || got.States == nil || *got.States != *want.States || got.RulesFired != want.RulesFired ||
		got.Depth != want.Depth || !slices.Equal(got.LevelSizes, want.LevelSizes) {
		t.Fatalf("resumed run: %s %v states, %d rules, depth %d; uninterrupted: %s %d states, %d rules, depth %d (%s)",
			got.Verdict, got.States, got.RulesFired, got.Depth, want.Verdict, *want.States, want.RulesFired, want.Depth, got.Reason)
	}
	if got.Checkpoint == nil || got.Checkpoint.Resumed != 3 {
		t.Fatalf("checkpoint report %+v, want 3 resumptions", got.Checkpoint)
	}
	if out, err := exec.Command(bin, "resume", dir).CombinedOutput(); err == nil || !strings.Contains(string(out), "no run to resume") {
		t.Fatalf("resuming a finished run: %v\n%s", err, out)
	}
}

// TestAutoCheckpointResume kills a checkpointed auto run with SIGKILL
// before its disk phase (nothing is checkpointed yet: the resumption
// starts over) and twice in it, resumes it to the end, and gets the phases
// and counts of an uninterrupted run.
func TestAutoCheckpointResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs n_peterson N=7 twice")
	}
	bin, model := binary(t, false), petersonModel(t)
	flags := []string{"--algo", "auto", "-m", "1M"}
	type result struct {
		checkpointed
		Phases    []string `json:"phases"`
		Guarantee string   `json:"guarantee"`
	}
	run := func(args ...string) result {
		t.Helper()
		out, err := exec.Command(bin, args...).Output()
		var r result
		if jerr := json.Unmarshal(out, &r); jerr != nil {
			t.Fatalf("locus %v: %v: %s", args, err, out)
		}
		return r
	}
	whole := t.TempDir()
	want := run(append([]string{"check", "--json", "--checkpoint", whole}, append(flags, model)...)...)
	if want.Verdict != "pass" || want.States == nil || want.Checkpoint == nil || want.Checkpoint.Resumable ||
		len(want.Phases) < 2 || want.Phases[len(want.Phases)-1] != "ldbfs" {
		t.Fatalf("uninterrupted run: %+v", want)
	}

	dir := t.TempDir()
	// Started: the run's command line is saved whole (killed while the
	// file is written, the run has nothing to resume: see
	// TestResumeOfARunKilledAsItStarted).
	started := func() bool {
		b, err := os.ReadFile(filepath.Join(dir, runFile))
		return err == nil && len(b) > 0 && json.Valid(b)
	}
	killWhen(t, bin, "the run's start", started, append([]string{"check", "--json", "--checkpoint", dir}, append(flags, model)...)...)
	if gen := newestCheckpoint(dir); gen != 0 {
		t.Fatalf("killed at the start, yet checkpoint %d was written", gen)
	}
	killAt(t, bin, dir, 3, "resume", "--json", dir)
	killAt(t, bin, dir, 40, "resume", "--json", dir)
	got := run("resume", "--json", dir)
	if got.Verdict != want.Verdict || got.States == nil || *got.States != *want.States || got.RulesFired != want.RulesFired ||
		got.Depth != want.Depth || !slices.Equal(got.LevelSizes, want.LevelSizes) || !slices.Equal(got.Phases, want.Phases) || got.Guarantee != want.Guarantee {
		t.Fatalf("resumed run: %s %v %v states, %d rules, depth %d, %s; uninterrupted: %s %v %d states, %d rules, depth %d, %s (%s)",
			got.Verdict, got.Phases, got.States, got.RulesFired, got.Depth, got.Guarantee, want.Verdict, want.Phases, *want.States, want.RulesFired, want.Depth, want.Guarantee, got.Reason)
	}
	// The start over is a new run: two resumptions from checkpoints.
	if got.Checkpoint == nil || got.Checkpoint.Resumed != 2 {
		t.Fatalf("checkpoint report %+v, want 2 resumptions", got.Checkpoint)
	}
}

// TestResumeOfARunKilledAsItStarted: a run killed while it saved its
// command line (the file there, its bytes not yet) has nothing to resume,
// and resume says so, with what to do, instead of a JSON error alone.
func TestResumeOfARunKilledAsItStarted(t *testing.T) {
	bin := binary(t, false)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, runFile), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, modelFile), []byte("var x: boolean;"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "resume", dir).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitError || !strings.Contains(string(out), "stopped as it started; start it again with 'locus check --checkpoint'") {
		t.Fatalf("resume: %v: %s", err, out)
	}
}
