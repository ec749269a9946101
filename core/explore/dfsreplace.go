package explore

// This file registers depth-first search with replacement (Jard and Jéron,
// "Bounded-memory algorithms for verification on-the-fly", INRIA RR-1462,
// §2.1): a stack of states, each with the iterator of its rules still to
// fire (so the search resumes a state where it left it, and a state's
// successors are never all held at once), and a set of visited states in
// the same memory. A successor on the stack or in the set is not entered
// again; that is what detects cycles. When the memory of M states is full,
// a visited state off the stack is forgotten to make room (at random, as
// in the paper, or by another strategy); forgotten states are entered
// again when met again. The search ends when the stack is empty, having
// visited every reachable state, or incomplete when the stack itself
// fills the memory (the paper's bound: a path of more than M states).
//
// The search is the loop of caching.go with a stack of frames of width one
// in which a state becomes a candidate as soon as it is popped.

import (
	"context"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/store"
)

func init() {
	register(job.EngineInfo{
		Name:  "dfs-replace",
		Title: "Depth-first search with replacement (fixed memory, exact)",
		Help: "Depth-first search whose stack and visited states share a fixed memory: when it is full a visited state is forgotten " +
			"(at random by default) and visited again if met again. A pass is exact. It needs room for the deepest path; " +
			"below that it stops and says so.",
		Randomized: true,
		Params: []job.ParamInfo{
			{Name: "cache", Title: "States the memory holds at most (stack and visited set, the paper's M); 0 = as many as the memory budget allows",
				Default: 0, Min: 0, Max: store.MaxNodes, Integer: true},
			strategyParam(store.Random), strataParam,
			{Name: "max-revisits", Title: revisitParam.Title, Default: 0, Min: 0, Max: 1e6},
		},
	}, func(ctx context.Context, m *compile.Model, opts Options) *Result {
		return runCaching(ctx, m, opts, cachingStack, func(int) int { return 1 })
	})
}
