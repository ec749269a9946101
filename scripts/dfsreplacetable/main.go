// Command dfsreplacetable measures depth-first search with replacement as
// Jard and Jéron's §2.3 does: for memories M of given fractions of the
// exact need R (R states, M in states), the number of insertions R_ins
// and of generated states R_gen (successors computed: rules fired)
// relative to R, and the smallest memory at which the search still
// terminates (within a limit of insertions, by bisection between the
// deepest stack of a full run and R), for random replacement (the
// paper's) and the strategies given.
//
//	go run ./scripts/dfsreplacetable -limit 10 -tolerance 2 ../shared/models/cmurphi/sci/sci.m ...
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/store"
	"github.com/locus-mc/locus/scripts/runkit"
)

func main() {
	mems := flag.String("mem", "100,50,25,10", "memories, percent of the reachable states")
	strategies := flag.String("strategies", strings.Join(store.StrategyNames, ","), "replacement strategies")
	limit := flag.Float64("limit", 20, "a run that inserts more than this many times the distinct states it has seen is said not to terminate")
	tol := flag.Float64("tolerance", 0.5, "precision of the smallest terminating memory, percent of R")
	sym := flag.String("symmetry", "exact", "symmetry reduction: exact or off")
	flag.Parse()
	fmt.Println("| model | R | strategy | M (% of R) | verdict | R_ins / R | R_gen / R | R_gen / exact rules fired | deepest stack (% of R) | time / exact BFS (user CPU) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	type smallest struct {
		model, strategy string
		reach, stack    int64
		m               int64
	}
	var mins []smallest
	for _, file := range flag.Args() {
		m, err := runkit.Compile(file)
		check(err)
		base := explore.Options{Deadlock: explore.DeadlockOff, Trace: explore.TraceNone}
		if *sym == "off" {
			base.Symmetry = explore.SymmetryOff
		}
		ro := base
		ro.Algorithm = "bfs"
		ref, err := runkit.Exec(m, ro, false)
		check(err)
		reach := ref.States
		for _, st := range strings.Split(*strategies, ",") {
			code := -1
			for i, n := range store.StrategyNames {
				if n == st {
					code = i
				}
			}
			if code < 0 {
				check(fmt.Errorf("unknown strategy %q", st))
			}
			done := map[int64]*runkit.Run{}
			run := func(size int64) *runkit.Run {
				if r, ok := done[size]; ok {
					return r
				}
				o := base
				o.Algorithm = "dfs-replace"
				o.Seed = 1
				o.Params = map[string]float64{"cache": float64(size), "strategy": float64(code), "max-revisits": *limit}
				r, err := runkit.Exec(m, o, false)
				check(err)
				done[size] = r
				return r
			}
			var stack int64
			for _, f := range strings.Split(*mems, ",") {
				pct, err := strconv.ParseFloat(f, 64)
				check(err)
				size := int64(pct / 100 * float64(reach))
				r := run(size)
				verdict := string(r.Verdict.String())
				if r.Verdict != explore.Pass {
					switch {
					case strings.Contains(r.Reason, "too many revisits"):
						verdict = fmt.Sprintf("gave up (R_ins > %g × distinct seen)", *limit)
					case strings.Contains(r.Reason, "stack"):
						verdict = "stack does not fit"
					}
				}
				if r.Verdict == explore.Pass && r.MaxStack > stack {
					stack = r.MaxStack
				}
				fmt.Printf("| %s | %d | %s | %s | %s | %.3f | %.3f | %.3f | %.1f | %.2f |\n", file, reach, st, f, verdict,
					float64(r.StatesVisited)/float64(reach), float64(r.RulesFired)/float64(reach), float64(r.RulesFired)/float64(ref.RulesFired),
					100*float64(r.MaxStack)/float64(reach), r.CPU.Seconds()/ref.CPU.Seconds())
			}
			// The smallest memory that terminates: bisection between the
			// deepest stack seen (below it the stack cannot fit) and the
			// smallest memory that passed.
			lo, hi := max(stack-1, 1), reach
			for _, f := range strings.Split(*mems, ",") {
				pct, _ := strconv.ParseFloat(f, 64)
				size := int64(pct / 100 * float64(reach))
				if size < hi && run(size).Verdict == explore.Pass {
					hi = size
				}
			}
			for hi-lo > max(int64(*tol/100*float64(reach)), 1) {
				mid := (lo + hi) / 2
				if run(mid).Verdict == explore.Pass {
					hi = mid
				} else {
					lo = mid
				}
			}
			mins = append(mins, smallest{file, st, reach, stack, hi})
		}
		fmt.Fprintf(os.Stderr, "%s done\n", file)
	}
	fmt.Printf("\nSmallest memory that terminates (R_ins <= %g × the distinct states seen), to within %g%% of R:\n\n", *limit, *tol)
	fmt.Println("| model | strategy | smallest M (states) | % of R | deepest stack of a full run (states) |")
	fmt.Println("|---|---|---|---|---|")
	for _, s := range mins {
		fmt.Printf("| %s | %s | %d | %.1f | %d |\n", s.model, s.strategy, s.m, 100*float64(s.m)/float64(s.reach), s.stack)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
