//go:build js && wasm

// Command worker is the Locus engine compiled to WebAssembly, run in a
// dedicated Web Worker started by public/worker.js.
//
// It reads wasm/protocol messages from the page, runs verify.Diagnose or
// verify.Check, and posts the answers back, one postMessage per message
// (progress is sampled by the engine about ten times a second, never sent
// per state). The page gives every check a fresh Worker and cancels it by
// terminating the Worker, so this program never has to stop a check itself
// except to keep the heap inside the user's memory budget.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/wasm/protocol"
	"github.com/locus-mc/locus/wasm/tracedata"
)

// progressEveryMS is how often the engine samples its progress.
const progressEveryMS = 100

func main() {
	w := &worker{wake: make(chan struct{}, 1), part: &partServer{in: make(chan []byte, 8)}}
	onMessage := js.FuncOf(func(this js.Value, args []js.Value) any {
		// Callbacks from JavaScript must not block: queue and return.
		w.receive(args[0].Get("data"))
		return nil
	})
	global := js.Global()
	global.Set("onmessage", onMessage)
	// public/worker.js buffers what arrives while the engine loads.
	if pending := global.Get("locusPending"); pending.Type() == js.TypeObject {
		for i := 0; i < pending.Length(); i++ {
			w.receive(pending.Index(i))
		}
		global.Set("locusPending", js.Undefined())
	}
	w.post(protocol.Message{Type: protocol.TypeReady, Storage: storageKind(), Engines: verify.Engines()})
	// Remove what cancelled runs left in browser storage. A run opens
	// storage only when it spills, so most runs never clean up; a Worker
	// waiting for the next run does it, a moment after it starts (the
	// cancelled Worker's lock is gone by then).
	go func() {
		time.Sleep(3 * time.Second)
		await(js.Global().Call("locusCleanStores", storePrefix))
	}()
	w.serve()
}

// worker handles the messages of one Web Worker, one at a time, in order.
type worker struct {
	mu    sync.Mutex
	queue []string
	wake  chan struct{}
	part  *partServer // a helper's channel to its coordinator
	tools tools
}

// receive takes one posted message: a protocol string; a part message's
// envelope (the string, and shared memory to talk through); or, in a
// helper, the coordinator's bytes.
func (w *worker) receive(data js.Value) {
	switch {
	case data.Type() == js.TypeString:
		w.enqueue(data.String())
	case data.InstanceOf(js.Global().Get("ArrayBuffer")):
		select {
		case w.part.in <- bytesOf(data):
		default: // the coordinator sends one request at a time
		}
	case data.Type() == js.TypeObject && data.Get("setup").Type() == js.TypeString:
		if to := data.Get("to"); to.Truthy() {
			w.part.to, w.part.from = sabChanOf(to), sabChanOf(data.Get("from"))
		}
		w.enqueue(data.Get("setup").String())
	}
}

func (w *worker) enqueue(data string) {
	w.mu.Lock()
	w.queue = append(w.queue, data)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *worker) next() (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.queue) == 0 {
		return "", false
	}
	data := w.queue[0]
	w.queue = w.queue[1:]
	return data, true
}

func (w *worker) serve() {
	for range w.wake {
		for {
			data, ok := w.next()
			if !ok {
				break
			}
			w.handle(data)
		}
	}
}

func (w *worker) handle(data string) {
	m, err := protocol.Decode(data)
	if err != nil {
		w.post(protocol.Message{Type: protocol.TypeError, Message: err.Error()})
		return
	}
	switch m.Type {
	case protocol.TypeDiagnose:
		w.diagnose(m)
	case protocol.TypeCheck:
		w.check(m)
	case protocol.TypePart:
		w.servePart(m)
	case protocol.TypeSimulate:
		w.safeTool(m, w.simulate)
	case protocol.TypeGraph:
		w.safeTool(m, w.buildGraph)
	case protocol.TypeGraphPath:
		w.safeTool(m, w.graphPath)
	case protocol.TypeRuns:
		w.safeTool(m, w.listRuns)
	case protocol.TypeDeleteRun:
		w.safeTool(m, w.deleteRun)
	default:
		w.post(protocol.Message{Type: protocol.TypeError, ID: m.ID, Message: fmt.Sprintf("a worker does not accept %q messages", m.Type)})
	}
}

// safeTool runs a tool request, turning an engine panic into an error
// message for that request.
func (w *worker) safeTool(m protocol.Message, f func(protocol.Message)) {
	if err := safely(func() { f(m) }); err != nil {
		w.tools = tools{} // its state may be half-updated
		w.post(protocol.Message{Type: protocol.TypeError, ID: m.ID, Message: err.Error()})
	}
}

