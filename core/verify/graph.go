// This file enumerates the reachable state graph of a small model, for
// drawing. It is a separate breadth-first walk with a hard cap on states
// and edges, not an engine: it keeps every state and every edge in Go maps
// and slices, which is fine for the few thousand states a drawing can show.

package verify

import (
	"context"
	"fmt"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/symmetry"
)

// Graph is the reachable state graph of a model, or its first MaxStates
// states in breadth-first order when Truncated.
type Graph struct {
	Nodes     []GraphNode `json:"nodes"`
	Edges     []GraphEdge `json:"edges"`
	Rules     []string    `json:"rules"`  // rule instance names; GraphEdge.Rule indexes them
	Starts    []string    `json:"starts"` // start state names; GraphNode.Via of a start node indexes them
	Truncated bool        `json:"truncated,omitempty"`
	// Violation is the first violation in breadth-first order (without a
	// trace), and Path the nodes from a start state to where it happens:
	// the shortest counterexample, as exact BFS reports it.
	Violation *Violation `json:"violation,omitempty"`
	Path      []int      `json:"path,omitempty"`

	m     *compile.Model
	up    *compile.Unpacker
	state [][]byte // packed state of each node
}

// GraphNode is one (canonical) state.
type GraphNode struct {
	Depth  int    `json:"depth"`  // BFS level; start states are 0
	Parent int    `json:"parent"` // node it was first reached from; -1 for a start state
	Via    int    `json:"via"`    // rule instance (or start state) that first reached it
	Kind   string `json:"kind,omitempty"`
	// Kind is empty for an ordinary state, else the violation found there:
	// "invariant" (the state breaks one; the checker does not expand it),
	// "deadlock", or a run-time error kind raised by a rule fired from it.
}

// GraphEdge is one transition, From -> To by rule instance Rule.
type GraphEdge struct {
	From int `json:"from"`
	To   int `json:"to"`
	Rule int `json:"rule"`
}

// Graph limits a caller may not raise: drawing more is unreadable, and the
// walk keeps everything in memory.
const (
	MaxGraphStates = 5000
	MaxGraphEdges  = 50000
)

// BuildGraph walks the reachable states of the model breadth-first, as the
// checker does with opts (symmetry and deadlock; the other options do not
// apply), and stops after maxStates states (at most MaxGraphStates). It
// returns nil and the diagnostics if the model is rejected.
func BuildGraph(ctx context.Context, filename string, src []byte, opts Options, maxStates int) (*Graph, []Diagnostic) {
	if _, err := engineOptions(Options{Options: job.Options{Symmetry: opts.Symmetry, Deadlock: opts.Deadlock}}); err != nil {
		return nil, []Diagnostic{{File: filename, Severity: "error", Message: err.Error()}}
	}
	m, diags := Compile(filename, src)
	if m == nil {
		return nil, diags
	}
	if maxStates <= 0 || maxStates > MaxGraphStates {
		maxStates = MaxGraphStates
	}
	g := &Graph{m: m, up: m.NewUnpacker()}
	for _, r := range m.Rules {
		g.Rules = append(g.Rules, r.Name)
	}
	for _, s := range m.Starts {
		g.Starts = append(g.Starts, "startstate "+s.Name)
	}
	sym := orDefault(opts.Symmetry, "exact")
	mode := symmetry.Exact
	if sym == "heuristic" {
		mode = symmetry.Heuristic
	}
	w := &graphWalk{g: g, mc: m.NewMachine(), canon: symmetry.Normalizer(m, mode, sym != "off"),
		index: map[string]int{}, max: maxStates, buf: make([]byte, m.StateBytes)}
	w.walk(ctx, orDefault(opts.Deadlock, "stuttering"))
	return g, diags
}

type graphWalk struct {
	g     *Graph
	mc    *compile.Machine
	canon func([]int64)
	index map[string]int // packed canonical state -> node
	max   int
	buf   []byte
}

// add returns the node of the state in slots (normalised in place),
// adding it if it is new; -1 when the cap is reached.
func (w *graphWalk) add(slots []int64, parent, via, depth int) (node int, isNew bool) {
	if w.canon != nil {
		w.canon(slots)
	}
	w.g.m.Pack(slots, w.buf)
	if n, ok := w.index[string(w.buf)]; ok {
		return n, false
	}
	if len(w.g.Nodes) >= w.max {
		w.g.Truncated = true
		return -1, false
	}
	n := len(w.g.Nodes)
	key := string(w.buf)
	w.index[key] = n
	w.g.state = append(w.g.state, []byte(key))
	w.g.Nodes = append(w.g.Nodes, GraphNode{Depth: depth, Parent: parent, Via: via})
	return n, true
}

