//go:build js && wasm && !locuscodegen

package main

import "github.com/locus-mc/locus/core/wasmgen"

// codegenRuntime: the shipped engine leaves the code-generation experiment
// out (see codegen.go), so there is no runtime to give.
func codegenRuntime() wasmgen.Runtime { return nil }
