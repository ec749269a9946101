// Package runkit is what the measurement scripts share: compiling a model,
// running an engine in-process with a disk directory, its user CPU time
// (the machine the tables are made on is shared, so wall-clock time says
// little), and the number of distinct states an engine really kept, which
// an engine that forgets states cannot count itself.
package runkit

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/state"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/storagefs"
)

// Compile reads and compiles a model.
func Compile(file string) (*compile.Model, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	m, diags := verify.Compile(file, src)
	if m == nil {
		return nil, fmt.Errorf("%s: rejected: %v", file, diags)
	}
	return m, nil
}

// Run is one engine run and what was measured of it.
type Run struct {
	*explore.Result
	CPU time.Duration // user CPU time of the run
	// Distinct[i] is the number of distinct states kept after i+1
	// insertions (nil unless Count was asked for).
	Distinct []int32
}

// DistinctAt returns the distinct states kept after n insertions.
func (r *Run) DistinctAt(n int64) int64 {
	if n <= 0 || len(r.Distinct) == 0 {
		return 0
	}
	if n > int64(len(r.Distinct)) {
		n = int64(len(r.Distinct))
	}
	return int64(r.Distinct[n-1])
}

// Fresh returns the distinct states kept in the whole run.
func (r *Run) Fresh() int64 { return r.DistinctAt(int64(len(r.Distinct))) }

// Exec runs opts.Algorithm on m with a fresh disk directory; count asks
// for the distinct states (a set of every state kept: for measuring only;
// time it on both sides of a ratio).
func Exec(m *compile.Model, opts explore.Options, count bool) (*Run, error) {
	dir, err := os.MkdirTemp("", "runkit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	fsys, err := storagefs.NewOS(dir, storagefs.Options{})
	if err != nil {
		return nil, err
	}
	defer fsys.Close()
	opts.FS = fsys
	run := &Run{}
	if count {
		// A set of 64-bit hashes: cheap enough to run in every timed
		// run, exact unless two of a few million states collide (2^-40).
		seen := map[uint64]struct{}{}
		opts.Observe = func(s []byte) {
			seen[state.Hash(s)] = struct{}{}
			run.Distinct = append(run.Distinct, int32(len(seen)))
		}
	}
	before := UserTime()
	run.Result = explore.Run(context.Background(), m, opts)
	run.CPU = UserTime() - before
	return run, nil
}
