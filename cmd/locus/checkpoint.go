package main

// Checkpointed runs: `locus check --checkpoint DIR` keeps the engine's
// files in DIR, durable at each table check, with the model and the
// options beside them; `locus resume DIR` continues the run from its newest
// checkpoint after a crash, a kill or an interruption, and ends with the
// counts an uninterrupted run gives.

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/storagefs"
)

// The CLI's own files in a checkpoint directory (the engine leaves them
// alone).
const (
	runFile   = "locus-run.json"
	modelFile = "locus-model.m"
	lockName  = "locus.lock"
)

// savedRun is what resume needs to repeat the command line of a run.
type savedRun struct {
	File    string      `json:"file"`
	Trace   string      `json:"trace"`
	Options job.Options `json:"options"`
}

// checkpointEngines lists the engines that write checkpoints.
func checkpointEngines() string {
	var names []string
	for _, e := range verify.Engines() {
		if e.Checkpoints {
			names = append(names, e.Name)
		}
	}
	return strings.Join(names, ", ")
}

// openCheckpointDir locks dir (one run at a time) and opens it as storage;
// release unlocks it.
func openCheckpointDir(dir string, create bool) (fs storagefs.FS, release func(), err error) {
	if create {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, nil, err
		}
	} else if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, nil, fmt.Errorf("%s is not a checkpoint directory", dir)
	}
	unlock, err := lockCheckpoint(filepath.Join(dir, lockName))
	if err != nil {
		return nil, nil, err
	}
	fs, err = storagefs.NewOS(dir, storagefs.Options{})
	if err != nil {
		unlock()
		return nil, nil, err
	}
	return fs, func() { fs.Close(); unlock() }, nil
}

// lockCheckpoint holds a lock on path while a run uses its directory.
func lockCheckpoint(path string) (func(), error) {
	if !canLock {
		return func() {}, nil
	}
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600); err == nil {
		f.Close()
	}
	f, ok := tryLockFile(path)
	if !ok {
		return nil, errors.New("another locus process is using this directory")
	}
	return func() { unlockFile(f) }, nil
}

// newCheckpointDir prepares dir for a new checkpointed run of cf: the
// storage, the saved command line, and what to do when the run ends.
func newCheckpointDir(cf checkFlags, src []byte) (storagefs.FS, func(*verify.Result), error) {
	dir := cf.checkpoint
	fs, release, err := openCheckpointDir(dir, true)
	if err != nil {
		return nil, nil, err
	}
	if segs, err := fs.ListSegments(runFile); err != nil || len(segs) > 0 {
		release()
		if err != nil {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%s already holds a run: continue it with 'locus resume %s', or give an empty directory", dir, dir)
	}
	run, err := json.Marshal(savedRun{File: cf.file, Trace: cf.trace, Options: cf.opts.Options})
	if err == nil {
		err = fs.WriteSegment(modelFile, src)
	}
	if err == nil {
		err = fs.WriteSegment(runFile, run)
	}
	if err == nil {
		err = fs.Sync()
	}
	if err != nil {
		release()
		return nil, nil, err
	}
	return fs, endCheckpointed(fs, dir, release), nil
}

// endCheckpointed returns what runs when a checkpointed run ends: a run
// that cannot be resumed (it finished, or stopped before its first
// checkpoint) takes its saved command line with it.
func endCheckpointed(fs storagefs.FS, dir string, release func()) func(*verify.Result) {
	return func(res *verify.Result) {
		if res.Checkpoint == nil || !res.Checkpoint.Resumable {
			fs.RemoveSegment(runFile)
			fs.RemoveSegment(modelFile)
		}
		if res.Checkpoint != nil {
			res.Checkpoint.Where = dir
		}
		release()
	}
}

// runResume is `locus resume [flags] DIR`.
func runResume(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("locus resume", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var cf checkFlags
	fl.BoolVar(&cf.jsonOut, "json", false, "print the result as one JSON object")
	fl.BoolVar(&cf.progress, "progress", false, "print progress to stderr")
	var budget int64
	fl.Var(sizeFlag{&budget}, "m", "memory budget for the engine (default: the run's)")
	fl.Usage = func() {
		fmt.Fprintf(stderr, "Usage: locus resume [flags] DIR\n\nContinues the run that 'locus check --checkpoint DIR' started.\n\nFlags:\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitPass
		}
		return exitRejected
	}
	if fl.NArg() != 1 {
		fmt.Fprintf(stderr, "locus resume: expected one checkpoint directory\n")
		fl.Usage()
		return exitRejected
	}
	dir := fl.Arg(0)
	fs, release, err := openCheckpointDir(dir, false)
	if err != nil {
		fmt.Fprintf(stderr, "locus resume: %v\n", err)
		return exitError
	}
	var run savedRun
	data, err := fs.ReadSegment(runFile, nil)
	if err == nil {
		if jerr := json.Unmarshal(data, &run); jerr != nil {
			// Killed while it saved its command line, the run never
			// reached a checkpoint either.
			err = fmt.Errorf("its saved command line is incomplete (%v): the run was stopped as it started; start it again with 'locus check --checkpoint'", jerr)
		}
	}
	var src []byte
	if err == nil {
		src, err = fs.ReadSegment(modelFile, nil)
	}
	if err != nil {
		release()
		if errors.Is(err, storagefs.ErrNotExist) {
			err = errors.New("it holds no run to resume (the run finished, or never reached its first checkpoint)")
		}
		fmt.Fprintf(stderr, "locus resume: %s: %v\n", dir, err)
		return exitError
	}
	cf.file, cf.trace = run.File, run.Trace
	cf.opts.Options = run.Options
	if budget > 0 {
		cf.opts.MemoryBytes = budget
	}
	cf.opts.FS = fs
	cf.opts.Resume = true
	return execute(cf, src, stdout, stderr, endCheckpointed(fs, dir, release))
}
