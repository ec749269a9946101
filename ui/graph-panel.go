package ui

import (
	"fmt"

	"github.com/vugu/vugu/js"
)

// GraphPanel draws the reachable state graph of a small model.
type GraphPanel struct {
	App *App
}

// Attach puts the state view of the selected node into its host.
func (c *GraphPanel) Attach(host js.Value) { stateviewAttach("graph", host) }

// Summary counts the graph's states and transitions.
func (c *GraphPanel) Summary() string {
	s := c.App.Graph.Summary
	if s == nil || s.Nodes == 0 {
		return ""
	}
	out := fmt.Sprintf("%s states, %s transitions", count(int64(s.Nodes)), count(int64(s.Edges)))
	if s.Truncated {
		out += " — the first ones only: the model has more states than can be drawn"
	}
	return out
}

// DrawLabel is the draw button's text.
func (c *GraphPanel) DrawLabel() string {
	if c.App.Graph.Summary != nil {
		return "Draw again"
	}
	return "Draw the state graph"
}

// HasViolation reports whether the graph contains a violation.
func (c *GraphPanel) HasViolation() bool {
	s := c.App.Graph.Summary
	return s != nil && s.Violation != nil && len(s.Path) > 0
}

// StepText says which state of the path is shown.
func (c *GraphPanel) StepText() string {
	g := c.App.Graph
	return fmt.Sprintf("Step %d of %d to state %d", g.Step+1, len(g.Steps), g.Node)
}

// Rule is how the state shown was reached.
func (c *GraphPanel) Rule() string {
	g := c.App.Graph
	if g.Step >= 0 && g.Step < len(g.Steps) {
		return g.Steps[g.Step].Rule
	}
	return ""
}
