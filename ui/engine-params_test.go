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
