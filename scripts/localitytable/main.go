// Command localitytable measures transition locality (Penna et al.,
// "Exploiting transition locality in automatic verification of finite-state
// concurrent systems", Table 1) on every CMurphi model of the shared corpus:
// an exact BFS with deadlock detection off, as the paper ran it, under each
// symmetry setting asked for, printed as a markdown table.
//
//	go run ./scripts/localitytable -symmetry exact,off ../shared/models/cmurphi
package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
)

func main() {
	syms := flag.String("symmetry", "exact,off", "symmetry settings to run")
	limit := flag.Duration("timeout", 2*time.Minute, "give up on a model after this long")
	mem := flag.Int64("m", 2<<30, "memory budget per run (bytes)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: localitytable [flags] CMURPHI-DIR")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r := csv.NewReader(f)
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = '\t', true, -1
	recs, err := r.ReadAll()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("| model | symmetry | states | rules | E{Δ(-1)} | σ(-1) | E{Δ(0)} | σ(0) | E{Δ(1)} | σ(1) | SumAvg |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for _, rec := range recs[1:] {
		file := rec[0]
		src, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			continue
		}
		for _, sym := range strings.Split(*syms, ",") {
			ctx, cancel := context.WithTimeout(context.Background(), *limit)
			res := verify.Check(ctx, file, src, verify.Options{Options: job.Options{
				Symmetry: sym, Deadlock: "off", Locality: true, Trace: "none", MemoryBytes: *mem}})
			cancel()
			if res.Locality == nil {
				fmt.Printf("| %s | %s | %s: %s | | | | | | | | |\n", file, sym, res.Verdict, firstLine(res.Reason, res))
				continue
			}
			l := res.Locality
			fmt.Printf("| %s | %s | %d | %d |", file, sym, *res.States, res.RulesFired)
			for _, d := range l.Delta {
				fmt.Printf(" %.6g | %.6g |", d.Mean, d.StdDev)
			}
			fmt.Printf(" %.6g |\n", l.SumAvg)
		}
	}
}

func firstLine(reason string, res *verify.Result) string {
	if reason == "" && res.Violation != nil {
		reason = res.Violation.Kind
	}
	if reason == "" && len(res.Diagnostics) > 0 {
		reason = res.Diagnostics[0].Message
	}
	if i := strings.IndexAny(reason, "\n("); i > 0 {
		reason = reason[:i]
	}
	return strings.TrimSpace(reason)
}
