// Command locus is the native command line of the Locus Murphi model checker.
//
//	locus check [flags] MODEL.m
//
// Exit status: 0 pass, 1 fail, 2 rejected (or a bad command line), 3 error,
// 4 incomplete.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/locus-mc/locus/core/verify"
)

func main() {
	args := os.Args[1:]
	if os.Getenv(childEnv) != "" {
		code := run(args, os.Stdout, os.Stderr)
		reportStatus(code)
		os.Exit(code)
	}
	if len(args) > 0 && (args[0] == "check" || args[0] == "resume") {
		// A check runs in a child process, so that even a fatal runtime
		// error becomes an error verdict, never a crash that looks like a
		// rejection (Go exits 2 on fatal errors).
		if code, ok := supervise(args, os.Stdout, os.Stderr); ok {
			os.Exit(code)
		}
	}
	os.Exit(run(args, os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitRejected
	}
	switch args[0] {
	case "check":
		return runCheck(args[1:], stdout, stderr)
	case "resume":
		return runResume(args[1:], stdout, stderr)
	case "engines":
		printEngines(stdout)
		return 0
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return 0
	case "version", "--version":
		fmt.Fprintln(stdout, "locus "+version)
		return 0
	}
	fmt.Fprintf(stderr, "locus: unknown command %q\n\n%s", args[0], usage)
	return exitRejected
}

const version = "0.1.0"

const usage = `Locus: a Murphi model checker.

Usage:
  locus check [flags] MODEL.m     verify a model
  locus resume [flags] DIR        continue a run started with 'locus check --checkpoint DIR'
  locus engines                   describe the search algorithms and their parameters
  locus help                      show this help

Run 'locus check -h' for the flags.
`

// printEngines describes every registered engine.
func printEngines(w io.Writer) {
	for i, e := range verify.Engines() {
		if i > 0 {
			fmt.Fprintln(w)
		}
		def := ""
		if i == 0 {
			def = " (default)"
		}
		fmt.Fprintf(w, "%s%s: %s\n", e.Name, def, e.Title)
		fmt.Fprintf(w, "  %s\n", e.Help)
		var caps []string
		if e.Exact {
			caps = append(caps, "exact")
		}
		if e.ShortestTraces {
			caps = append(caps, "shortest counterexamples")
		}
		if e.UsesStorage {
			caps = append(caps, "uses disk")
		}
		if e.HashCompaction {
			caps = append(caps, "--hash-compaction")
		}
		if e.Locality {
			caps = append(caps, "--locality")
		}
		if e.Randomized {
			caps = append(caps, "randomized (--seed)")
		}
		if e.ProgressMeasure {
			caps = append(caps, "uses the model's progress measure (--@progress EXPR)")
		}
		if e.Checkpoints {
			caps = append(caps, "--checkpoint")
		}
		if e.Parallel {
			caps = append(caps, "--workers")
		}
		if len(caps) > 0 {
			fmt.Fprintf(w, "  %s\n", strings.Join(caps, ", "))
		}
		for _, p := range e.Params {
			if len(p.Choices) > 0 {
				fmt.Fprintf(w, "  --param %s=%s  %s (default %s)\n", p.Name, strings.Join(p.Choices, "|"), p.Title, p.Choices[int(p.Default)])
				continue
			}
			fmt.Fprintf(w, "  --param %s=N  %s (default %g, %g..%g)\n", p.Name, p.Title, p.Default, p.Min, p.Max)
		}
	}
}
