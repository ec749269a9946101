// Command memtable reproduces the experiment of Penna et al. §6.2 on a
// model: an exact BFS gives the reference (reachable states, rules fired,
// time, peak_bytes); then an engine runs with fractions of that peak as its
// budget, and a markdown table shows, per fraction, the verdict, visited /
// reachable states, rules fired relative to the exact run, time relative to
// it, and the collision rate.
//
//	go run ./scripts/memtable -algo cbfs -symmetry off ../shared/models/cmurphi/mux/mcslock1.m
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/storagefs"
)

func main() {
	algo := flag.String("algo", "cbfs", "engine to run under the budgets")
	sym := flag.String("symmetry", "off", "symmetry reduction")
	fractions := flag.String("fractions", "1.0,0.8,0.6,0.4,0.3,0.2", "budgets as fractions of the exact run's peak_bytes")
	hash := flag.Int("hash-compaction", 0, "signature bits for the engine under test")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: memtable [flags] MODEL.m")
		os.Exit(2)
	}
	file := flag.Arg(0)
	src, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	base := job.Options{Symmetry: *sym, Deadlock: "off", Trace: "none"}
	ref := verify.Check(context.Background(), file, src, verify.Options{Options: base})
	if ref.Verdict != verify.Pass || ref.States == nil {
		fmt.Fprintf(os.Stderr, "exact run: %s %s\n", ref.Verdict, ref.Reason)
		os.Exit(1)
	}
	fmt.Printf("%s, symmetry %s, deadlock off: exact BFS %d states, %d rules, %.2f s, peak %d bytes\n\n",
		file, *sym, *ref.States, ref.RulesFired, ref.Seconds, ref.PeakBytes)
	fmt.Printf("| fraction | budget | verdict | visited / reachable | rules / exact | time / exact | collision rate | peak / budget |\n|---|---|---|---|---|---|---|---|\n")
	for _, f := range strings.Split(*fractions, ",") {
		frac, err := strconv.ParseFloat(f, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		dir, err := os.MkdirTemp("", "memtable-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fsys, err := storagefs.NewOS(dir, storagefs.Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		o := base
		o.Algorithm = *algo
		o.HashCompaction = *hash
		o.MemoryBytes = int64(frac * float64(ref.PeakBytes))
		r := verify.Check(context.Background(), file, src, verify.Options{Options: o, FS: fsys})
		fsys.Close()
		os.RemoveAll(dir)
		verdict := r.Verdict
		if r.Guarantee == job.GuaranteeOmissionBound {
			verdict += fmt.Sprintf(" (omission ≤ %.1e)", r.OmissionBound)
		}
		fmt.Printf("| %.1f | %d | %s | %.3f | %.3f | %.2f | %.3f | %.2f |\n", frac, o.MemoryBytes, verdict,
			float64(r.StatesVisited)/float64(*ref.States), float64(r.RulesFired)/float64(ref.RulesFired),
			r.Seconds/ref.Seconds, r.CollisionRate, float64(r.PeakBytes)/float64(o.MemoryBytes))
	}
}
