// Package verify is Locus's one entry point: model text and options in, a
// verdict with counts and a counterexample out.
//
// cmd/locus and wasm/ use only this package; the UI reaches it through the
// worker protocol. The options, progress and result are core/run's plain
// types, which marshal to the JSON printed by `locus check --json` and sent
// by the Web Worker.
package verify

import (
	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/wasmgen"
	"github.com/locus-mc/locus/storagefs"
)

// Verdicts.
const (
	Pass       = job.Pass
	Fail       = job.Fail
	Incomplete = job.Incomplete
	Rejected   = job.Rejected
	Error      = job.Error
)

// Options are a run's options (job.Options, the part that travels as JSON)
// plus what only a caller in the same process can give.
type Options struct {
	job.Options

	// FS is where engines keep disk data (queue spill files, the
	// counterexample trail). Nil means no disk: running out of memory
	// then ends the run as incomplete.
	FS storagefs.FS `json:"-"`

	// Resume continues the checkpointed run in FS (Options.Checkpoint)
	// instead of starting one; the model and options must be those of the
	// run, or it is refused.
	Resume bool `json:"-"`
	// CheckpointIfAble: see explore.Options.CheckpointIfAble.
	CheckpointIfAble bool `json:"-"`

	// Progress, if set, is called about every Options.ProgressEvery ms
	// (default 100) with a snapshot of the run; it must return quickly.
	Progress func(Progress) `json:"-"`

	// Parts, if set with Workers > 1, runs parts 1..Workers-1 of a
	// parallel search at the other end of this transport (each served by
	// ServePart), instead of on goroutines: the browser's Web Workers.
	Parts explore.PartTransport `json:"-"`

	// Generated, if set, runs a one-worker bfs in WebAssembly generated for
	// the model, on this runtime, where the generator covers the model.
	Generated wasmgen.Runtime `json:"-"`
	// GeneratedBeside makes the model's generated code on this runtime
	// while the closures search, and moves the search there if it is
	// ready first (explore.Options.GeneratedBeside).
	GeneratedBeside wasmgen.Runtime `json:"-"`

	// OnStage, if set, is called as each stage starts: StageParse,
	// StageCheck, StageCompile, StageSearch. The front-end stages do not
	// watch the context (each is bounded in time by the front end's size
	// limits), so a front end that must stop at once uses this to say where
	// the run was.
	OnStage func(stage string) `json:"-"`
}

// Stages of a check, as passed to Options.OnStage.
const (
	StageParse   = "parsing"
	StageCheck   = "type-checking"
	StageCompile = "compiling"
	StageSearch  = "searching"
)

// The plain types of core/run, by the names this package always used.
type (
	Progress   = job.Progress
	Result     = job.Result
	Violation  = job.Violation
	TraceStep  = job.TraceStep
	VarValue   = job.VarValue
	Cover      = job.Cover
	Diagnostic = job.Diagnostic
)
