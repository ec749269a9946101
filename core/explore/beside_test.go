//go:build !js

package explore_test

import (
	"context"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/core/wasmgen"
	"github.com/locus-mc/locus/core/wasmgen/wazerorun"
)

// gatedRuntime instantiates on wazero once its gate opens, or fails if
// the build is cancelled first; it records what happened.
type gatedRuntime struct {
	gate      chan struct{}
	fail      error
	mu        sync.Mutex
	cancelled bool
	made      int
	// finished, if set, is closed when the search in the instance is done;
	// holdRuns keeps the instance's searching until the build's context
	// (which runBeside ends when the closures finish) is done.
	finished chan struct{}
	holdRuns bool
}

func (g *gatedRuntime) Name() string { return "wazero" }

func (g *gatedRuntime) Instantiate(m *wasmgen.Module) (wasmgen.Instance, error) {
	return g.InstantiateContext(context.Background(), m)
}

func (g *gatedRuntime) InstantiateContext(ctx context.Context, m *wasmgen.Module) (wasmgen.Instance, error) {
	if g.fail != nil {
		return nil, g.fail
	}
	select {
	case <-g.gate:
	case <-ctx.Done():
		g.mu.Lock()
		g.cancelled = true
		g.mu.Unlock()
		return nil, ctx.Err()
	}
	inst, err := wazerorun.Runtime{}.Instantiate(m)
	g.mu.Lock()
	g.made++
	g.mu.Unlock()
	if err != nil || (g.finished == nil && !g.holdRuns) {
		return inst, err
	}
	return &watchedInstance{Instance: inst, g: g, ctx: ctx}, nil
}

// watchedInstance is an instance whose search gatedRuntime watches or
// holds back.
type watchedInstance struct {
	wasmgen.Instance
	g    *gatedRuntime
	ctx  context.Context
	once sync.Once
}

func (w *watchedInstance) Call(name string, args ...uint64) (uint64, error) {
	if name == "run" && w.g.holdRuns {
		<-w.ctx.Done()
		time.Sleep(50 * time.Millisecond) // for the race's end to stop it
	}
	r, err := w.Instance.Call(name, args...)
	if name == "run" && err == nil && r == wasmgen.StatusDone && w.g.finished != nil {
		w.once.Do(func() { close(w.g.finished) })
	}
	return r, err
}

