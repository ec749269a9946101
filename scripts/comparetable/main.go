// Command comparetable compares the engines that search in a bounded
// memory on models: each runs with fractions of the memory an exact BFS
// needed (its peak bytes), deadlock detection off; the table gives the
// verdict, what a pass guarantees, the states visited (insertions,
// revisits included) and the distinct states visited relative to the
// reachable states, and the user CPU time relative to exact BFS's.
// Engines not in this build are skipped.
//
//	go run ./scripts/comparetable -fractions 0.4,0.2 ../shared/models/cmurphi/mux/n_peterson.m
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/scripts/runkit"
)

func main() {
	fractions := flag.String("fractions", "0.4,0.2", "budgets as fractions of the exact run's peak bytes")
	engines := flag.String("engines", "cbfs,auto,ldbfs,dbfs,rbfs,rbfs/hc40,cache-bfs,cache-alt,cache-dfs,dfs-replace",
		"engines (NAME/hc40: with 40-bit hash compaction)")
	sym := flag.String("symmetry", "off", "symmetry reduction: exact or off")
	flag.Parse()
	known := map[string]bool{}
	for _, n := range explore.Algorithms() {
		known[n] = true
	}
	fmt.Println("| model | fraction | budget | engine | verdict | guarantee | visited / reachable | distinct / reachable | time / exact (user CPU) | note |")
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
		ref, err := runkit.Exec(m, ro, true)
		check(err)
		if ref.Verdict != explore.Pass {
			check(fmt.Errorf("%s: exact run %v %s", file, ref.Verdict, ref.Reason))
		}
		reach := ref.States
		fmt.Fprintf(os.Stderr, "%s: exact BFS %d states, peak %d bytes, %.2f s user CPU\n", file, reach, ref.PeakBytes, ref.CPU.Seconds())
		for _, f := range strings.Split(*fractions, ",") {
			frac, err := strconv.ParseFloat(f, 64)
			check(err)
			for _, e := range strings.Split(*engines, ",") {
				name, hc, _ := strings.Cut(e, "/")
				if !known[name] {
					continue
				}
				o := base
				o.Algorithm = name
				o.MemoryBytes = int64(frac * float64(ref.PeakBytes))
				o.Seed = 1
				if hc == "hc40" {
					o.HashBits = 40
				}
				if name == "dfs-replace" {
					o.Params = map[string]float64{"max-revisits": 20}
				}
				run, err := runkit.Exec(m, o, true)
				check(err)
				note := ""
				if run.Verdict != explore.Pass {
					note = run.Reason
					if len(note) > 140 {
						note = note[:140] + "…"
					}
				}
				fmt.Printf("| %s | %s | %d | %s | %s | %s | %.3f | %.3f | %.2f | %s |\n", file, f, o.MemoryBytes, e, run.Verdict, run.Guarantee,
					float64(run.StatesVisited)/float64(reach), float64(run.Fresh())/float64(reach), run.CPU.Seconds()/ref.CPU.Seconds(),
					strings.ReplaceAll(note, "|", "/"))
			}
		}
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
