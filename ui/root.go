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
