//go:build !js

package main

import (
	"github.com/locus-mc/locus/core/wasmgen"
	"github.com/locus-mc/locus/core/wasmgen/wazerorun"
)

// codegenRuntime runs code generated for a model (--codegen): wazero's
// compiler.
func codegenRuntime() wasmgen.Runtime { return wazerorun.Runtime{} }