func (w *worker) post(m protocol.Message) {
	s, err := protocol.Encode(m)
	if err != nil {
		s, _ = protocol.Encode(protocol.Message{Type: protocol.TypeError, ID: m.ID, Message: "cannot encode " + m.Type + ": " + err.Error()})
	}
	js.Global().Call("postMessage", s)
}

func (w *worker) diagnose(m protocol.Message) {
	var diags []verify.Diagnostic
	if err := safely(func() { diags = verify.Diagnose(m.Filename, []byte(m.Source)) }); err != nil {
		w.post(protocol.Message{Type: protocol.TypeError, ID: m.ID, Message: err.Error()})
		return
	}
	w.post(protocol.Message{Type: protocol.TypeDiagnostics, ID: m.ID, Diagnostics: diags})
}

// errHeapExceeded ends a run whose heap outgrew the budget's hard limit.
var errHeapExceeded = errors.New("heap over the memory budget")

func (w *worker) check(m protocol.Message) {
	o := m.Options
	filename, src := m.Filename, m.Source
	store := newLazyStore(m.ID)
	defer store.Close()
	// A run of a checkpointing engine keeps its files in a store of its
	// own, to be resumed after a closed tab (checkpoint.go).
	var ck *ckptStore
	var ckNote string
	resume := m.Store != ""
	if resume {
		c, run, saved, err := openCheckpointStore(m.Store, m.Storage)
		if err != nil {
			w.post(protocol.Message{Type: protocol.TypeError, ID: m.ID, Message: "cannot resume the run: " + err.Error()})
			return
		}
		ck, filename, src = c, run.Filename, string(saved)
		mem := o.MemoryBytes
		o = &run.Options
		if mem > 0 {
			o.MemoryBytes = mem // a resumed run may change its budget
		}
		// Checkpoints are written from a one-worker phase (auto's disk
		// phase), which is where a resumed run goes on.
		o.Workers = 1
	} else if o.Checkpoint {
		c, err := newCheckpointStore(m)
		if err != nil {
			ckNote = "this run is not checkpointed (it cannot be resumed after the tab closes): " + err.Error()
			o.Checkpoint = false
		}
		ck = c
	}
	opts := verify.Options{Options: *o, Resume: resume}
	opts.ProgressEvery = progressEveryMS
	opts.FS = store
	if ck != nil {
		opts.FS = ck.fs
		opts.CheckpointIfAble = true
	}
	// The engine accounts its own tables against MemoryBytes; the heap
	// limit makes the collector hold everything else near the budget too,
	// and the hard limit below turns a heap that still outgrows it into an
	// incomplete verdict instead of a fatal out-of-memory in the tab.
	debug.SetMemoryLimit(protocol.HeapLimit(o.MemoryBytes))
	var hard atomic.Int64
	hard.Store(protocol.HardHeapLimit(o.MemoryBytes))
	var peakHeap uint64
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	opts.Progress = func(p verify.Progress) {
		h := heapBytes()
		if h > peakHeap {
			peakHeap = h
		}
		if int64(h) > hard.Load() {
			cancel(errHeapExceeded)
		}
		w.post(protocol.Message{Type: protocol.TypeProgress, ID: m.ID, Progress: &p})
	}
	// The engine runs the search in code generated for the model, on one
	// Worker, where that covers it (on a few Workers too: it is the
	// faster), else on the closures over o.Workers Workers.
	opts.Generated = codegenRuntime()
	if rt, ok := opts.Generated.(browserRuntime); ok && o.Workers > 1 {
		rt.parts.prestart(o.Workers)
	}
	if o.Workers > 1 {
		// The helpers start with the check, so that they compile the
		// model while this Worker does (sci: 0.4-0.6 s in each).
		parts, err := startParts(m)
		if err != nil {
			w.post(protocol.Message{Type: protocol.TypeError, ID: m.ID, Message: "cannot start the parallel search's Workers: " + err.Error()})
			return
		}
		defer parts.close()
		opts.Parts = parts
		// While they run, the helpers hold their shares of the budget;
		// this Worker holds its own and the trail.
		limit := func(budget int64) {
			debug.SetMemoryLimit(protocol.HeapLimit(budget))
			hard.Store(protocol.HardHeapLimit(budget))
		}
		limit(o.MemoryBytes / int64(o.Workers))
		parts.onRelease = func() { limit(o.MemoryBytes) }
	}
	var res *verify.Result
	if err := safely(func() {
		if testCrash != nil {
			testCrash(src)
		}
		res = verify.Check(ctx, filename, []byte(src), opts)
	}); err != nil {
		w.post(protocol.Message{Type: protocol.TypeError, ID: m.ID, Message: err.Error()})
		return
	}
	if res == nil {
		w.post(protocol.Message{Type: protocol.TypeError, ID: m.ID, Message: "the engine returned no result"})
		return
	}
	if errors.Is(context.Cause(ctx), errHeapExceeded) && (res.Verdict == verify.Incomplete || res.Verdict == verify.Error) {
		res.Verdict = verify.Incomplete
		res.Reason = fmt.Sprintf("the browser heap reached %s, past the %s memory budget and its margin; try a larger budget, symmetry reduction, or a smaller model",
			budget.FormatBytes(int64(peakHeap)), budget.FormatBytes(o.MemoryBytes))
	}
	if ck != nil {
		ck.end(res)
	}
	if ckNote != "" {
		res.Diagnostics = append(res.Diagnostics, verify.Diagnostic{File: filename, Severity: "warning", Message: ckNote})
	}
	if store.err != nil && res.Verdict == verify.Incomplete {
		res.Reason += " (browser storage for the queue was not available: " + store.err.Error() + ")"
	}
	if v := res.Violation; v != nil && len(v.Trace) > 0 {
		w.postRunTrace(m.ID, *v)
	}
	stripStates(res)
	w.post(protocol.Message{Type: protocol.TypeResult, ID: m.ID, Result: res})
}

