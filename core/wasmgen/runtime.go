package wasmgen

import (
	"context"
	"fmt"
)

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

// PartsRuntime is a Runtime whose own instances share one thread (the
// browser's Worker) but that can start instances elsewhere that do run at
// the same time (in helper Workers, one each): a search on several
// workers runs on Parts' instances.
type PartsRuntime interface {
	Runtime
	Parts() Runtime
}

// A Step is a call, with a write before it and a read after it, each
// optional.
type Step struct {
	// Write, if not empty, is written at WriteAt before the call.
	WriteAt uint32
	Write   []byte
	Name    string
	Args    []uint64
	// After the call, ReadBytes plus ReadUnit times the call's result
	// bytes at ReadAt are read into Bytes.
	ReadAt              uint32
	ReadBytes, ReadUnit int
	// Result is what the call returned; Bytes, what was read.
	Result uint64
	Bytes  []byte
}

// Stepper is an Instance that runs steps in one exchange: an instance in
// another Worker, where every call or read is a message each way.
type Stepper interface {
	// Steps runs steps in order and returns how many it ran without
	// failing, and why the next one failed.
	Steps(steps []Step) (int, error)
}

// RunSteps runs steps on in, in one exchange where in is a Stepper, and
// returns how many ran without failing, and why the next one failed.
func RunSteps(in Instance, steps []Step) (int, error) {
	if s, ok := in.(Stepper); ok {
		return s.Steps(steps)
	}
	for i := range steps {
		st := &steps[i]
		if len(st.Write) > 0 {
			if err := in.Write(st.WriteAt, st.Write); err != nil {
				return i, err
			}
		}
		r, err := in.Call(st.Name, st.Args...)
		if err != nil {
			return i, err
		}
		st.Result = r
		if st.ReadBytes > 0 || st.ReadUnit > 0 {
			n, err := st.readSize()
			if err != nil {
				return i, err
			}
			st.Bytes = make([]byte, n)
			if err := in.Read(st.ReadAt, st.Bytes); err != nil {
				return i, err
			}
		}
	}
	return len(steps), nil
}

// readSize is how many bytes the step reads after its call.
func (st *Step) readSize() (int, error) {
	n := int64(st.ReadBytes)
	if st.ReadUnit > 0 {
		n += int64(st.ReadUnit) * int64(min(st.Result, 1<<32))
	}
	if n > 1<<30 {
		return 0, fmt.Errorf("wasmgen: %s returned %d: no read of %d bytes", st.Name, st.Result, n)
	}
	return int(n), nil
}
