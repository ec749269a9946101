//go:build !js

package explore_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

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
	return inst, err
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

func hasNote(r *verify.Result, s string) bool {
	for _, d := range r.Diagnostics {
		if strings.Contains(d.Message, s) {
			return true
		}
	}
	return false
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
