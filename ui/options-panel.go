package ui

import (
	"fmt"
	"strconv"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/wasm/protocol"
	"github.com/vugu/vugu"
)

// OptionsPanel holds the check's options and the Run and Cancel buttons.
type OptionsPanel struct {
	App *App

	helpOpen map[string]bool // the options whose help the user opened
}

// Choice is one entry of an options menu.
type Choice struct{ Value, Label string }

func choices(values []string, labels map[string]string) []Choice {
	out := make([]Choice, len(values))
	for i, v := range values {
		out[i] = Choice{v, label(labels, v)}
	}
	return out
}

// Algorithms lists the engines the Worker reported (the engine registry);
// until it has loaded, only the one selected.
func (c *OptionsPanel) Algorithms() []Choice {
	var out []Choice
	for _, e := range c.App.Engines {
		out = append(out, Choice{e.Name, e.Title})
	}
	if len(out) == 0 {
		out = append(out, Choice{c.App.Algorithm, c.App.Algorithm})
	}
	return out
}

// AlgorithmHelp explains the selected engine.
func (c *OptionsPanel) AlgorithmHelp() string {
	if e := c.App.Engine(); e != nil {
		return e.Help
	}
	return ""
}

// Deadlocks and Symmetries list the menus' entries.
func (c *OptionsPanel) Deadlocks() []Choice  { return choices(job.Deadlocks, deadlockLabels) }
func (c *OptionsPanel) Symmetries() []Choice { return choices(job.Symmetries, symmetryLabels) }

// memoryChoicesMB are the budgets offered, in MiB.
var memoryChoicesMB = []int{32, 64, 128, 256, 512, 1024, 2048}

// Memories lists the memory budgets.
func (c *OptionsPanel) Memories() []Choice {
	list := memoryChoicesMB
	if !contains(list, c.App.MemoryMB) {
		// A share link may carry a budget not in the menu: offer it too.
		list = append(append([]int(nil), list...), c.App.MemoryMB)
	}
	out := make([]Choice, len(list))
	for i, mb := range list {
		out[i] = Choice{strconv.Itoa(mb), byteSize(int64(mb) * protocol.MiB)}
	}
	return out
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// MemoryValue is the selected budget as a menu value.
func (c *OptionsPanel) MemoryValue() string { return strconv.Itoa(c.App.MemoryMB) }

// RunLabel is the Run button's text.
func (c *OptionsPanel) RunLabel() string {
	if c.App.Running() || c.App.RunPending {
		return "Running…"
	}
	return "Run"
}

// Status is the short line beside the buttons.
func (c *OptionsPanel) Status() string {
	r := c.App.Run
	switch {
	case c.App.RunPending:
		return "Loading the engine…"
	case r == nil:
		return "Ready"
	case r.Status == "running" && r.Progress == nil:
		return "Starting the engine…"
	case r.Status == "running":
		return "Checking… " + count(r.Progress.States) + " states"
	case r.Status == "cancelled":
		return "Cancelled"
	case r.Status == "failed":
		return "Stopped with an error"
	default:
		return "Finished"
	}
}

// HashChoices are the hash compaction widths offered.
func (c *OptionsPanel) HashChoices() []Choice {
	return []Choice{{"0", "Off (store whole states)"}, {"32", "32-bit signatures"}, {"40", "40-bit signatures"}, {"48", "48-bit signatures"}, {"64", "64-bit signatures"}}
}

// HashValue is the selected width as a menu value.
func (c *OptionsPanel) HashValue() string { return strconv.Itoa(c.App.HashBits) }

// TakesHash, TakesLocality and TakesWorkers report whether the selected
// engine has the option.
func (c *OptionsPanel) TakesHash() bool     { e := c.App.Engine(); return e != nil && e.HashCompaction }
func (c *OptionsPanel) TakesLocality() bool { e := c.App.Engine(); return e != nil && e.Locality }
func (c *OptionsPanel) TakesWorkers() bool  { e := c.App.Engine(); return e != nil && e.Parallel }

// WorkerChoices are the numbers of Workers offered: automatic, then one up
// to the browser's cores (and the number chosen, if more).
func (c *OptionsPanel) WorkerChoices() []Choice {
	out := []Choice{{"0", fmt.Sprintf("Automatic (%s)", workersLabel(c.App.AutoWorkers()))}}
	top := max(min(c.App.cores, protocol.MaxWorkers), c.App.Workers)
	for n := 1; n <= top; n++ {
		out = append(out, Choice{strconv.Itoa(n), workersLabel(n)})
	}
	return out
}

func workersLabel(n int) string {
	if n == 1 {
		return "1 Worker"
	}
	return fmt.Sprintf("%d Workers", n)
}

// WorkersValue is the selected number of Workers as a menu value.
func (c *OptionsPanel) WorkersValue() string { return strconv.Itoa(c.App.Workers) }

// Help explains an option (see OptionHelp).
func (c *OptionsPanel) Help(option string) string { return OptionHelp[option] }

// HelpOpen says whether the user opened an option's help. The renderer
// removes every attribute a render did not set, so an opened details element
// must be rendered open, or the next render (a run's progress) closes it.
func (c *OptionsPanel) HelpOpen(option string) bool { return c.helpOpen[option] }

// ToggleHelp opens or closes an option's help on a click of its summary
// (Enter and Space click it too). The browser's own toggle is prevented:
// it lands a task later, and a render in between (a run's progress) would
// close what the user just opened; the render opens or closes it instead.
func (c *OptionsPanel) ToggleHelp(option string, event vugu.DOMEvent) {
	event.PreventDefault()
	if c.helpOpen == nil {
		c.helpOpen = map[string]bool{}
	}
	c.helpOpen[option] = !c.helpOpen[option]
}
