package ui

import (
	"fmt"

	"github.com/vugu/vugu"

	"github.com/locus-mc/locus/wasm/protocol"
)

// TracePanel steps through a counterexample, one state at a time, with the
// variables the step changed highlighted.
type TracePanel struct {
	App *App
}

// TraceVar is one row of the state table.
type TraceVar struct{ Name, Value, Class string }

func (c *TracePanel) violation() *protocol.Violation {
	if r := c.App.Run; r != nil && r.Result != nil {
		return r.Result.Violation
	}
	return nil
}

// Steps is the counterexample, empty if there is none.
func (c *TracePanel) Steps() []protocol.TraceStep {
	if v := c.violation(); v != nil {
		return v.Trace
	}
	return nil
}

// Step is the index of the step shown.
func (c *TracePanel) Step() int {
	n := len(c.Steps())
	if n == 0 {
		return 0
	}
	return max(0, min(c.App.Run.Step, n-1))
}

// Go shows step i (clamped to the trace).
func (c *TracePanel) Go(i int) {
	n := len(c.Steps())
	if n == 0 {
		return
	}
	c.App.Run.Step = max(0, min(i, n-1))
}

// Key steps with the arrow, Home and End keys.
func (c *TracePanel) Key(event vugu.DOMEvent) {
	switch event.PropString("key") {
	case "ArrowLeft", "ArrowUp":
		c.Go(c.Step() - 1)
	case "ArrowRight", "ArrowDown":
		c.Go(c.Step() + 1)
	case "Home":
		c.Go(0)
	case "End":
		c.Go(len(c.Steps()) - 1)
	default:
		return
	}
	event.PreventDefault()
}

// Kind names the violation.
func (c *TracePanel) Kind() string {
	if v := c.violation(); v != nil {
		if v.Name != "" {
			return v.Kind + " “" + v.Name + "”"
		}
		return v.Kind
	}
	return ""
}

// Where says which step is shown.
func (c *TracePanel) Where() string {
	n := len(c.Steps())
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("Step %d of %d", c.Step()+1, n)
}

// Rule is the rule that led to the step shown.
func (c *TracePanel) Rule() string {
	if s := c.Steps(); len(s) > 0 {
		return s[c.Step()].Rule
	}
	return ""
}

// OnlyChanged reports whether unchanged variables are hidden.
func (c *TracePanel) OnlyChanged() bool { return c.App.Run != nil && c.App.Run.Changed }

// ToggleChanged shows or hides the unchanged variables.
func (c *TracePanel) ToggleChanged() { c.App.Run.Changed = !c.App.Run.Changed }

// Vars is the state of the step shown.
func (c *TracePanel) Vars() []TraceVar {
	steps := c.Steps()
	if len(steps) == 0 {
		return nil
	}
	i := c.Step()
	step := steps[i]
	changed := make(map[int]bool, len(step.Changed))
	for _, j := range step.Changed {
		changed[j] = true
	}
	out := make([]TraceVar, 0, len(step.State))
	for j, v := range step.State {
		class := ""
		if i > 0 && changed[j] {
			class = "changed"
		} else if c.OnlyChanged() {
			continue
		}
		out = append(out, TraceVar{v.Name, v.Value, class})
	}
	return out
}
