package explore

// This file runs the closures and the making of the model's generated
// code side by side (Options.GeneratedBeside): whichever is done first
// decides. The closures' result stands if they finish first; if the code
// is ready first, the search runs again in it: on a few workers the
// closures stop then, on more both go on and the first to finish decides
// (besideTakeOver). Both give the same verdict and counts
// (TestGeneratedSameAsClosures), so the race decides only how long the
// run takes, and the notes.

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/wasmgen"
)

// besideTakeOver is the most workers whose closures stop when the code is
// ready. Measured on 2 cores, the generated code on one worker beat the
// closures on two on every model (mcslock1 0.30 s against 0.45, list6
// 0.44 against 1.22, sci 0.16 against 0.80, adash 0.23 against 0.66): it
// runs 1.6-5.8x as fast as one closures worker, and two gave the closures
// 0.5-1.9x. Four workers would not make up for that either, by those
// figures; on more cores the closures may be the faster, so there both
// run (the code's one thread sharing the cores: a share of N/(N+1) of
// one), unless a memory budget is given (both would hold their states at
// once: the budget is for one search).
const besideTakeOver = 4

func runBeside(ctx context.Context, e *engine, m *compile.Model, opts Options) *Result {
	rt := opts.GeneratedBeside
	opts.GeneratedBeside = nil
	if opts.Checkpoint || opts.Resume || opts.Parts != nil {
		return e.run(ctx, m, opts)
	}
	gen := opts
	gen.Workers = 1
	mod, err := generatedModule(m, gen)
	if err != nil {
		return e.run(ctx, m, opts) // the user did not ask for generated code: no note
	}
	race := opts.Workers > besideTakeOver && opts.MemoryBytes == 0

	closuresCtx, stopClosures := context.WithCancel(ctx)
	defer stopClosures()
	buildCtx, stopBuild := context.WithCancel(ctx)
	defer stopBuild()
	var (
		mu      sync.Mutex
		ready   wasmgen.Instance
		settled bool // the closures are done: an instance made now is closed
		built   time.Duration
	)
	start := time.Now()
	building := make(chan struct{})
	readyToRace := make(chan wasmgen.Instance, 1)
	go func() {
		defer close(building)
		var inst wasmgen.Instance
		var err error
		if c, ok := rt.(wasmgen.ContextRuntime); ok {
			inst, err = c.InstantiateContext(buildCtx, mod)
		} else {
			inst, err = rt.Instantiate(mod)
		}
		if err != nil {
			return // the closures finish the search
		}
		mu.Lock()
		defer mu.Unlock()
		if settled {
			inst.Close()
			return
		}
		built = time.Since(start)
		if race {
			readyToRace <- inst
			return
		}
		ready = inst
		stopClosures()
	}()

	// The race: the code, once ready, runs the search beside the
	// closures; the first to finish stops the other.
	raceCtx, stopRace := context.WithCancel(ctx)
	defer stopRace()
	racing := make(chan struct{})
	var (
		raced    *Result // the generated code's result, if it finished first
		raceRan  bool
		raceGave string // why the generated code could not do the search
		racePeak int64  // its peak memory
	)
	go func() {
		defer close(racing)
		if !race {
			return
		}
		var inst wasmgen.Instance
		select {
		case inst = <-readyToRace:
		case <-raceCtx.Done():
			return
		}
		g := gen
		g.Generated = &readyRuntime{inst: inst, code: mod.Code, rt: rt}
		g.generated = mod
		g.generatedOnly = true
		r := e.run(raceCtx, m, g)
		mu.Lock()
		defer mu.Unlock()
		raceRan = true
		racePeak = r.PeakBytes
		if r.CodeGen == "" {
			raceGave = r.Reason
			return
		}
		if raceCtx.Err() == nil && !settled {
			raced = r
			stopClosures()
		}
	}()

	r := e.run(closuresCtx, m, opts)
	mu.Lock()
	settled = true
	inst := ready
	mu.Unlock()
	// A build still going is stopped, and waited for: it removes its
	// files as it ends, which a process exiting at once would leave.
	stopBuild()
	<-building
	if race {
		stopRace()
		<-racing
		select {
		case inst := <-readyToRace: // made as the closures ended
			inst.Close()
		default:
		}
		// Both searches held memory at once: the peak is their sum.
		if raced != nil && ctx.Err() == nil {
			raced.PeakBytes += r.PeakBytes
			raced.Notes = append(raced.Notes, fmt.Sprintf("the search ran on the compiled closures (%d workers) and, once the model's code was made (%s, %.1f s), "+
				"in it too, on one worker from the start; the generated code finished first (the peak memory is both searches')", opts.Workers, rt.Name(), built.Seconds()))
			return raced
		}
		if raceRan && ctx.Err() == nil {
			why := "the closures finished first (the peak memory is both searches')"
			if raceGave != "" {
				why = "it could not finish it: " + raceGave
			}
			r.PeakBytes += racePeak
			r.Notes = append(r.Notes, fmt.Sprintf("the model's code was made (%s, %.1f s) and ran the search too, from the start, on one worker beside the closures' %d; %s",
				rt.Name(), built.Seconds(), opts.Workers, why))
		}
		return r
	}
	if inst == nil || r.Verdict != Incomplete || ctx.Err() != nil {
		// Done first (a bound or budget that cut the search short is
		// done too, unless the code's arrival stopped it as well).
		if inst != nil {
			inst.Close()
		}
		return r
	}
	gen.Generated = &readyRuntime{inst: inst, code: mod.Code, rt: rt}
	gen.generated = mod
	gen.Workers = opts.Workers // on parts where the runtime and the model allow (generatedFirst)
	g := e.run(ctx, m, gen)
	if g.CodeGen != "" {
		g.Notes = append(g.Notes, fmt.Sprintf("the search began on the compiled closures while the model's code was made (%s, %.1f s); "+
			"when it was ready, the search ran again in it from the start", rt.Name(), built.Seconds()))
	}
	return g
}

// readyRuntime hands out an instance made beforehand, for the module it
// was made from, once; other modules (auto's retry with hash compaction)
// are made by rt.
type readyRuntime struct {
	inst wasmgen.Instance
	code []byte
	rt   wasmgen.Runtime
}

func (r *readyRuntime) Name() string { return r.rt.Name() }

func (r *readyRuntime) Concurrent() bool { return concurrent(r.rt) }

func (r *readyRuntime) Instantiate(m *wasmgen.Module) (wasmgen.Instance, error) {
	if r.inst == nil || !bytes.Equal(m.Code, r.code) {
		return r.rt.Instantiate(m)
	}
	inst := r.inst
	r.inst = nil
	return inst, nil
}
