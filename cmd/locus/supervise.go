package main

// This file implements the supervisor: `locus check` runs the check in a
// child process (this same program) and waits for it. A child that ends
// normally reports its exit status through a pipe before it exits; one that
// dies without doing so (a fatal runtime error such as a stack overflow or
// concurrent map writes, a panic in a goroutine, a kill) crashed, and the
// supervisor reports verdict "error", exit 3, and asks for a bug report.
// Signals are passed on to the child, which stops with verdict
// "incomplete"; the supervisor also sweeps the child's spill directory if
// the child could not.

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/locus-mc/locus/core/verify"
)

// childEnv marks a process as a supervised child.
const childEnv = "LOCUS_SUPERVISED"

// statusFD is the child's end of the status pipe (the first ExtraFiles entry).
const statusFD = 3

// killAfter is how long an interrupted child may take before it is killed
// (shortened by the crash tests).
var killAfter = 10 * time.Second

// reportStatus tells the supervisor, if any, that this child ends normally
// with exit status code.
func reportStatus(code int) {
	f := os.NewFile(statusFD, "locus-status")
	if f == nil {
		return
	}
	f.Write([]byte{byte(code)})
	f.Close()
}

// supervise runs `locus check args...` in a child process and returns its
// exit status; ok is false if no child could be started.
func supervise(args []string, stdout, stderr io.Writer) (code int, ok bool) {
	// What the report of a crash needs (a bad command line is the
	// child's to report).
	cf, _, _ := parseCheckFlags(args[1:], io.Discard)
	exe, err := os.Executable()
	if err != nil {
		return 0, false
	}
	statusR, statusW, err := os.Pipe()
	if err != nil {
		return 0, false
	}
	defer statusR.Close()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.ExtraFiles = []*os.File{statusW}
	var out bytes.Buffer
	if cf.jsonOut {
		cmd.Stdout = &out // printed whole, or replaced by the crash report
	} else {
		cmd.Stdout = stdout
	}
	crash := &crashLine{}
	cmd.Stderr = io.MultiWriter(stderr, crash)
	detach(cmd)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		statusW.Close()
		return 0, false
	}
	statusW.Close()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var interrupted os.Signal
	var kill <-chan time.Time
	killed := false
	var waitErr error
wait:
	for {
		select {
		case sig := <-sigs:
			if interrupted == nil {
				interrupted = sig
				kill = time.After(killAfter)
			}
			cmd.Process.Signal(sig)
		case <-kill:
			cmd.Process.Kill()
			killed = true
		case waitErr = <-waited:
			break wait
		}
	}
	sweepSpills(cf.diskDir)
	var status [1]byte
	if n, _ := statusR.Read(status[:]); n == 1 {
		stdout.Write(out.Bytes())
		return int(status[0]), true
	}
	res := &verify.Result{Algorithm: cf.opts.Algorithm, Symmetry: cf.opts.Symmetry, Deadlock: cf.opts.Deadlock}
	if interrupted != nil {
		res.Verdict = verify.Incomplete
		res.Reason = "interrupted by " + signalName(interrupted)
		if killed {
			res.Reason += "; the check did not stop in time and was killed"
		}
	} else {
		res.Verdict = verify.Error
		res.Reason = "internal error: " + crashSummary(waitErr, crash.first()) +
			". This is a bug in Locus; please report it, with the model, the command line and what the checker printed on standard error."
	}
	return report(stdout, stderr, cf, res, nil), true
}

// crashSummary names what killed the child: the runtime's "fatal error:" or
// "panic:" line if it printed one, else how the process ended.
func crashSummary(waitErr error, line string) string {
	if line != "" {
		return line
	}
	var ee *exec.ExitError
	if errors.As(waitErr, &ee) {
		return "the checker process ended abruptly (" + ee.ProcessState.String() + ")"
	}
	if waitErr != nil {
		return waitErr.Error()
	}
	return "the checker process ended without a result"
}

// crashLine watches a stream for the first line the Go runtime starts a
// crash report with.
type crashLine struct {
	mu    sync.Mutex
	part  []byte // the line being written, up to maxLine bytes
	found string
}

const maxLine = 1 << 10

func (c *crashLine) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range p {
		if b != '\n' {
			if len(c.part) < maxLine {
				c.part = append(c.part, b)
			}
			continue
		}
		line := strings.TrimSpace(string(c.part))
		c.part = c.part[:0]
		if c.found == "" && (strings.HasPrefix(line, "fatal error: ") || strings.HasPrefix(line, "panic: ")) {
			c.found = line
		}
	}
	return len(p), nil
}

func (c *crashLine) first() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.found
}
