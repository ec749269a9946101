// Command cachetable reproduces Experiment 1 of Evangelista and
// Kristensen, "Search-order independent state caching" (Table 2), on
// models: state caching with breadth-first and depth-first search orders
// (and Alt(b, d) and BBFS(w) if asked), caches of given fractions of the
// reachable states, every replacement strategy, runs given up at five
// times the state space (the paper's "out of time"). For each order and
// cache it prints how many strategies finished, the best run (fewest
// states visited): V, states visited as a percentage of the state space
// (the revisit factor is V/100), the largest TD-tree, and the user CPU
// time relative to exact BFS's; and why the others did not finish. A
// second table gives, as the paper's Table 2 does, the smallest cache at
// which some strategy still finished, found by bisection between 1 state
// and the smallest listed cache that finished (or the reachable states).
//
//	go run ./scripts/cachetable -caches 50,25,10 ../shared/models/cmurphi/sci/sci.m ...
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/core/store"
	"github.com/locus-mc/locus/scripts/runkit"
)

type order struct {
	label, algo string
	params      map[string]float64
}

func main() {
	caches := flag.String("caches", "50,25,10", "cache sizes, percent of the reachable states")
	orders := flag.String("orders", "bfs,dfs", "search orders: bfs, dfs, alt (Alt(4,4)), bbfs (BBFS(16))")
	revisits := flag.Float64("max-revisits", 5, "give up when the states inserted reach this many times the distinct states (the paper: 5)")
	sym := flag.String("symmetry", "exact", "symmetry reduction: exact or off")
	tol := flag.Float64("tolerance", 1, "precision of the smallest cache, percent of the reachable states (0: skip the search)")
	flag.Parse()
	type smallest struct {
		model, order string
		reach, size  int64
		strategy     string
		best         *runkit.Run
		exactCPU     float64
	}
	var mins []smallest
	known := map[string]order{
		"bfs":  {"BFS", "cache-bfs", nil},
		"dfs":  {"DFS", "cache-dfs", nil},
		"alt":  {"Alt(4,4)", "cache-alt", map[string]float64{"bfs": 4, "dfs": 4}},
		"bbfs": {"BBFS(16)", "cache-bfs", map[string]float64{"width": 16}},
	}
	fmt.Println("| model | states | order | cache (% of states) | finished (of 6 strategies) | best strategy | V (% of states) | largest TD-tree (%) | time / exact BFS (user CPU) | the others |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
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
		if ref.Verdict != explore.Pass {
			check(fmt.Errorf("%s: exact run %v %s", file, ref.Verdict, ref.Reason))
		}
		reach := ref.States
		for _, on := range strings.Split(*orders, ",") {
			od, ok := known[on]
			if !ok {
				check(fmt.Errorf("unknown order %q", on))
			}
			// allStrategies runs every replacement strategy with a cache of
			// size states: how many finished, the best (fewest visits), and
			// why the others did not.
			allStrategies := func(size int64) (int, *runkit.Run, string, map[string]int) {
				finished := 0
				var best *runkit.Run
				bestName := ""
				why := map[string]int{}
				for s := range store.StrategyNames {
					o := base
					o.Algorithm = od.algo
					o.Seed = 1
					o.Params = map[string]float64{"cache": float64(size), "strategy": float64(s), "max-revisits": *revisits}
					for k, v := range od.params {
						o.Params[k] = v
					}
					run, err := runkit.Exec(m, o, false)
					check(err)
					if run.Verdict != explore.Pass {
						switch {
						case strings.Contains(run.Reason, "too many revisits"):
							why["out of time"]++
						case strings.Contains(run.Reason, "fills the cache"):
							why["out of memory"]++
						default:
							why[run.Reason]++
						}
						continue
					}
					finished++
					if best == nil || run.StatesVisited < best.StatesVisited {
						best, bestName = run, store.StrategyNames[s]
					}
				}
				return finished, best, bestName, why
			}
			smallestOK := reach
			for _, c := range strings.Split(*caches, ",") {
				pct, err := strconv.ParseFloat(c, 64)
				check(err)
				size := int64(pct / 100 * float64(reach))
				finished, best, bestName, why := allStrategies(size)
				if finished > 0 && size < smallestOK {
					smallestOK = size
				}
				var others []string
				for k, v := range why {
					others = append(others, fmt.Sprintf("%d %s", v, k))
				}
				sort.Strings(others)
				if best == nil {
					fmt.Printf("| %s | %d | %s | %s | 0 | | | | | %s |\n", file, reach, od.label, c, strings.Join(others, ", "))
					continue
				}
				fmt.Printf("| %s | %d | %s | %s | %d | %s | %.0f | %.1f | %.2f | %s |\n", file, reach, od.label, c, finished, bestName,
					100*float64(best.StatesVisited)/float64(reach), 100*float64(best.MaxStack)/float64(reach),
					best.CPU.Seconds()/ref.CPU.Seconds(), strings.Join(others, ", "))
			}
			if *tol <= 0 {
				continue
			}
			// The smallest cache at which some strategy finishes.
			lo, hi := int64(0), smallestOK
			_, hiBest, hiName, _ := allStrategies(hi)
			for hi-lo > max(int64(*tol/100*float64(reach)), 1) {
				mid := (lo + hi) / 2
				if n, b, name, _ := allStrategies(mid); n > 0 {
					hi, hiBest, hiName = mid, b, name
				} else {
					lo = mid
				}
			}
			mins = append(mins, smallest{file, od.label, reach, hi, hiName, hiBest, ref.CPU.Seconds()})
		}
		fmt.Fprintf(os.Stderr, "%s done\n", file)
	}
	if len(mins) == 0 {
		return
	}
	fmt.Printf("\nThe smallest cache at which some strategy finished (bisection to within %g%% of the states; S and V as percentages of the states, as in the paper's Table 2):\n\n", *tol)
	fmt.Println("| model | states | order | S: smallest cache (states) | S (%) | best strategy there | V (%) | largest TD-tree (%) | time / exact BFS (user CPU) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, s := range mins {
		if s.best == nil {
			fmt.Printf("| %s | %d | %s | none finished | | | | | |\n", s.model, s.reach, s.order)
			continue
		}
		fmt.Printf("| %s | %d | %s | %d | %.1f | %s | %.0f | %.1f | %.2f |\n", s.model, s.reach, s.order, s.size, 100*float64(s.size)/float64(s.reach),
			s.strategy, 100*float64(s.best.StatesVisited)/float64(s.reach), 100*float64(s.best.MaxStack)/float64(s.reach), s.best.CPU.Seconds()/s.exactCPU)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
