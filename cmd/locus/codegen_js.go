//go:build js

package main

import (
	"errors"

	"github.com/locus-mc/locus/core/wasmgen"
)

// codegenRuntime: none (the CLI does not run in a browser; the web app's
// engine uses the browser's own WebAssembly).
func codegenRuntime(string) (wasmgen.Runtime, error) {
	return nil, errors.New("--codegen: not in a browser")
}

func besideRuntime() wasmgen.Runtime { return nil }
