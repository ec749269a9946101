package wasmgen

import "context"

// Instance is an instantiated generated module.
type Instance interface {
	// Call calls an exported function and returns its result (0 if it has
	// none); an error means the call trapped, or the host failed.
	Call(name string, args ...uint64) (uint64, error)
	// Read copies len(b) bytes of linear memory at addr into b.
	Read(addr uint32, b []byte) error
	// Write copies b into linear memory at addr.
	Write(addr uint32, b []byte) error
	// Close releases the instance.
	Close()
}

// Runtime instantiates generated modules: the browser's WebAssembly
// (wasm/worker) or wazero natively (wazerorun).
type Runtime interface {
	Instantiate(m *Module) (Instance, error)
	// Name says which runtime it is, for notes.
	Name() string
}

// Signature is an exported function's: whether each parameter is an i64
// (else an i32), how many results it has and whether the first is an i64.
// A host that passes JavaScript values needs it (an i64 is a BigInt).
type Signature struct {
	Params   []bool
	Results  int
	Result64 bool
}

// ContextRuntime is a Runtime whose instantiation can be cancelled (one
// that builds a program, which takes seconds).
type ContextRuntime interface {
	Runtime
	InstantiateContext(ctx context.Context, m *Module) (Instance, error)
}

// ConcurrentRuntime is a Runtime whose instances can run at the same
// time, each on a core of its own (native processes, or code in this
// process called from several goroutines), unlike the browser's, which
// share the Worker's one thread. A search runs on several instances only
// where they do.
type ConcurrentRuntime interface {
	Runtime
	Concurrent() bool
}

// SharedInstance is an Instance that can share part of its memory with
// the host: Share makes the size bytes at addr (multiples of 4096) a
// slice the host reads and writes in place between calls, instead of
// through Read and Write.
type SharedInstance interface {
	Share(addr, size uint32) ([]byte, error)
}
