//go:build js && wasm

// This file serves the interactive tools: simulation (the page sends the
// path of choices; the worker keeps the states along the last path, so one
// more step costs one rule firing) and the state graph.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"syscall/js"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/wasm/protocol"
	"github.com/locus-mc/locus/wasm/tracedata"
)

// tools is the interactive state of a Worker.
type tools struct {
	simKey    string
	sim       *verify.Simulation
	simDiags  []verify.Diagnostic
	states    []*verify.SimState
	path      []int
	names     []string
	simEnc    tracedata.Encoder
	rng       *rand.Rand
	graph     *verify.Graph
	graphEnc  tracedata.Encoder
	graphName []string
}

func toolKey(m protocol.Message) string {
	o := protocol.Options{}
	if m.Options != nil {
		o = *m.Options
	}
	return m.Filename + "\x00" + o.Symmetry + "\x00" + o.Deadlock + "\x00" + m.Source
}

func verifyOptions(o *protocol.Options) verify.Options {
	if o == nil {
		return verify.Options{}
	}
	return verify.Options{Options: job.Options{Symmetry: o.Symmetry, Deadlock: o.Deadlock}}
}

func (w *worker) simulate(m protocol.Message) {
	t := &w.tools
	if key := toolKey(m); key != t.simKey || t.sim == nil && t.simDiags == nil {
		t.simKey = key
		t.sim, t.simDiags = verify.NewSimulation(m.Filename, []byte(m.Source), verifyOptions(m.Options))
		t.states, t.path = nil, nil
		if t.sim != nil {
			t.names = t.sim.Names()
		}
	}
	view := &protocol.SimView{}
	if t.sim == nil {
		view.Diagnostics = t.simDiags
		w.post(protocol.Message{Type: protocol.TypeSim, ID: m.ID, Sim: view})
		return
	}
	if t.rng == nil {
		t.rng = rand.New(rand.NewPCG(uint64(m.ID), 0x10c05))
	}
	// Keep the states of the common prefix of the old and the new path.
	path := m.Path
	keep := 0
	for keep < len(path) && keep < len(t.path) && keep < len(t.states) && path[keep] == t.path[keep] {
		keep++
	}
	states := t.states[:keep]
	names := make([]tracedata.StepInfo, 0, len(path))
	var failure *verify.Violation
	step := func(choice int) bool {
		var st *verify.SimState
		var v *verify.Violation
		var info tracedata.StepInfo
		if len(states) == 0 {
			st, v = t.sim.Start(choice)
			for _, c := range t.sim.Starts() {
				if c.Index == choice {
					info = tracedata.StepInfo{Rule: c.Name, Pos: c.Pos}
				}
			}
		} else {
			prev := states[len(states)-1]
			k := -1
			for j, c := range prev.Choices {
				if c.Index == choice {
					k = j
					info = tracedata.StepInfo{Rule: c.Name, Pos: c.Pos}
				}
			}
			st, v = t.sim.Next(prev, k)
		}
		if v != nil {
			failure = v
			return false
		}
		states = append(states, st)
		names = append(names, info)
		return true
	}
	for _, c := range path[keep:] {
		if !step(c) {
			break
		}
	}
	if m.Random && failure == nil {
		var pick []int
		if len(states) == 0 {
			for _, c := range t.sim.Starts() {
				pick = append(pick, c.Index)
			}
		} else if last := states[len(states)-1]; !last.Discarded {
			for _, c := range last.Choices {
				pick = append(pick, c.Index)
			}
		}
		if len(pick) > 0 {
			c := pick[t.rng.IntN(len(pick))]
			path = append(append([]int(nil), path[:len(states)]...), c)
			step(c)
		}
	}
	t.states = states
	t.path = append([]int(nil), path[:len(states)]...)
	view.Path = t.path
	view.Steps = len(states)
	if failure != nil {
		view.Path = append(append([]int(nil), t.path...), path[len(states)])
		view.Failure = failure
	}
	if len(states) == 0 {
		for _, c := range t.sim.Starts() {
			view.Starts = append(view.Starts, protocol.SimChoice(c))
		}
	} else {
		last := states[len(states)-1]
		for _, c := range last.Choices {
			view.Choices = append(view.Choices, protocol.SimChoice(c))
		}
		for _, v := range last.Violations {
			view.Violations = append(view.Violations, v)
		}
		view.Discarded, view.Deadlock = last.Discarded, last.Deadlock
	}
	// Send the states the page does not have.
	have := m.Have
	if have > keep {
		have = keep
	}
	if len(states) > have {
		var p *tracedata.Payload
		stepOf := func(i int) tracedata.Step {
			// names covers the states from keep on; earlier ones were
			// named when they were first sent.
			info := tracedata.StepInfo{}
			if i >= keep {
				info = names[i-keep]
			}
			return tracedata.Step{Rule: info.Rule, Pos: info.Pos, Values: states[i].Values}
		}
		if have == 0 || t.simEnc.Steps() == 0 {
			p = t.simEnc.Encode(t.names, stepsOf(stepOf, 0, len(states)))
		} else {
			t.simEnc.Cut(have, states[have-1].Values)
			p = t.simEnc.Append(stepsOf(stepOf, have, len(states))...)
		}
		w.postTrace(m.ID, "sim", len(states), p, nil)
	}
	w.post(protocol.Message{Type: protocol.TypeSim, ID: m.ID, Sim: view})
}

func stepsOf(f func(int) tracedata.Step, from, to int) []tracedata.Step {
	out := make([]tracedata.Step, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, f(i))
	}
	return out
}

func (w *worker) buildGraph(m protocol.Message) {
	t := &w.tools
	g, diags := verify.BuildGraph(context.Background(), m.Filename, []byte(m.Source), verifyOptions(m.Options), m.MaxStates)
	t.graph = g
	sum := &protocol.GraphSummary{Diagnostics: diags}
	if g == nil {
		w.post(protocol.Message{Type: protocol.TypeGraph, ID: m.ID, Graph: sum})
		return
	}
	t.graphName = g.Names()
	sum.Nodes, sum.Edges, sum.Truncated, sum.Path = len(g.Nodes), len(g.Edges), g.Truncated, g.Path
	if g.Violation != nil {
		sum.Violation = g.Violation
	}
	var b bytes.Buffer
	json.NewEncoder(&b).Encode(g)
	w.postPayload(protocol.Message{Type: protocol.TypeGraph, ID: m.ID, Graph: sum},
		map[string]js.Value{"graph": js.ValueOf(b.String())}, nil)
}

// graphPath sends the states from a start state to node m.Node.
func (w *worker) graphPath(m protocol.Message) {
	g := w.tools.graph
	if g == nil || m.Node < 0 || m.Node >= len(g.Nodes) {
		w.post(protocol.Message{Type: protocol.TypeError, ID: m.ID, Message: "there is no such state in the graph"})
		return
	}
	path := g.PathTo(m.Node)
	step := func(i int) tracedata.Step {
		return tracedata.Step{Rule: g.StepName(path[i]), Values: g.State(path[i])}
	}
	p := w.tools.graphEnc.Encode(w.tools.graphName, stepsOf(step, 0, len(path)))
	w.postTrace(m.ID, "graph", len(path), p, nil)
}
