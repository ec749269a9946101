package explore

// This file runs the closures and the making of the model's generated
// code side by side (Options.GeneratedBeside): whichever is done first
// decides. The closures' result stands if they finish first; if the code
// is ready first, they stop and the search runs again in it. Both give
// the same verdict and counts (TestGeneratedSameAsClosures), so the race
// decides only how long the run takes, and the notes.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/wasmgen"
)

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
		ready, built = inst, time.Since(start)
		stopClosures()
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
	if inst == nil || r.Verdict != Incomplete || ctx.Err() != nil {
		// Done first (a bound or budget that cut the search short is
		// done too, unless the code's arrival stopped it as well).
		if inst != nil {
			inst.Close()
		}
		return r
	}
	gen.Generated = &readyRuntime{inst: inst, code: mod.Code, name: rt.Name()}
	gen.generated = mod
	g := e.run(ctx, m, gen)
	if g.CodeGen != "" {
		g.Notes = append(g.Notes, fmt.Sprintf("the search began on the compiled closures while the model's code was made (%s, %.1f s); "+
			"when it was ready, the search ran again in it from the start", rt.Name(), built.Seconds()))
	}
	return g
}

// readyRuntime hands out an instance made beforehand, for the module it
// was made from.
type readyRuntime struct {
	inst wasmgen.Instance
	code []byte
	name string
}

func (r *readyRuntime) Name() string { return r.name }

func (r *readyRuntime) Instantiate(m *wasmgen.Module) (wasmgen.Instance, error) {
	if r.inst == nil || !bytes.Equal(m.Code, r.code) {
		return nil, errors.New("not the module the code was made for")
	}
	inst := r.inst
	r.inst = nil
	return inst, nil
}