// servePart serves part m.Part of a parallel check for the coordinator
// that started this Worker, until it closes the part.
func (w *worker) servePart(m protocol.Message) {
	o := m.Options
	debug.SetMemoryLimit(protocol.HeapLimit(o.MemoryBytes / int64(o.Workers)))
	var err error
	if perr := safely(func() {
		err = verify.ServePart(context.Background(), m.Filename, []byte(m.Source), verify.Options{Options: *o}, m.Part, o.Workers, w.part.recv, w.part.send)
	}); perr != nil {
		err = perr
	}
	if err != nil {
		w.post(protocol.Message{Type: protocol.TypeError, ID: m.ID, Message: fmt.Sprintf("part %d: %v", m.Part, err)})
	}
}

// safely runs f and turns a panic into an error, so that an engine bug
// becomes a message on the page rather than a dead Worker.
func safely(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			// The stack goes to the console, for the bug report.
			fmt.Fprintf(os.Stderr, "panic: %v\n%s", r, debug.Stack())
			err = fmt.Errorf("internal error in the engine: %v. This is a bug in Locus; please report it, with the model and the options", r)
		}
	}()
	f()
	return nil
}

var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

// heapBytes returns the bytes held by heap objects (live or not yet swept).
func heapBytes() uint64 {
	metrics.Read(heapSample)
	if heapSample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return heapSample[0].Value.Uint64()
}

// postRunTrace sends the first violation's counterexample as a trace
// payload, with its exports: the text in CMurphi's format (as `locus check
// --trace-format cmurphi` prints it) and the violation as JSON (as `locus
// check --json` prints it).
func (w *worker) postRunTrace(id int64, v verify.Violation) {
	var names []string
	for _, vv := range v.Trace[0].State {
		names = append(names, vv.Name)
	}
	steps := make([]tracedata.Step, len(v.Trace))
	for i, st := range v.Trace {
		values := make([]string, len(st.State))
		for j, vv := range st.State {
			values[j] = vv.Value
		}
		steps[i] = tracedata.Step{Rule: st.Rule, Pos: st.Pos, Values: values}
	}
	var enc tracedata.Encoder
	p := enc.Encode(names, steps)
	var text bytes.Buffer
	verify.WriteTraceCMurphi(&text, v, false)
	asJSON, _ := json.MarshalIndent(v, "", "  ")
	w.postTrace(id, "run", len(steps), p, map[string][]byte{"text": text.Bytes(), "json": append(asJSON, '\n')})
}

// stripStates drops the states from the result's traces: they went to the
// page as a trace payload, and as JSON they would be large to encode here
// and slow to decode on the page's main thread.
func stripStates(res *verify.Result) {
	strip := func(v *verify.Violation) {
		steps := make([]verify.TraceStep, len(v.Trace))
		for i, st := range v.Trace {
			steps[i] = verify.TraceStep{Rule: st.Rule, Pos: st.Pos}
		}
		v.Trace = steps
	}
	if res.Violation != nil {
		strip(res.Violation)
	}
	for i := range res.Violations {
		strip(&res.Violations[i])
	}
}
