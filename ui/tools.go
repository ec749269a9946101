// This file drives the interactive tools, which run in their own engine
// Worker (started on first use): simulation, where the user picks the next
// rule (or lets the page pick at random) and every state is checked, and
// the state graph of a small model.

package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"

	"github.com/locus-mc/locus/wasm/protocol"
)

// Sim is the state of the simulation.
type Sim struct {
	View    *protocol.SimView
	Path    []int      // the choices that led to the states held
	Steps   []StepInfo // those states' rules
	Step    int        // the state shown
	Auto    bool       // picking rules at random, one per tick
	Speed   int        // random steps per second
	Busy    bool       // a request is under way
	Query   string
	Changed bool
	reqID   int64
	tick    int64 // generation of the random-run timer
}

// GraphState is the state of the graph view.
type GraphState struct {
	Summary  *protocol.GraphSummary
	Status   string
	Busy     bool
	Node     int // the selected state, -1 for none
	Steps    []StepInfo
	Step     int
	reqID    int64
	onSelect js.Func
}

// Graph limits: drawings past this many states are unreadable and slow to
// lay out.
const graphMaxStates = 1500

// simSpeeds are the random run's speeds, in steps per second.
var simSpeeds = []int{1, 2, 5, 10, 50}

func (a *App) tool() *worker {
	if a.toolWorker == nil {
		a.toolWorker = newWorker(a.deliver)
	}
	return a.toolWorker
}

// resetTools forgets the simulation and the graph of the previous model.
func (a *App) resetTools() {
	speed := a.Sim.Speed
	a.Sim = Sim{Speed: speed}
	sel := a.Graph.onSelect
	a.Graph = GraphState{Node: -1, onSelect: sel}
	traceDrop("sim")
	traceDrop("graph")
}

// ShowTab switches the side panel.
func (a *App) ShowTab(tab string) {
	a.Tab = tab
	if tab == "simulate" && a.Sim.View == nil && !a.Sim.Busy {
		a.simulate(nil, false)
	}
	if tab != "simulate" {
		a.Sim.Auto = false
	}
}

// TabKey moves between tabs with the arrow keys (the ARIA tabs pattern).
func (a *App) TabKey(event vugu.DOMEvent) {
	tabs := []string{"check", "simulate", "graph", "help"}
	i := 0
	for j, t := range tabs {
		if t == a.Tab {
			i = j
		}
	}
	switch event.PropString("key") {
	case "ArrowRight":
		i = (i + 1) % len(tabs)
	case "ArrowLeft":
		i = (i + len(tabs) - 1) % len(tabs)
	case "Home":
		i = 0
	case "End":
		i = len(tabs) - 1
	default:
		return
	}
	event.PreventDefault()
	a.ShowTab(tabs[i])
	js.Global().Get("document").Call("getElementById", "tab-"+tabs[i]).Call("focus")
}

func (a *App) toolRequest(m protocol.Message) int64 {
	a.nextID++
	m.ID = a.nextID
	m.Filename = a.Filename
	m.Source = editorText()
	opts := a.options()
	m.Options = &opts
	if err := a.tool().post(m); err != nil {
		a.Notice = Notice{"error", "Cannot start the tool: " + err.Error()}
	}
	return m.ID
}

// simulate asks for the states along path (plus a random step).
func (a *App) simulate(path []int, random bool) {
	a.Sim.Busy = true
	have := len(a.Sim.Path)
	for i := 0; i < have && i < len(path); i++ {
		if path[i] != a.Sim.Path[i] {
			have = i
			break
		}
	}
	if have > len(path) {
		have = len(path)
	}
	a.Sim.reqID = a.toolRequest(protocol.Message{Type: protocol.TypeSimulate, Path: append([]int{}, path...), Random: random, Have: have})
}

// SimStart begins the simulation from start state i.
func (a *App) SimStart(i int) { a.Sim.Auto = false; a.simulate([]int{i}, false) }

// SimPick fires an enabled rule instance from the state shown.
func (a *App) SimPick(rule int) {
	a.Sim.Auto = false
	path := append(append([]int{}, a.Sim.Path[:a.Sim.Step+1]...), rule)
	a.simulate(path, false)
}