// waitMade waits until the runtime has made an instance.
func (g *gatedRuntime) waitMade() {
	for i := 0; i < 10000; i++ {
		g.mu.Lock()
		made := g.made
		g.mu.Unlock()
		if made > 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// TestGeneratedBeside: the closures and the making of the generated code
// race (Options.GeneratedBeside). The code ready mid-search takes the
// search over, with a note; a search done first cancels the making and
// keeps the closures' result, with no note; a runtime that fails leaves
// the closures' result. Every result equals the closures' alone.
func TestGeneratedBeside(t *testing.T) {
	for _, algo := range []string{"bfs", "auto"} {
		for _, workers := range []int{1, 2} {
			file := "testdata/wide.m"
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			opts := verify.Options{Options: job.Options{Algorithm: algo, Symmetry: "off", Workers: workers, ProgressEvery: 1}}
			if algo == "auto" && workers > 1 {
				continue // auto runs one worker
			}
			want := verify.Check(context.Background(), file, src, opts)

			// Ready mid-search: the gate opens once the closures have found
			// 1000 states, and they wait for the instance.
			g := &gatedRuntime{gate: make(chan struct{})}
			var once sync.Once
			o := opts
			o.GeneratedBeside = g
			o.Progress = func(p verify.Progress) {
				if p.States > 1000 {
					once.Do(func() {
						close(g.gate)
						g.waitMade()
					})
				}
			}
			got := verify.Check(context.Background(), file, src, o)
			if got.CodeGen != "wazero" || !hasNote(got, "when it was ready, the search ran again in it") {
				t.Fatalf("%s/%d: code ready mid-search: code_gen %q, notes %+v", algo, workers, got.CodeGen, got.Diagnostics)
			}
			got.CodeGen = ""
			if g, w := comparable(t, got), comparable(t, want); g != w {
				t.Fatalf("%s/%d: taken over:\n%s\nclosures:\n%s", algo, workers, g, w)
			}

			// Never ready: the search ends first and the making is cancelled.
			g = &gatedRuntime{gate: make(chan struct{})}
			o = opts
			o.GeneratedBeside = g
			got = verify.Check(context.Background(), file, src, o)
			if got.CodeGen != "" || hasNote(got, "ran again") {
				t.Fatalf("%s/%d: code never ready: code_gen %q, notes %+v", algo, workers, got.CodeGen, got.Diagnostics)
			}
			if g, w := comparable(t, got), comparable(t, want); g != w {
				t.Fatalf("%s/%d: closures first:\n%s\nclosures:\n%s", algo, workers, g, w)
			}
			waitCancelled(t, g)

			// A runtime that fails.
			o.GeneratedBeside = &gatedRuntime{fail: errors.New("no compiler")}
			got = verify.Check(context.Background(), file, src, o)
			if got.CodeGen != "" || len(got.Diagnostics) != len(want.Diagnostics) {
				t.Fatalf("%s/%d: failed runtime: code_gen %q, notes %+v", algo, workers, got.CodeGen, got.Diagnostics)
			}
			if g, w := comparable(t, got), comparable(t, want); g != w {
				t.Fatalf("%s/%d: failed runtime:\n%s\nclosures:\n%s", algo, workers, g, w)
			}
		}
	}
}

// waitCancelled waits for the runtime to see its build cancelled (the
// search returns before the build goroutine does).
func waitCancelled(t *testing.T, g *gatedRuntime) {
	t.Helper()
	for i := 0; i < 1000; i++ {
		g.mu.Lock()
		c := g.cancelled
		g.mu.Unlock()
		if c {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the making of the code was not cancelled when the search ended")
}

// readyAt1000 returns a progress function that opens the gate, and waits
// for the instance, once the first search past 1000 states reports.
func (g *gatedRuntime) readyAt1000() func(verify.Progress) {
	var crossed atomic.Bool
	return func(p verify.Progress) {
		if p.States > 1000 && crossed.CompareAndSwap(false, true) {
			close(g.gate)
			g.waitMade()
		}
	}
}

// TestGeneratedBesideRace: on more workers than besideTakeOver, the code
// once ready runs the search beside the closures, which go on; the first
// to finish decides, with a note, and the result is the closures' alone
// either way.
func TestGeneratedBesideRace(t *testing.T) {
	file := "testdata/wide.m"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	opts := verify.Options{Options: job.Options{Algorithm: "bfs", Symmetry: "off", Workers: 5, ProgressEvery: 1}}
	want := verify.Check(context.Background(), file, src, opts)

	// The code finishes first: the closures wait, past 1000 states,
	// until it has.
	g := &gatedRuntime{gate: make(chan struct{}), finished: make(chan struct{})}
	var crossed atomic.Bool
	o := opts
	o.GeneratedBeside = g
	o.Progress = func(p verify.Progress) {
		if p.States > 1000 && crossed.CompareAndSwap(false, true) {
			close(g.gate)
			select {
			case <-g.finished:
			case <-time.After(time.Minute):
				t.Error("the generated code did not finish beside the closures")
			}
		}
	}
	got := verify.Check(context.Background(), file, src, o)
	if got.CodeGen != "wazero" || !hasNote(got, "the generated code finished first") {
		t.Fatalf("code first: code_gen %q, notes %+v", got.CodeGen, got.Diagnostics)
	}
	got.CodeGen = ""
	if g, w := comparable(t, got), comparable(t, want); g != w {
		t.Fatalf("code first:\n%s\nclosures:\n%s", g, w)
	}

	// The closures finish first: the code, ready at 1000 states, is held
	// back until they have, and its search is stopped.
	g = &gatedRuntime{gate: make(chan struct{}), holdRuns: true}
	o = opts
	o.GeneratedBeside = g
	o.Progress = g.readyAt1000()
	got = verify.Check(context.Background(), file, src, o)
	if got.CodeGen != "" || !hasNote(got, "the closures finished first") {
		t.Fatalf("closures first: code_gen %q, notes %+v", got.CodeGen, got.Diagnostics)
	}
	if g, w := comparable(t, got), comparable(t, want); g != w {
		t.Fatalf("closures first:\n%s\nclosures:\n%s", g, w)
	}

	// Under a memory budget the closures stop when the code is ready, as
	// on few workers (both searches would hold the budget's memory).
	g = &gatedRuntime{gate: make(chan struct{})}
	o = opts
	o.MemoryBytes = 1 << 30
	o.GeneratedBeside = g
	o.Progress = g.readyAt1000()
	got = verify.Check(context.Background(), file, src, o)
	if got.CodeGen != "wazero" || !hasNote(got, "when it was ready, the search ran again in it") {
		t.Fatalf("under a budget: code_gen %q, notes %+v", got.CodeGen, got.Diagnostics)
	}
}

// TestGeneratedFirstOnFewWorkers runs bfs and auto asked for two workers
// with a runtime for generated code and remote parts (as the browser
// does): where the code covers the model it runs the search on one worker
// and the parts are released (symmetry reduction included); where it does
// not (here a bound on the module's code that newlist6's passes), the
// closures run on both.
func TestGeneratedFirstOnFewWorkers(t *testing.T) {
	dir := "../../../shared/models/cmurphi/"
	for _, c := range []struct {
		file, sym string
		generated bool
	}{{"mux/mcslock1.m", "off", true}, {"mux/mcslock1.m", "exact", true}, {"multiset+sym/newlist6.m", "exact", true}, {"multiset+sym/newlist6.m", "exact", false}} {
		restoreBound := func() {}
		if !c.generated {
			restoreBound = explore.SetGeneratedMaxCode(1000)
		}
		file := dir + c.file
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, algo := range []string{"bfs", "auto"} {
			sym := c.file + ", symmetry " + c.sym
			o := verify.Options{Options: job.Options{Algorithm: algo, Symmetry: c.sym, Workers: 2}, Generated: wazerorun.Runtime{}}
			parts := &releasingParts{chanParts: newChanParts(t, file, src, o)}
			o.Parts = parts
			want := verify.Check(context.Background(), file, src, verify.Options{Options: job.Options{Algorithm: algo, Symmetry: c.sym}})
			got := verify.Check(context.Background(), file, src, o)
			if *got.States != *want.States || got.RulesFired != want.RulesFired || got.Verdict != want.Verdict {
				t.Fatalf("%s, %s: %s %d states %d rules, want %s %d %d", algo, sym, got.Verdict, *got.States, got.RulesFired, want.Verdict, *want.States, want.RulesFired)
			}
			generated := c.generated
			if (got.CodeGen != "") != generated || (got.Workers == 1) != generated ||
				hasNote(got, "in code generated for the model, one is faster") != generated {
				t.Fatalf("%s, %s: code %q on %d workers, notes %+v", algo, sym, got.CodeGen, got.Workers, got.Diagnostics)
			}
			// The parts (Web Workers in the browser) go as soon as the
			// generated code has the search; the closures' search closes
			// them at its end.
			if parts.released != generated {
				t.Fatalf("%s, %s: parts released %v", algo, sym, parts.released)
			}
			if !generated {
				if err := <-parts.errs; err != nil {
					t.Fatalf("part: %v", err)
				}
			}
		}
		restoreBound()
	}
}

// TestGeneratedBesideAutoCompact: auto's retry with hash compaction,
// where the exact search's code was made beside the closures, makes the
// code of its own module (the code made beside is the exact search's).
func TestGeneratedBesideAutoCompact(t *testing.T) {
	file := "../../../shared/models/cmurphi/sci/sci.m"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Skip("corpus model not available: ", err)
	}
	opts := verify.Options{Options: job.Options{Algorithm: "auto", Symmetry: "off", ProgressEvery: 1}}
	exact := verify.Check(context.Background(), file, src, verify.Options{Options: opts.Options, Generated: wazerorun.Runtime{}})
	compact := verify.Check(context.Background(), file, src, verify.Options{Options: job.Options{Algorithm: "bfs", Symmetry: "off", HashCompaction: 64}, Generated: wazerorun.Runtime{}})
	if exact.CodeGen == "" || compact.CodeGen == "" {
		t.Fatalf("unbudgeted: exact %q, compact %q", exact.CodeGen, compact.CodeGen)
	}
	opts.MemoryBytes = (exact.PeakBytes + compact.PeakBytes) / 2
	g := &gatedRuntime{gate: make(chan struct{})}
	opts.GeneratedBeside = g
	opts.Progress = g.readyAt1000()
	got := verify.Check(context.Background(), file, src, opts)
	if got.CodeGen != "wazero" || len(got.Phases) != 1 || got.Phases[0] != "compact" || *got.States != *exact.States ||
		!hasNote(got, "ran again from the start in it, with 64-bit hash compaction") {
		t.Fatalf("under %d bytes: code_gen %q, phases %v, %d states (exact %d), notes %+v", opts.MemoryBytes, got.CodeGen, got.Phases, *got.States, *exact.States, got.Diagnostics)
	}
}
