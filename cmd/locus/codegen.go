//go:build !js

package main

import (
	"fmt"

	"github.com/tetratelabs/wazero"

	"github.com/locus-mc/locus/core/wasmgen"
	"github.com/locus-mc/locus/core/wasmgen/nativerun"
	"github.com/locus-mc/locus/core/wasmgen/wazerorun"
)

// codegenRuntime is the runtime that runs code generated for a model
// (--codegen=KIND): "go" translates it to Go and builds it with the go
// command, "wazero" compiles the WebAssembly in process, and "auto"
// (a bare --codegen) is go where the go command is found, else wazero
// (which compiles a module once for all the workers' instances).
func codegenRuntime(kind string) (wasmgen.Runtime, error) {
	switch kind {
	case "auto":
		if nativerun.Available() == "" {
			return nativerun.Runtime{}, nil
		}
		return wazerorun.Runtime{Cache: wazero.NewCompilationCache()}, nil
	case "go":
		if why := nativerun.Available(); why != "" {
			return nil, fmt.Errorf("--codegen=go: %s", why)
		}
		return nativerun.Runtime{}, nil
	case "wazero":
		return wazerorun.Runtime{Cache: wazero.NewCompilationCache()}, nil
	}
	return nil, fmt.Errorf("--codegen=%s: want beside, go, wazero, auto or off", kind)
}

// besideRuntime makes a model's code beside the closures by default
// (--codegen=beside): go where the go command is, else none (wazero's
// compile is not worth a race: it gains 1.8x at best).
func besideRuntime() wasmgen.Runtime {
	if nativerun.Available() != "" {
		return nil
	}
	return nativerun.Runtime{}
}