// SimBack goes back one state.
func (a *App) SimBack() {
	a.Sim.Auto = false
	if len(a.Sim.Path) <= 1 {
		a.SimRestart()
		return
	}
	a.simulate(a.Sim.Path[:len(a.Sim.Path)-1], false)
}

// SimRestart goes back to the choice of a start state.
func (a *App) SimRestart() {
	a.Sim.Auto = false
	traceDrop("sim")
	a.Sim.Path, a.Sim.Steps, a.Sim.Step = nil, nil, 0
	a.simulate(nil, false)
}

// SimGo shows state i of the path (the rules after it stay until a
// different rule is picked).
func (a *App) SimGo(i int) {
	if i < 0 || i >= len(a.Sim.Steps) {
		return
	}
	a.Sim.Step = i
	stateviewShow("sim", i)
	markPos(a.Sim.Steps[i].Pos, "rule")
}

// SimToggleAuto starts or stops the random run.
func (a *App) SimToggleAuto() {
	a.Sim.Auto = !a.Sim.Auto
	if !a.Sim.Auto {
		return
	}
	a.Sim.tick++
	gen := a.Sim.tick
	go func() {
		for {
			// An int read outside the lock: Go on js/wasm runs one
			// goroutine at a time.
			time.Sleep(time.Second / time.Duration(max(1, a.Sim.Speed)))
			stop := false
			a.post(func() bool {
				if !a.Sim.Auto || a.Sim.tick != gen || a.Tab != "simulate" {
					stop = true
					return false
				}
				if !a.Sim.Busy {
					a.simulate(a.Sim.Path[:a.Sim.Step+1], true)
				}
				return false
			})
			time.Sleep(5 * time.Millisecond)
			if stop {
				return
			}
		}
	}()
}

// SimSetSpeed is the speed menu's change handler.
func (a *App) SimSetSpeed(event vugu.DOMEvent) {
	if n, err := strconv.Atoi(event.PropString("target", "value")); err == nil {
		a.Sim.Speed = n
	}
}

// SimFilter is the simulation's variable search box handler.
func (a *App) SimFilter(event vugu.DOMEvent) {
	a.Sim.Query = event.PropString("target", "value")
	stateviewFilter("sim", a.Sim.Query, a.Sim.Changed)
}

// SimToggleChanged shows only the changed variables, or all.
func (a *App) SimToggleChanged() {
	a.Sim.Changed = !a.Sim.Changed
	stateviewFilter("sim", a.Sim.Query, a.Sim.Changed)
}

// BuildGraph asks for the state graph of the model in the editor.
func (a *App) BuildGraph() {
	a.Graph.Busy = true
	a.Graph.Status = "Exploring the states…"
	a.Graph.Summary = nil
	a.Graph.Node = -1
	a.Graph.Steps = nil
	traceDrop("graph")
	a.Graph.reqID = a.toolRequest(protocol.Message{Type: protocol.TypeGraph, MaxStates: graphMaxStates})
}

// CancelTool stops a long graph or simulation request by ending the
// tools' Worker.
func (a *App) CancelTool() {
	if a.toolWorker != nil {
		a.toolWorker.terminate()
		a.toolWorker = nil
	}
	a.Graph.Busy = false
	a.Sim.Busy = false
	a.Sim.Auto = false
	if a.Graph.Status != "" && a.Graph.Summary == nil {
		a.Graph.Status = "Stopped."
	}
}

// AttachGraph puts the graph drawing into its host element.
func (a *App) AttachGraph(host js.Value) {
	if !a.Graph.onSelect.Truthy() {
		a.Graph.onSelect = js.FuncOf(func(this js.Value, args []js.Value) any {
			n := args[0].Int()
			a.post(func() bool { a.selectNode(n); return true })
			return nil
		})
	}
	graphAttach(host, a.Graph.onSelect)
}

// selectNode shows the path to state n of the graph and its state.
func (a *App) selectNode(n int) {
	if a.Graph.Summary == nil || n < 0 || n >= a.Graph.Summary.Nodes {
		return
	}
	a.Graph.Node = n
	graphShow(n)
	a.toolRequest(protocol.Message{Type: protocol.TypeGraphPath, Node: n})
}

// GraphGoTo is the "show state number" box's handler.
func (a *App) GraphGoTo(event vugu.DOMEvent) {
	if n, err := strconv.Atoi(strings.TrimSpace(event.PropString("target", "value"))); err == nil {
		a.selectNode(n)
	}
}

