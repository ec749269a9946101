package ui

import (
	"fmt"
	"strings"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"

	"github.com/locus-mc/locus/wasm/protocol"
)

// TracePanel steps through a counterexample, one state at a time. The
// state itself is drawn by web/src/stateview.js from the trace the engine
// Worker sent (only the rows on screen exist), changed variables marked
// with their previous values; each step's rule is highlighted in the
// editor.
type TracePanel struct {
	App          *App
	ExportStatus string
}

func (c *TracePanel) violation() *protocol.Violation {
	if r := c.App.Run; r != nil && r.Result != nil {
		return r.Result.Violation
	}
	return nil
}

// Steps is the counterexample's steps (rules only), empty if there is none.
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

// Go shows step i (clamped to the trace) and highlights its rule.
func (c *TracePanel) Go(i int) {
	n := len(c.Steps())
	if n == 0 {
		return
	}
	c.App.Run.Step = max(0, min(i, n-1))
	stateviewShow("run", c.App.Run.Step)
	c.ShowRule()
}

// ShowRule highlights the rule of the step shown in the editor.
func (c *TracePanel) ShowRule() {
	if s := c.Steps(); len(s) > 0 {
		markPos(s[c.Step()].Pos, "rule")
	}
}

// Attach puts the state view into its host and shows the current step.
func (c *TracePanel) Attach(host js.Value) {
	stateviewAttach("run", host)
	if len(c.Steps()) > 0 {
		stateviewShow("run", c.Step())
	}
}

// Key steps with the arrow, Home and End keys (the state grid keeps its
// own arrow keys).
func (c *TracePanel) Key(event vugu.DOMEvent) {
	if t := event.PropString("target", "tagName"); t == "INPUT" || t == "SELECT" {
		return
	}
	switch event.PropString("key") {
	case "ArrowLeft":
		c.Go(c.Step() - 1)
	case "ArrowRight":
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

// Kind names the violation in plain words.
func (c *TracePanel) Kind() string {
	if v := c.violation(); v != nil {
		if v.Name != "" && v.Kind == "invariant" {
			return KindWords(v.Kind) + ": “" + v.Name + "”"
		}
		return KindWords(v.Kind)
	}
	return ""
}

// What says where the violation is and what the trace shows.
func (c *TracePanel) What() string {
	v := c.violation()
	if v == nil {
		return ""
	}
	s := sentence(v.Message)
	if v.Pos != "" {
		s += " (" + v.Pos + ")"
	}
	return s + ". The trace below leads from a start state to it; the rule of each step is highlighted in the editor."
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

// Query is the variable filter.
func (c *TracePanel) Query() string {
	if c.App.Run == nil {
		return ""
	}
	return c.App.Run.Query
}

// ToggleChanged shows or hides the unchanged variables.
func (c *TracePanel) ToggleChanged() {
	c.App.Run.Changed = !c.App.Run.Changed
	stateviewFilter("run", c.App.Run.Query, c.App.Run.Changed)
}

// Filter is the search box's handler.
func (c *TracePanel) Filter(event vugu.DOMEvent) {
	c.App.Run.Query = strings.TrimSpace(event.PropString("target", "value"))
	stateviewFilter("run", c.App.Run.Query, c.App.Run.Changed)
}

// HasExports reports whether the export files have arrived.
func (c *TracePanel) HasExports() bool { return c.App.Run != nil && c.App.Run.Exports }

func (c *TracePanel) exportName(ext string) string {
	return strings.TrimSuffix(c.App.Run.Filename, ".m") + "-trace." + ext
}

// Download saves the trace as text ("text") or JSON ("json").
func (c *TracePanel) Download(which string) {
	blob := exportBlob("run", which)
	if blob.IsNull() || blob.IsUndefined() {
		return
	}
	ext := "txt"
	if which == "json" {
		ext = "json"
	}
	downloadBlob(c.exportName(ext), blob)
}

// Copy puts the trace text on the clipboard.
func (c *TracePanel) Copy() {
	blob := exportBlob("run", "text")
	if blob.IsNull() || blob.IsUndefined() {
		return
	}
	c.ExportStatus = "Copying…"
	a := c.App
	go func() {
		ok := copyBlob(blob)
		a.post(func() bool {
			if ok {
				c.ExportStatus = "Copied."
			} else {
				c.ExportStatus = "The browser did not allow copying; use Download."
			}
			return true
		})
	}()
}
