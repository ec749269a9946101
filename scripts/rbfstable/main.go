// Command rbfstable reproduces the experiment of Tronci et al., "A
// probabilistic approach to automatic verification of concurrent systems"
// (Figs. 5 and 6), on a model: an exact BFS with 40-bit hash compaction
// (the paper ran Murphi with -b -c) gives M, the memory of a complete
// deterministic run, and the reachable states R; then rbfs runs with
// memory Mem*M for Mem = 1.0 .. 0.1, several seeds each, deadlock
// detection off (-ndl) as in the paper.
//
// For each Mem it prints, over the seeds: how many runs the observer
// accepted (pass), the measured omission rate Pom (runs that missed a
// reachable state / runs), type-1 errors (accepted runs that missed one),
// and at the end of each run the means of PomIs (the observer's estimate),
// coverage (distinct states visited / R, counted exactly beside the
// engine), state overhead (states visited / distinct states visited) and
// time overhead (user CPU time / the exact run's). A second table gives
// the paper's columns: the same means at the end of visit 1, 2, ... (Samples
// counts the samples taken over the run: a sample certainly visited leaves
// the observer's table of k, so it can exceed k).
//
//	go run ./scripts/rbfstable -seeds 10 ../shared/models/cmurphi/sci/sci.m
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
	seeds := flag.Int("seeds", 10, "runs per memory fraction (seeds 1..n)")
	mems := flag.String("mem", "1.0,0.9,0.8,0.7,0.6,0.5,0.4,0.3,0.2,0.1", "memory fractions of the exact run's peak bytes")
	g := flag.Float64("g", 0.8, "queue share of the memory (the paper's g)")
	k := flag.Int("k", 0, "samples (0: a hundredth of the reachable states, as the paper's first column)")
	sym := flag.String("symmetry", "exact", "symmetry reduction: exact or off")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: rbfstable [flags] MODEL.m")
		os.Exit(2)
	}
	file := flag.Arg(0)
	m, err := runkit.Compile(file)
	check(err)
	base := explore.Options{Deadlock: explore.DeadlockOff, Trace: explore.TraceNone, HashBits: 40}
	if *sym == "off" {
		base.Symmetry = explore.SymmetryOff
	}
	refOpts := base
	refOpts.Algorithm = "bfs"
	ref, err := runkit.Exec(m, refOpts, true)
	check(err)
	if ref.Verdict != explore.Pass {
		check(fmt.Errorf("exact run: %v %s", ref.Verdict, ref.Reason))
	}
	reach := ref.States
	samples := *k
	if samples == 0 {
		samples = max(int(reach/100), 1)
	}
	fmt.Printf("%s, symmetry %s, deadlock off, 40-bit hash compaction: exact BFS %d states, %d rules, M = %d bytes (peak), %.3f s user CPU; rbfs g = %g, k = %d, MAXPOM 0.01, %d seeds\n\n",
		file, *sym, reach, ref.RulesFired, ref.PeakBytes, ref.CPU.Seconds(), *g, samples, *seeds)
	type visitSums struct {
		n                       int
		pom, cov, ovh, cl, samp float64
	}
	type row struct {
		mem                                 float64
		accepted, missed, type1, incomplete int
		visits, pom, cov, ovh, cpu          float64
		perVisit                            []visitSums
	}
	var rows []row
	for _, f := range strings.Split(*mems, ",") {
		frac, err := strconv.ParseFloat(f, 64)
		check(err)
		r := row{mem: frac}
		for seed := 1; seed <= *seeds; seed++ {
			o := base
			o.Algorithm = "rbfs"
			o.MemoryBytes = int64(frac * float64(ref.PeakBytes))
			o.Seed = int64(seed)
			o.Params = map[string]float64{"g": *g, "k": float64(samples)}
			run, err := runkit.Exec(m, o, true)
			check(err)
			fresh := run.Fresh()
			missed := fresh < reach
			switch run.Verdict {
			case explore.Pass:
				r.accepted++
				if missed {
					r.type1++
				}
			case explore.Incomplete:
				r.incomplete++
			default:
				check(fmt.Errorf("mem %g seed %d: %v %s", frac, seed, run.Verdict, run.Reason))
			}
			if missed {
				r.missed++
			}
			r.visits += float64(len(run.Visits))
			r.cpu += run.CPU.Seconds() / ref.CPU.Seconds()
			if fresh > 0 {
				r.cov += float64(fresh) / float64(reach)
				r.ovh += float64(run.StatesVisited) / float64(fresh)
			}
			for i, v := range run.Visits {
				if len(r.perVisit) <= i {
					r.perVisit = append(r.perVisit, visitSums{})
				}
				d := run.DistinctAt(v.Visited)
				p := &r.perVisit[i]
				p.n++
				p.pom += v.PomIs
				p.cl += v.CollisionRate
				p.samp += float64(v.Samples)
				if d > 0 {
					p.cov += float64(d) / float64(reach)
					p.ovh += float64(v.Visited) / float64(d)
				}
				if i == len(run.Visits)-1 {
					r.pom += v.PomIs
				}
			}
		}
		rows = append(rows, r)
		fmt.Fprintf(os.Stderr, "mem %.1f done\n", frac)
	}
	n := float64(*seeds)
	fmt.Println("| Mem | budget (bytes) | accepted | Pom (missed a state) | type-1 errors | incomplete | visits | PomIs | coverage | state overhead | time overhead (user CPU) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Printf("| %.1f | %d | %d/%d | %.2f | %d | %d | %.1f | %.3f | %.3f | %.3f | %.2f |\n", r.mem, int64(r.mem*float64(ref.PeakBytes)),
			r.accepted, *seeds, float64(r.missed)/n, r.type1, r.incomplete, r.visits/n, r.pom/n, r.cov/n, r.ovh/n, r.cpu/n)
	}
	fmt.Println("\nBy visit (means over the runs that reached it; the paper's columns): PomIs / coverage / state overhead / collision rate / samples")
	maxV := 0
	for _, r := range rows {
		maxV = max(maxV, len(r.perVisit))
	}
	fmt.Print("| Mem |")
	for i := 1; i <= maxV; i++ {
		fmt.Printf(" visit %d |", i)
	}
	fmt.Print("\n|---|")
	for i := 1; i <= maxV; i++ {
		fmt.Print("---|")
	}
	fmt.Println()
	for _, r := range rows {
		fmt.Printf("| %.1f |", r.mem)
		for i := 0; i < maxV; i++ {
			if i >= len(r.perVisit) {
				fmt.Print(" |")
				continue
			}
			p := r.perVisit[i]
			k := float64(p.n)
			fmt.Printf(" %.3f / %.3f / %.2f / %.3f / %.0f (%d runs) |", p.pom/k, p.cov/k, p.ovh/k, p.cl/k, p.samp/k, p.n)
		}
		fmt.Println()
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
