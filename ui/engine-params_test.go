package ui

import (
	"reflect"
	"testing"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/wasm/protocol"
)

func engineApp() *App {
	return &App{Algorithm: "cache-dfs", MemoryMB: 64, Engines: []protocol.EngineInfo{
		{Name: "bfs", Title: "BFS"},
		{Name: "cache-dfs", Title: "caching", Randomized: true, Params: []job.ParamInfo{
			{Name: "cache", Title: "states", Default: 0, Min: 0, Max: 1000, Integer: true},
			{Name: "strategy", Title: "replacement", Default: 1, Min: 0, Max: 2, Integer: true, Choices: []string{"random", "shallow", "lru"}},
			{Name: "max-revisits", Title: "revisits", Default: 10, Min: 0, Max: 100},
		}},
	}}
}

func TestEngineParams(t *testing.T) {
	a := engineApp()
	c := &EngineParams{App: a}
	if !c.Randomized() {
		t.Error("cache-dfs takes a seed")
	}
	got := c.Params()
	if len(got) != 3 || got[0].Label != "Cache" || got[0].Step != "1" || got[1].Value != 1 || got[2].Label != "Max revisits" || got[2].Step != "any" {
		t.Fatalf("Params() = %+v", got)
	}
	// Values are clamped to the range and rounded for integers;
	// non-numbers and unknown names change nothing.
	a.setParam("cache", "5000.7")
	a.setParam("strategy", "2")
	a.setParam("max-revisits", "2.5")
	a.setParam("max-revisits", "many")
	a.setParam("nope", "1")
	a.Seed = 42
	o := a.options()
	want := map[string]float64{"cache": 1000, "strategy": 2, "max-revisits": 2.5}
	if !reflect.DeepEqual(o.Params, want) || o.Seed != 42 {
		t.Fatalf("options params %v seed %d, want %v and 42", o.Params, o.Seed, want)
	}
	if c.Params()[1].Value != 2 {
		t.Error("the menu does not show the choice made")
	}
	// Another engine: its own parameters, no seed.
	a.Algorithm = "bfs"
	if o := a.options(); o.Params != nil || o.Seed != 0 {
		t.Fatalf("bfs options carry %v, seed %d", o.Params, o.Seed)
	}
	if len((&EngineParams{App: a}).Params()) != 0 || (&EngineParams{App: a}).Randomized() {
		t.Error("bfs shows parameters")
	}
}

func TestEngineStats(t *testing.T) {
	got := engineStats(protocol.Progress{Visits: 3, PomIs: 0.25, Samples: 7, Reexpansions: 10, StackDepth: 4})
	var keys []string
	for _, s := range got {
		keys = append(keys, s.Key)
	}
	if !reflect.DeepEqual(keys, []string{"visits", "pomis", "reexpansions", "stack"}) || got[1].Value != "0.25 (7 sampled states)" {
		t.Fatalf("engineStats = %+v", got)
	}
	if len(engineStats(protocol.Progress{States: 5})) != 0 {
		t.Error("figures for an engine that has none")
	}
}

// TestWorkers: a parallel engine's runs ask for the Workers chosen, or,
// automatically, the cores but one (at most four) where the page is
// cross-origin isolated and one where it is not; other engines ask for
// none.
func TestWorkers(t *testing.T) {
	a := engineApp()
	a.Engines[0].Parallel = true
	a.Algorithm = "bfs"
	p := &OptionsPanel{App: a}
	for _, c := range []struct {
		cores    int
		isolated bool
		chosen   int
		want     int
	}{
		{8, true, 0, 4}, {5, true, 0, 4}, {4, true, 0, 3}, {3, true, 0, 2}, {2, true, 0, 1}, {1, true, 0, 1}, {8, false, 0, 1},
		{8, true, 6, 6}, {2, false, 3, 3}, {8, true, 1, 1},
	} {
		a.cores, a.isolated, a.Workers = c.cores, c.isolated, c.chosen
		if got := a.options().Workers; got != c.want {
			t.Errorf("%d cores, isolated %v, chosen %d: %d workers, want %d", c.cores, c.isolated, c.chosen, got, c.want)
		}
	}
	if !p.TakesWorkers() {
		t.Error("bfs hides the Workers menu")
	}
	// The menu: automatic (saying what it means here), then 1 to the
	// cores, and a number chosen beyond them.
	a.cores, a.isolated, a.Workers = 3, true, 0
	labels := func() (out []string) {
		for _, c := range p.WorkerChoices() {
			out = append(out, c.Value+"="+c.Label)
		}
		return
	}
	if got, want := labels(), []string{"0=Automatic (2 Workers)", "1=1 Worker", "2=2 Workers", "3=3 Workers"}; !reflect.DeepEqual(got, want) {
		t.Errorf("menu %v, want %v", got, want)
	}
	a.Workers = 5
	if got := labels(); len(got) != 6 || got[5] != "5=5 Workers" || p.WorkersValue() != "5" {
		t.Errorf("menu %v (value %s) does not offer the 5 chosen", got, p.WorkersValue())
	}
	a.Algorithm = "cache-dfs"
	if p.TakesWorkers() || a.options().Workers != 0 {
		t.Error("an engine that cannot run in parallel is asked for Workers")
	}
}