// check evaluates the assumptions and invariants of a new node's state;
// it reports whether the node may be expanded.
func (w *graphWalk) check(n int, slots []int64) bool {
	m := w.g.m
	for _, p := range m.Assumes {
		if ok, rerr := w.mc.Eval(p, slots); rerr != nil {
			w.violate(n, rerr.Kind, runtimeViolationOf(m, rerr))
			return false
		} else if !ok {
			return false
		}
	}
	for _, p := range m.Invariants {
		ok, rerr := w.mc.Eval(p, slots)
		if rerr != nil {
			w.violate(n, rerr.Kind, runtimeViolationOf(m, rerr))
			return false
		}
		if !ok {
			w.violate(n, "invariant", Violation{Kind: "invariant", Name: p.Name,
				Message: fmt.Sprintf("invariant %q failed", p.Name), Pos: m.Position(p.Pos).String()})
			return false
		}
	}
	return true
}

// violate marks node n and keeps the first violation with its path.
func (w *graphWalk) violate(n int, kind string, v Violation) {
	if w.g.Nodes[n].Kind == "" {
		w.g.Nodes[n].Kind = kind
	}
	if w.g.Violation == nil {
		w.g.Violation = &v
		w.g.Path = w.g.PathTo(n)
	}
}

func (w *graphWalk) walk(ctx context.Context, deadlock string) {
	g, m := w.g, w.g.m
	slots := make([]int64, m.NumSlots)
	var queue []int
	for i := range m.Starts {
		rerr, assumed := w.mc.RunStart(i)
		if assumed {
			continue
		}
		if rerr != nil {
			if g.Violation == nil {
				v := runtimeViolationOf(m, rerr)
				g.Violation = &v
			}
			continue
		}
		copy(slots, w.mc.State())
		n, isNew := w.add(slots, -1, i, 0)
		if isNew && w.check(n, slots) {
			queue = append(queue, n)
		}
	}
	cur := make([]int64, m.NumSlots)
	for len(queue) > 0 && len(g.Edges) < MaxGraphEdges {
		if ctx.Err() != nil {
			g.Truncated = true
			return
		}
		from := queue[0]
		queue = queue[1:]
		g.up.Unpack(g.state[from], cur)
		changed := false
		emit := func(r int, succ []int64) bool {
			for i, v := range succ {
				if v != cur[i] {
					changed = true
					break
				}
			}
			copy(slots, succ)
			to, isNew := w.add(slots, from, r, g.Nodes[from].Depth+1)
			if to < 0 {
				return true
			}
			g.Edges = append(g.Edges, GraphEdge{From: from, To: to, Rule: r})
			if isNew && w.check(to, slots) {
				queue = append(queue, to)
			}
			return len(g.Edges) < MaxGraphEdges
		}
		enabled := 0
		for r := 0; ; {
			n, rerr, errRule := w.mc.Expand(cur, r, emit)
			enabled += n
			if rerr == nil {
				break
			}
			changed = true
			w.violate(from, rerr.Kind, runtimeViolationOf(m, rerr))
			r = errRule + 1
		}
		if (deadlock == "stuck" && enabled == 0) || (deadlock == "stuttering" && !changed) {
			w.violate(from, "deadlock", Violation{Kind: "deadlock", Message: "deadlock: no rule leads to a different state"})
		}
	}
	if len(queue) > 0 {
		g.Truncated = true
	}
}

// PathTo returns the nodes from a start state to node n along the edges
// that first reached each.
func (g *Graph) PathTo(n int) []int {
	var path []int
	for ; n >= 0 && n < len(g.Nodes); n = g.Nodes[n].Parent {
		path = append(path, n)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// Names lists the state components, in the order of State's values.
func (g *Graph) Names() []string {
	out := make([]string, len(g.m.Leaves))
	for i := range g.m.Leaves {
		out[i] = g.m.Leaves[i].Name
	}
	return out
}

// State returns node n's (canonical) state, each component formatted.
func (g *Graph) State(n int) []string {
	slots := make([]int64, g.m.NumSlots)
	g.up.Unpack(g.state[n], slots)
	out := make([]string, len(g.m.Leaves))
	for i := range g.m.Leaves {
		out[i] = g.m.FormatLeaf(i, slots[i])
	}
	return out
}

// StepName names how node n was first reached: its start state, or the
// rule fired from its parent.
func (g *Graph) StepName(n int) string {
	nd := g.Nodes[n]
	if nd.Parent < 0 {
		return g.Starts[nd.Via]
	}
	return g.Rules[nd.Via]
}

func runtimeViolationOf(m *compile.Model, e *compile.RuntimeError) Violation {
	v := Violation{Kind: e.Kind, Name: e.Name, Message: e.Msg}
	if e.Pos.IsValid() {
		v.Pos = m.Position(e.Pos).String()
	}
	return v
}
