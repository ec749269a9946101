// This file holds the page's state and what changes it: picking an
// example, running and cancelling checks, diagnostics as the user types,
// and share links.

package ui

import (
	"encoding/json"
	"fmt"
	"github.com/locus-mc/locus/core/job"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"

	"github.com/locus-mc/locus/wasm/protocol"
)

// renderEvery throttles renders caused by progress messages (4 a second is
// smooth enough; each render redraws the page's DOM).
const renderEvery = 250 * time.Millisecond

// Example is one shipped model, from examples/index.json.
type Example struct {
	File        string `json:"file"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Lesson      string `json:"lesson,omitempty"`  // the group it belongs to in the gallery
	Teaches     string `json:"teaches,omitempty"` // a sentence on what it teaches
}

// Run is one check: started, running, finished or cancelled.
type Run struct {
	ID       int64
	Filename string
	Options  protocol.Options
	Status   string // "running", "done", "cancelled", "failed"
	Started  time.Time
	Progress *protocol.Progress
	Result   *protocol.Result
	Error    string // set when the worker produced no result
	Storage  string // the browser storage the worker uses, from its ready message
	Samples  int    // progress messages received
	Step     int    // the counterexample step shown
	Changed  bool   // show only changed variables in the counterexample
	Query    string // filter the counterexample's variables by name
	Exports  bool   // the counterexample's text and JSON files have arrived
	Resumed  string // the stored run (its store's name) this run continues
	levels   levelEstimate
	sizes    []int64
	charts   chartFeed
}

// sentence capitalizes an error message (lowercase by Go convention) for display.
func sentence(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// Notice is a message to the user shown under the header.
type Notice struct {
	Kind string // "error", "warning" or "info"; "" hides it
	Text string
}

// App is the state of the page. Methods named in .vugu event handlers run
// with the render lock held (vugu holds it); everything that arrives from
// elsewhere (Worker messages, the editor, fetches) goes through post.
type App struct {
	ee vugu.EventEnv

	Examples []Example
	Example  string // the example file shown, "" once the text is not an example
	Filename string
	Files    Files  // the user's saved models
	Tab      string // the side panel shown: "check", "simulate", "graph" or "help"
	Sim      Sim
	Graph    GraphState

	// RunPending: Run was pressed before the engine list arrived.
	RunPending bool

	Algorithm string
	Symmetry  string
	Deadlock  string
	MemoryMB  int
	HashBits  int  // hash compaction signature bits, 0 = off
	Locality  bool // measure transition locality
	// Workers is the number of Web Workers a parallel engine's search may
	// use; 0 = automatic (AutoWorkers).
	Workers int
	// cores and isolated describe the browser (browserCores).
	cores    int
	isolated bool
	// Params are the values set for the selected engine's parameters
	// (the others take their defaults); Seed seeds a randomized engine.
	Params map[string]float64
	Seed   int64
	// Engines describes the engines the Worker runs, from its ready
	// message (the engine registry); empty until a Worker has loaded.
	Engines []protocol.EngineInfo
	// Storage is the browser storage and the checkpointed runs in it.
	Storage StorageState

	Run         *Run
	Diagnostics []protocol.Diagnostic
	Notice      Notice
	ShareURL    string // the link shown in the share box; "" hides it
	ShareCopied bool
	ShareBox    ShareBoxState // share_flow.go
	Lesson      *Lesson       // the lesson opened from a short link, listed above the editor
	LessonAt    int           // its model in the editor
	Draft       []LessonItem  // the lesson being made
	DraftTitle  string

	runWorker  *worker
	spare      *worker // a loaded engine Worker waiting for the next run
	toolWorker *worker // simulation and state graph, started on first use
	diagWorker *worker
	diagID     int64
	nextID     int64
	editorIdle js.Func
	onHash     js.Func
	onKey      js.Func

	mu         sync.Mutex
	inbox      []func() bool
	wake       chan struct{}
	renderDue  bool
	lastSource string // the source the latest diagnostics are for
}

// Start initializes the app; called from Root.Init with the lock held.
func (a *App) Start(ee vugu.EventEnv) {
	a.ee = ee
	a.Algorithm, a.Symmetry, a.Deadlock = protocol.DefaultAlgorithm, job.Symmetries[0], job.Deadlocks[0]
	a.MemoryMB = protocol.DefaultMemoryMB
	a.cores, a.isolated = browserCores()
	a.Filename = "untitled.m"
	a.Tab = "check"
	a.wake = make(chan struct{}, 1)
	go a.serve()
	go a.tick()

	a.editorIdle = js.FuncOf(func(this js.Value, args []js.Value) any {
		a.post(func() bool { a.diagnose(); return false })
		return nil
	})
	editorCreate("", a.editorIdle)
	a.diagWorker = newWorker(a.deliver)
	a.watchFiles()

	a.onHash = js.FuncOf(func(this js.Value, args []js.Value) any {
		a.post(func() bool { return a.openShareLink(locationHash()) || a.openShortLink() })
		return nil
	})
	js.Global().Call("addEventListener", "hashchange", a.onHash)

	// Ctrl+Enter (or Cmd+Enter) runs the model from anywhere on the page.
	a.onKey = js.FuncOf(func(this js.Value, args []js.Value) any {
		e := args[0]
		if e.Get("key").String() == "Enter" && (e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()) {
			e.Call("preventDefault")
			a.post(func() bool {
				if !a.Running() && !a.RunPending {
					a.StartRun()
				}
				return true
			})
		}
		return nil
	})
	js.Global().Get("document").Call("addEventListener", "keydown", a.onKey)

	shared := a.openShareLink(locationHash()) || a.openShortLink()
	go a.loadExamples(!shared)
}

// prepareSpare starts the engine Worker the next run will use, so that a
// click on Run finds the engine loaded.
func (a *App) prepareSpare() {
	if a.spare == nil {
		a.spare = newWorker(a.deliver)
	}
}

// post queues f to run with the render lock held; f reports whether the
// page must be rendered at once (otherwise the next tick renders it).
// It never blocks, so JavaScript callbacks may call it.
func (a *App) post(f func() bool) {
	a.mu.Lock()
	a.inbox = append(a.inbox, f)
	a.mu.Unlock()
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

func (a *App) serve() {
	for range a.wake {
		for {
			a.mu.Lock()
			if len(a.inbox) == 0 {
				a.mu.Unlock()
				break
			}
			f := a.inbox[0]
			a.inbox = a.inbox[1:]
			a.mu.Unlock()

			a.ee.Lock()
			if a.apply(f) {
				a.renderDue = false
				a.ee.UnlockRender()
			} else {
				a.renderDue = true
				a.ee.UnlockOnly()
			}
		}
	}
}

// apply runs f, turning a panic (such as an exception thrown by the
// JavaScript side) into a notice instead of a dead page.
func (a *App) apply(f func() bool) (render bool) {
	defer func() {
		if r := recover(); r != nil {
			a.Notice = Notice{"error", fmt.Sprintf("Something went wrong on the page: %v", r)}
			render = true
		}
	}()
	return f()
}

func (a *App) tick() {
	for range time.Tick(renderEvery) {
		a.ee.Lock()
		if a.renderDue {
			a.renderDue = false
			a.ee.UnlockRender()
		} else {
			a.ee.UnlockOnly()
		}
	}
}

// deliver is called by a Worker's onmessage callback.
func (a *App) deliver(from *worker, m protocol.Message) {
	a.post(func() bool { return a.receive(from, m) })
}

func (a *App) loadExamples(openFirst bool) {
	text, err := fetchText("examples/index.json")
	var list []Example
	if err == nil {
		err = json.Unmarshal([]byte(text), &list)
	}
	a.post(func() bool {
		if err != nil {
			a.Notice = Notice{"error", "The example models could not be loaded: " + err.Error()}
			return true
		}
		a.Examples = list
		if openFirst {
			go a.restore(list)
		} else {
			locus("util").Call("loaded")
		}
		return true
	})
}

// PickExample is the examples menu's change handler.
func (a *App) PickExample(event vugu.DOMEvent) {
	file := event.PropString("target", "value")
	if file == "" {
		return
	}
	go a.openExample(file)
}

func (a *App) openExample(file string) { a.loadExample(file, false) }

// loadExample opens an example; the one opened on a first visit (initial)
// gives way to anything the user opened meanwhile.
func (a *App) loadExample(file string, initial bool) {
	text, err := fetchText("examples/" + file)
	a.post(func() bool {
		if initial && (a.Example != "" || a.Files.Current != "" || editorText() != "") {
			locus("util").Call("loaded")
			return false
		}
		if err != nil {
			a.Notice = Notice{"error", fmt.Sprintf("The example %s could not be loaded: %v", file, err)}
			return true
		}
		a.setModel(file, text)
		a.Example = file
		a.Files.Current = ""
		filesSetCurrent("")
		setHash("")
		locus("util").Call("loaded")
		return true
	})
}

// setModel replaces the editor's text and forgets what belonged to the old one.
func (a *App) setModel(filename, text string) {
	a.cancelRun()
	a.Run = nil
	chartsReset()
	traceDrop("run")
	a.resetTools()
	a.Files.Current = ""
	a.Files.Saved = text // nothing to save until it is edited
	a.Files.Status = ""
	a.Filename = filename
	a.Example = ""
	a.ShareURL = ""
	a.Diagnostics = nil
	editorSetText(text)
	a.diagnose()
}

// openShareLink loads the model of a share link in fragment, if it is one,
// and reports whether it did.
func (a *App) openShareLink(fragment string) bool {
	s, ok, err := DecodeShare(fragment)
	if !ok {
		return false
	}
	if s.Source == "" && err != nil {
		a.Notice = Notice{"error", sentence(err.Error())}
		return false // the first example opens instead
	}
	if err != nil {
		a.applyShared(s, err.Error(), "a share link")
	} else {
		a.applyShared(s, "", "a share link")
	}
	return true
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// diagnose sends the editor's text to the diagnostics worker if it changed.
func (a *App) diagnose() {
	src := editorText()
	if src == a.lastSource {
		return
	}
	a.lastSource = src
	a.edited(src)
	a.nextID++
	a.diagID = a.nextID
	a.diagWorker.post(protocol.Message{Type: protocol.TypeDiagnose, ID: a.diagID, Filename: a.Filename, Source: src})
}

func (a *App) options() protocol.Options {
	o := protocol.Options{
		Algorithm:   a.Algorithm,
		Symmetry:    a.Symmetry,
		Deadlock:    a.Deadlock,
		MemoryBytes: int64(a.MemoryMB) * protocol.MiB,
	}
	// Options the selected engine does not take are not sent.
	if e := a.Engine(); e != nil {
		if e.HashCompaction {
			o.HashCompaction = a.HashBits
		}
		o.Locality = e.Locality && a.Locality
		for _, p := range e.Params {
			if v, ok := a.Params[p.Name]; ok {
				if o.Params == nil {
					o.Params = map[string]float64{}
				}
				o.Params[p.Name] = v
			}
		}
		if e.Randomized {
			o.Seed = a.Seed
		}
		// Runs of engines that can are checkpointed, to be resumed after
		// the tab closes (the Worker gives up where there is no storage).
		o.Checkpoint = e.Checkpoints
		if e.Parallel {
			o.Workers = a.WorkerCount()
		}
	}
	return o
}

// maxAutoWorkers bounds the automatic number of Workers: each helper of the
// closures is a Go instance of its own (tens of MiB before it holds a
// state), and code generated for the model, which the engine prefers,
// gains on more Workers only where its levels are large (each costs a few
// message round trips).
const maxAutoWorkers = 4

// AutoWorkers is the number of Workers "automatic" means here, where the
// page is cross-origin isolated (the Workers share memory): the cores but
// one, which the page's own thread needs to draw the progress, up to
// maxAutoWorkers. Measured through the app on 2 cores, two Workers there
// took n_peterson from 3.4-3.6 to 2.8-2.9 s but made models of 10,000-
// 25,000 states 0.2-0.8 s slower; the engine alone, with the page idle,
// ran n_peterson 1.6x as fast on two and sci within 10%. One where the page
// is not isolated, since every exchange of states between the Workers is
// then a posted message.
func (a *App) AutoWorkers() int {
	if !a.isolated || a.cores < 3 {
		return 1
	}
	return min(a.cores-1, maxAutoWorkers)
}

// WorkerCount is the number of Workers a run of a parallel engine asks for.
func (a *App) WorkerCount() int {
	if a.Workers > 0 {
		return a.Workers // SetOption keeps it within protocol.MaxWorkers
	}
	return a.AutoWorkers()
}

// Running reports whether a check is under way.
func (a *App) Running() bool { return a.Run != nil && a.Run.Status == "running" }

// StartRun is the Run button's handler: a fresh Worker per check, loaded
// ahead of time (see prepareSpare).
func (a *App) StartRun() {
	a.cancelRun()
	a.Tab = "check"
	a.diagnose() // saves the text too
	if len(a.Engines) == 0 {
		// Which options the engine takes (checkpoints, parameters, hash
		// compaction) comes with the first Worker's ready message: a run
		// sent before it would silently lose them, so it waits for it.
		a.RunPending = true
		return
	}
	a.startCheck(a.options(), editorText(), "")
}

// startPending starts the run asked for before the engines were known.
func (a *App) startPending() {
	if a.RunPending {
		a.RunPending = false
		a.startCheck(a.options(), editorText(), "")
	}
}

// startCheck runs the model src with opts, or resumes stored run store.
func (a *App) startCheck(opts protocol.Options, src, store string) {
	if err := protocol.ValidateOptions(&opts); err != nil {
		a.Notice = Notice{"error", "Cannot run: " + err.Error()}
		return
	}
	a.nextID++
	a.Run = &Run{ID: a.nextID, Filename: a.Filename, Options: opts, Status: "running", Started: time.Now(), Resumed: store}
	a.Notice = Notice{}
	chartsReset()
	chartsPush(&protocol.Progress{})
	traceDrop("run")
	editorMark(0, "")
	a.prepareSpare()
	a.runWorker, a.spare = a.spare, nil
	if err := a.runWorker.post(protocol.Message{Type: protocol.TypeCheck, ID: a.Run.ID, Filename: a.Filename, Source: src, Options: &opts, Store: store, Storage: a.storedKind(store)}); err != nil {
		a.finish("failed", "cannot start the check: "+err.Error())
	}
}

// CancelRun is the Cancel button's handler.
func (a *App) CancelRun() {
	if a.Running() {
		a.cancelRun()
		a.Run.Status = "cancelled"
	}
}

// cancelRun terminates the run's Worker, which really stops the engine
// and frees its memory, and prepares the next one.
func (a *App) cancelRun() {
	if a.runWorker != nil {
		a.runWorker.terminate()
		a.runWorker = nil
		a.prepareSpare()
	}
}

func (a *App) finish(status, errText string) {
	a.cancelRun()
	a.Run.Status = status
	a.Run.Error = errText
	if a.Run.Options.Checkpoint || a.Run.Resumed != "" {
		// The run's store is kept (cancelled, failed, stopped short) or
		// gone (finished): list the stored runs again once the Worker's
		// lock on it is released.
		go func() {
			time.Sleep(300 * time.Millisecond)
			a.post(func() bool { a.refreshStorage(); return false })
		}()
	}
}

// receive handles one message from a Worker.
func (a *App) receive(from *worker, m protocol.Message) bool {
	if a.Storage.worker != nil && from == a.Storage.worker {
		return a.receiveStorage(m)
	}
	if m.Type == protocol.TypeReady && len(m.Engines) > 0 && len(a.Engines) == 0 {
		a.adoptEngines(m.Engines)
		a.startPending()
		// Runs a closed tab left behind are offered to resume.
		a.refreshStorage()
		if from == a.diagWorker {
			return true
		}
	}
	if from == a.diagWorker {
		switch m.Type {
		case protocol.TypeReady:
			// The engine is loaded (and compiled, for every Worker): load
			// the one the first run will use.
			a.prepareSpare()
		case protocol.TypeDiagnostics:
			if m.ID == a.diagID {
				a.Diagnostics = m.Diagnostics
				editorSetDiagnostics(m.Diagnostics)
				return true
			}
		case protocol.TypeError:
			// The diagnostics worker died (or the engine failed to load):
			// start a new one so typing keeps being checked.
			a.diagWorker.terminate()
			a.diagWorker = newWorker(a.deliver)
			a.lastSource = ""
			a.Notice = Notice{"warning", "The diagnostics engine restarted after an error: " + m.Message}
			// A run waiting for the engine list goes ahead without it: its
			// own Worker reports what keeps the engine from loading.
			a.startPending()
			return true
		}
		return false
	}
	if from == a.spare {
		return a.receiveSpare(m)
	}
	if from == a.toolWorker {
		return a.receiveTool(m)
	}
	if from != a.runWorker || a.Run == nil || (m.ID != 0 && m.ID != a.Run.ID) {
		return false // from a Worker that was cancelled or replaced
	}
	r := a.Run
	switch m.Type {
	case protocol.TypeReady:
		r.Storage = m.Storage
	case protocol.TypeProgress:
		r.Progress = m.Progress
		r.Samples++
		chartsPush(m.Progress)
		chartsPoints(r.charts.observe(m.Progress, r.Options.MemoryBytes))
		if a.bfsLevels(r) {
			// (A depth-first run's "level" is its depth, which can reach
			// millions: no per-level chart for it.)
			r.sizes = r.levels.observe(m.Progress.Level, m.Progress.States)
			chartsSetLevels(r.sizes)
		}
		return false
	case protocol.TypeTrace:
		r.Exports = m.Trace.Exports
		return false
	case protocol.TypeResult:
		r.Result = m.Result
		r.Step = 0
		a.finish("done", "")
		if len(m.Result.LevelSizes) > 0 {
			r.sizes = m.Result.LevelSizes
			chartsSetLevels(r.sizes)
		}
		if res := m.Result; res.States != nil || res.RulesFired > 0 {
			// The last point of the chart is the result's, so that a run
			// shorter than one progress sample still draws a line.
			final := protocol.Progress{Seconds: res.Seconds}
			if res.States != nil {
				final.States = *res.States
			} else if r.Progress != nil {
				final.States = r.Progress.States
			}
			chartsPush(&final)
			points, cloud := r.charts.finish(res, r.Options.MemoryBytes)
			chartsPoints(points)
			if cloud != nil {
				chartsSetCloud(cloud)
			}
		}
		if len(m.Result.Diagnostics) > 0 {
			editorSetDiagnostics(m.Result.Diagnostics)
		}
		if v := m.Result.Violation; v != nil {
			if len(v.Trace) > 0 {
				stateviewShow("run", 0)
			}
			markPos(v.Pos, "violation")
		}
		return true
	case protocol.TypeError:
		if strings.Contains(m.Message, "out of memory") {
			// The Go heap hit the browser's ceiling before the engine's own
			// accounting stopped it: the run is incomplete, not broken.
			a.finish("done", "")
			r.Result = &protocol.Result{
				Verdict: protocol.Incomplete,
				Reason:  "the browser ran out of memory for the engine (" + m.Message + "); choose a smaller memory budget so the engine stops in time, or use symmetry reduction",
			}
			return true
		}
		a.finish("failed", m.Message)
		return true
	}
	return false
}

// DismissNotice hides the notice.
func (a *App) DismissNotice() { a.Notice = Notice{} }

// GoTo moves the editor's cursor to a diagnostic.
func (a *App) GoTo(d protocol.Diagnostic) { editorGoTo(d.Line, d.Col) }

// SetOption is the options menus' change handler.
func (a *App) SetOption(name string, event vugu.DOMEvent) {
	v := event.PropString("target", "value")
	switch name {
	case "algorithm":
		if a.Algorithm != v {
			a.Params = nil // parameters belong to an engine
		}
		a.Algorithm = v
	case "seed":
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			a.Seed = n
		}
	case "symmetry":
		a.Symmetry = v
	case "deadlock":
		a.Deadlock = v
	case "memory":
		var mb int
		if _, err := fmt.Sscan(v, &mb); err == nil {
			a.MemoryMB = mb
		}
	case "hash":
		var bits int
		if _, err := fmt.Sscan(v, &bits); err == nil {
			a.HashBits = bits
		}
	case "locality":
		a.Locality = event.PropBool("target", "checked")
	case "workers":
		if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= protocol.MaxWorkers {
			a.Workers = n
		}
	}
}

// SetParam sets a parameter of the selected engine from its input: a
// value outside the parameter's range is clamped, a non-number ignored.
func (a *App) SetParam(name string, event vugu.DOMEvent) {
	a.setParam(name, event.PropString("target", "value"))
}

func (a *App) setParam(name, text string) {
	v, err := strconv.ParseFloat(text, 64)
	e := a.Engine()
	if err != nil || e == nil {
		return
	}
	for _, p := range e.Params {
		if p.Name != name {
			continue
		}
		v = math.Min(math.Max(v, p.Min), p.Max)
		if p.Integer {
			v = math.Round(v)
		}
		if a.Params == nil {
			a.Params = map[string]float64{}
		}
		a.Params[name] = v
	}
}

// AttachEditor and AttachChart put the JavaScript widgets into the host
// elements vugu rendered for them (called on every render; cheap when
// already there).
func (a *App) AttachEditor(host js.Value)              { editorAttach(host) }
func (a *App) AttachChart(which string, host js.Value) { chartsAttach(which, host) }

// DiagnosticsSummary is the line above the editor's diagnostics list.
func (a *App) DiagnosticsSummary() string {
	errs, warns := 0, 0
	for _, d := range a.Diagnostics {
		if d.Severity == "warning" {
			warns++
		} else {
			errs++
		}
	}
	var parts []string
	if errs > 0 {
		parts = append(parts, plural(errs, "error"))
	}
	if warns > 0 {
		parts = append(parts, plural(warns, "warning"))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// EngineNamed returns the description of engine name, nil if unknown.
func (a *App) EngineNamed(name string) *protocol.EngineInfo {
	for i := range a.Engines {
		if a.Engines[i].Name == name {
			return &a.Engines[i]
		}
	}
	return nil
}

// Engine returns the description of the selected engine, nil if unknown.
func (a *App) Engine() *protocol.EngineInfo { return a.EngineNamed(a.Algorithm) }

// adoptEngines takes the engine registry a Worker reported, for the options
// menus; an algorithm it does not know (from an old share link) gives way to
// the default.
func (a *App) adoptEngines(engines []protocol.EngineInfo) {
	a.Engines = engines
	if a.Engine() == nil {
		a.Notice = Notice{"warning", fmt.Sprintf("This version of Locus has no %q search; %q is selected instead.", a.Algorithm, protocol.DefaultAlgorithm)}
		a.Algorithm = protocol.DefaultAlgorithm
	}
}
