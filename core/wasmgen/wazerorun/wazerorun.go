//go:build !js

// Package wazerorun runs generated modules (core/wasmgen) natively through
// wazero, a WebAssembly runtime in pure Go whose compiler turns them into
// machine code.
package wazerorun

import (
	"context"
	"fmt"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/locus-mc/locus/core/wasmgen"
)

// Runtime is a wazero runtime for generated modules.
type Runtime struct {
	// Interpreter selects wazero's interpreter instead of its compiler.
	Interpreter bool
	// Cache, if set, keeps the modules compiled: the instances of one
	// module (the parts of a search on several workers) are compiled
	// once. It holds every module compiled through it.
	Cache wazero.CompilationCache
}

// Name implements wasmgen.Runtime.
func (r Runtime) Name() string {
	if r.Interpreter {
		return "wazero (interpreter)"
	}
	return "wazero"
}

// Concurrent implements wasmgen.ConcurrentRuntime: every instance has a
// wazero runtime of its own.
func (Runtime) Concurrent() bool { return true }

// Instantiate implements wasmgen.Runtime.
func (r Runtime) Instantiate(m *wasmgen.Module) (wasmgen.Instance, error) {
	ctx := context.Background()
	cfg := wazero.NewRuntimeConfigCompiler()
	if r.Interpreter {
		cfg = wazero.NewRuntimeConfigInterpreter()
	}
	if r.Cache != nil {
		cfg = cfg.WithCompilationCache(r.Cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	mod, err := rt.Instantiate(experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(allocate)), m.Code)
	if err != nil {
		rt.Close(ctx)
		return nil, err
	}
	return &instance{rt: rt, mod: mod, fns: map[string]api.Function{}}, nil
}

type instance struct {
	rt  wazero.Runtime
	mod api.Module
	fns map[string]api.Function
}

func (in *instance) Call(name string, args ...uint64) (uint64, error) {
	f := in.fns[name]
	if f == nil {
		if f = in.mod.ExportedFunction(name); f == nil {
			return 0, fmt.Errorf("wasmgen: no function %q", name)
		}
		in.fns[name] = f
	}
	res, err := f.Call(context.Background(), args...)
	if err != nil {
		return 0, err
	}
	if len(res) == 0 {
		return 0, nil
	}
	if f.Definition().ResultTypes()[0] == api.ValueTypeI32 {
		// Only the low 32 bits of an i32 result are defined.
		return uint64(uint32(res[0])), nil
	}
	return res[0], nil
}

func (in *instance) Read(addr uint32, b []byte) error {
	m, ok := in.mod.Memory().Read(addr, uint32(len(b)))
	if !ok {
		return fmt.Errorf("wasmgen: read of %d bytes at %d is out of memory", len(b), addr)
	}
	copy(b, m)
	return nil
}

func (in *instance) Write(addr uint32, b []byte) error {
	if !in.mod.Memory().Write(addr, b) {
		return fmt.Errorf("wasmgen: write of %d bytes at %d is out of memory", len(b), addr)
	}
	return nil
}

func (in *instance) Close() { in.rt.Close(context.Background()) }
