//go:build !js

// Command codegenbench measures the code-generation experiment natively:
// for each model, a one-worker bfs on the compiled closures and then in
// WebAssembly generated for the model (core/wasmgen) run by wazero's
// compiler (and, with -interpreter, its interpreter), back to back,
// -repeat times. It prints CPU and wall seconds, rules fired per CPU
// second, whether the counts agree, and which engine really ran (a model
// the generator does not cover runs on the closures, with a note).
//
//	go run ./scripts/codegenbench -repeat 3 ../shared/models/cmurphi/mux/mcslock1.m
//
// The browser side of the experiment is web/bench/measure.mjs --codegen.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/core/wasmgen"
	"github.com/locus-mc/locus/core/wasmgen/wazerorun"
)

func main() {
	sym := flag.String("symmetry", "off", "symmetry reduction (the generator covers off only)")
	repeat := flag.Int("repeat", 1, "runs of each configuration")
	interp := flag.Bool("interpreter", false, "also run wazero's interpreter")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: codegenbench [flags] MODEL.m...")
		os.Exit(2)
	}
	runtimes := []wasmgen.Runtime{nil, wazerorun.Runtime{}}
	if *interp {
		runtimes = append(runtimes, wazerorun.Runtime{Interpreter: true})
	}
	fmt.Println("| model | engine | verdict | states | rules | CPU s | wall s | rules/CPU s | same counts | note |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, file := range flag.Args() {
		src, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for k := 0; k < *repeat; k++ {
			var ref *verify.Result
			for _, rt := range runtimes {
				o := verify.Options{Options: job.Options{Algorithm: "bfs", Workers: 1, Symmetry: *sym, Trace: "none"}}
				name := "closures"
				if rt != nil {
					o.Generated = rt
					name = rt.Name()
				}
				cpu0, t0 := cpuSeconds(), time.Now()
				r := verify.Check(context.Background(), file, src, o)
				cpu, wall := cpuSeconds()-cpu0, time.Since(t0).Seconds()
				if ref == nil {
					ref = r
				}
				note := ""
				if rt != nil && r.CodeGen == "" {
					note = "ran on the closures"
					for _, d := range r.Diagnostics {
						note = d.Message
					}
				}
				fmt.Printf("| %s | %s | %s | %s | %d | %.2f | %.2f | %.0f | %v | %s |\n", file, name, r.Verdict, count(r.States),
					r.RulesFired, cpu, wall, float64(r.RulesFired)/cpu, same(ref, r), note)
			}
		}
	}
}

func count(p *int64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

func same(a, b *verify.Result) bool {
	return a.Verdict == b.Verdict && count(a.States) == count(b.States) && a.RulesFired == b.RulesFired && a.Depth == b.Depth
}

// cpuSeconds is the process's user and system time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