// GraphShowViolation highlights the counterexample in the graph.
func (a *App) GraphShowViolation() {
	if s := a.Graph.Summary; s != nil && len(s.Path) > 0 {
		a.selectNode(s.Path[len(s.Path)-1])
	}
}

// GraphStep shows step i of the path to the selected state.
func (a *App) GraphStep(i int) {
	if i < 0 || i >= len(a.Graph.Steps) {
		return
	}
	a.Graph.Step = i
	stateviewShow("graph", i)
}

// receiveSpare handles a message from the Worker waiting for the next run.
func (a *App) receiveSpare(m protocol.Message) bool {
	if m.Type == protocol.TypeError {
		// It failed while loading: the next run starts a fresh one.
		a.spare.terminate()
		a.spare = nil
	}
	return false
}

// receiveTool handles a message from the tools' Worker.
func (a *App) receiveTool(m protocol.Message) bool {
	switch m.Type {
	case protocol.TypeSim:
		if m.ID != a.Sim.reqID {
			return false
		}
		a.Sim.Busy = false
		v := m.Sim
		a.Sim.View = v
		a.Sim.Path = append([]int{}, v.Path[:v.Steps]...)
		a.Sim.Steps = traceSteps("sim")
		if len(a.Sim.Steps) > len(a.Sim.Path) {
			traceCut("sim", len(a.Sim.Path))
			a.Sim.Steps = a.Sim.Steps[:len(a.Sim.Path)]
		}
		a.Sim.Step = len(a.Sim.Steps) - 1
		if a.Sim.Step >= 0 {
			stateviewShow("sim", a.Sim.Step)
			markPos(a.Sim.Steps[a.Sim.Step].Pos, "rule")
		}
		if v.Failure != nil || len(v.Violations) > 0 || v.Deadlock || v.Discarded || (v.Steps > 0 && len(v.Choices) == 0) || len(v.Diagnostics) > 0 {
			a.Sim.Auto = false
			if v.Failure != nil {
				markPos(v.Failure.Pos, "violation")
			} else if len(v.Violations) > 0 {
				markPos(v.Violations[0].Pos, "violation")
			}
		}
		return true
	case protocol.TypeGraph:
		if m.ID != a.Graph.reqID {
			return false
		}
		a.Graph.Summary = m.Graph
		if len(m.Graph.Diagnostics) > 0 && m.Graph.Nodes == 0 {
			a.Graph.Busy = false
			a.Graph.Status = "The model has errors; fix them first."
			return true
		}
		a.Graph.Status = fmt.Sprintf("Drawing %s states…", count(int64(m.Graph.Nodes)))
		id := m.ID
		go func() {
			problem := graphDraw(id)
			a.post(func() bool {
				if id != a.Graph.reqID {
					return false
				}
				a.Graph.Busy = false
				if problem != "" {
					a.Graph.Status = "The graph could not be drawn: " + problem
				} else {
					a.Graph.Status = ""
					if s := a.Graph.Summary; s != nil && len(s.Path) > 0 {
						a.GraphShowViolation()
					}
				}
				return true
			})
		}()
		return true
	case protocol.TypeTrace:
		switch m.Trace.Key {
		case "graph":
			a.Graph.Steps = traceSteps("graph")
			a.Graph.Step = len(a.Graph.Steps) - 1
			stateviewShow("graph", a.Graph.Step)
			return true
		}
		return false
	case protocol.TypeError:
		a.Sim.Busy, a.Sim.Auto, a.Graph.Busy = false, false, false
		if m.ID == 0 {
			// The Worker itself failed (out of memory, say): start afresh.
			a.toolWorker.terminate()
			a.toolWorker = nil
		}
		if m.ID == a.Graph.reqID && a.Tab == "graph" {
			a.Graph.Status = "The graph could not be made: " + m.Message
		} else {
			a.Notice = Notice{"error", sentence(m.Message)}
		}
		return true
	}
	return false
}

// markPos highlights in the editor the line of a "file:line:col" position.
func markPos(pos, kind string) {
	if pos == "" {
		editorMark(0, kind)
		return
	}
	parts := strings.Split(pos, ":")
	if len(parts) < 3 {
		return
	}
	if line, err := strconv.Atoi(parts[len(parts)-2]); err == nil {
		editorMark(line, kind)
	}
}
