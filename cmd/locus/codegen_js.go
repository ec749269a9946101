//go:build js

package main

import "github.com/locus-mc/locus/core/wasmgen"

// codegenRuntime: none (the CLI does not run in a browser; the web app's
// engine uses the browser's own WebAssembly).
func codegenRuntime() wasmgen.Runtime { return nil }
