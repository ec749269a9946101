package ui

import (
	"fmt"
	"strconv"

	"github.com/vugu/vugu/js"

	"github.com/locus-mc/locus/wasm/protocol"
)

// SimPanel is the simulation: the choices, the path so far and its states.
type SimPanel struct {
	App *App
}

// Attach puts the simulation's state view into its host.
func (c *SimPanel) Attach(host js.Value) {
	stateviewAttach("sim", host)
	if len(c.App.Sim.Steps) > 0 {
		stateviewShow("sim", c.App.Sim.Step)
	}
}

// atEnd reports whether the last state of the path is shown (choices are
// the last state's).
func (c *SimPanel) atEnd() bool { return c.App.Sim.Step == len(c.App.Sim.Steps)-1 }

// Choices lists the start states, or the enabled rules of the last state.
func (c *SimPanel) Choices() []protocol.SimChoice {
	v := c.App.Sim.View
	if v == nil || len(v.Diagnostics) > 0 {
		return nil
	}
	if len(c.App.Sim.Path) == 0 {
		return v.Starts
	}
	if !c.atEnd() {
		return nil
	}
	return v.Choices
}

// ChoicesTitle heads the list of choices.
func (c *SimPanel) ChoicesTitle() string {
	v := c.App.Sim.View
	switch {
	case v == nil:
		return "Loading the model…"
	case len(v.Diagnostics) > 0:
		return "The model has errors; fix them to simulate it."
	case len(c.App.Sim.Path) == 0:
		return "Choose a start state"
	case !c.atEnd():
		return "Go to the last state to choose the next rule"
	case len(v.Choices) == 0:
		return "No rule is enabled in this state"
	}
	return fmt.Sprintf("Choose the next rule (%d enabled)", len(v.Choices))
}

// ChoiceLabel describes a choice.
func (c *SimPanel) ChoiceLabel(ch protocol.SimChoice) string {
	switch {
	case ch.Error != "":
		return ch.Name + " — raises an error"
	case ch.Same:
		return ch.Name + " — no change"
	}
	return ch.Name
}

// Pick takes a choice.
func (c *SimPanel) Pick(ch protocol.SimChoice) {
	if len(c.App.Sim.Path) == 0 {
		c.App.SimStart(ch.Index)
		return
	}
	c.App.SimPick(ch.Index)
}

// Problem reports what the last state violates, in plain words.
func (c *SimPanel) Problem() string {
	v := c.App.Sim.View
	if v == nil {
		return ""
	}
	switch {
	case v.Failure != nil:
		return KindWords(v.Failure.Kind) + ": " + sentence(v.Failure.Message) + at(v.Failure.Pos) + ". Go back and choose another rule."
	case len(v.Violations) > 0:
		x := v.Violations[0]
		return KindWords(x.Kind) + ": " + sentence(x.Message) + at(x.Pos) + "."
	case v.Discarded:
		return "An assumption is false in this state: the checker ignores such states."
	case v.Deadlock:
		return "Deadlock: no rule leads to a different state."
	}
	return ""
}

func at(pos string) string {
	if pos == "" {
		return ""
	}
	return " (" + pos + ")"
}

// Where says how long the path is.
func (c *SimPanel) Where() string {
	if n := len(c.App.Sim.Path); n > 0 {
		return fmt.Sprintf("%d state%s", n, map[bool]string{true: "", false: "s"}[n == 1])
	}
	return ""
}

// StepText says which state is shown.
func (c *SimPanel) StepText() string {
	return fmt.Sprintf("State %d of %d", c.App.Sim.Step+1, len(c.App.Sim.Steps))
}

// Rule is the rule that led to the state shown.
func (c *SimPanel) Rule() string {
	if s := c.App.Sim.Steps; c.App.Sim.Step >= 0 && c.App.Sim.Step < len(s) {
		return s[c.App.Sim.Step].Rule
	}
	return ""
}

// AutoLabel is the random run button's text.
func (c *SimPanel) AutoLabel() string {
	if c.App.Sim.Auto {
		return "Stop"
	}
	return "Run randomly"
}

// Speeds lists the random run's speeds.
func (c *SimPanel) Speeds() []Choice {
	var out []Choice
	for _, s := range simSpeeds {
		out = append(out, Choice{strconv.Itoa(s), fmt.Sprintf("%d step%s/s", s, map[bool]string{true: "", false: "s"}[s == 1])})
	}
	return out
}

// Speed is the selected speed as a menu value.
func (c *SimPanel) Speed() string {
	if c.App.Sim.Speed == 0 {
		c.App.Sim.Speed = 2
	}
	return strconv.Itoa(c.App.Sim.Speed)
}
