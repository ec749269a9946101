package ui

import (
	"fmt"

	"github.com/vugu/vugu"

	"github.com/locus-mc/locus/wasm/protocol"
)

// Root is the page: header, editor and the side column of panels.
type Root struct {
	App *App
}

// Init starts the app when vugu first builds the page.
func (c *Root) Init(ctx vugu.InitCtx) {
	c.App = &App{}
	c.App.Start(ctx.EventEnv())
}

// DiagText summarizes the diagnostics for the editor's header.
func (c *Root) DiagText() string {
	if s := c.App.DiagnosticsSummary(); s != "" {
		return s
	}
	return "no errors"
}

// DiagClass colors the summary.
func (c *Root) DiagClass() string {
	if len(c.App.Diagnostics) == 0 {
		return "diag-summary ok"
	}
	return "diag-summary bad"
}

// DiagPos prints a diagnostic's position.
func (c *Root) DiagPos(d protocol.Diagnostic) string {
	return fmt.Sprintf("%d:%d", d.Line, d.Col)
}

// Tabs lists the side panel's tabs.
func (c *Root) Tabs() []Choice {
	return []Choice{{"check", "Check"}, {"simulate", "Simulate"}, {"graph", "State graph"}, {"help", "Help"}}
}

// TabIndex keeps only the selected tab in the Tab order (arrow keys move
// between tabs).
func (c *Root) TabIndex(tab string) string {
	if c.App.Tab == tab {
		return "0"
	}
	return "-1"
}

// LessonGroup is a group of examples in the examples menu.
type LessonGroup struct {
	Name     string
	Examples []Example
}

// Lessons groups the examples by lesson, in the order of the index.
func (c *Root) Lessons() []LessonGroup {
	return lessons(c.App.Examples)
}

func lessons(examples []Example) []LessonGroup {
	var out []LessonGroup
	at := map[string]int{}
	for _, ex := range examples {
		name := ex.Lesson
		if name == "" {
			name = "Examples"
		}
		i, ok := at[name]
		if !ok {
			i = len(out)
			at[name] = i
			out = append(out, LessonGroup{Name: name})
		}
		out[i].Examples = append(out[i].Examples, ex)
	}
	return out
}

// ariaBool spells a boolean as ARIA states want it ("true" or "false"); a
// bare Go bool would render as a present or absent attribute.
func ariaBool(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
