package ui

import (
	"strconv"
	"strings"
)

// EngineParams shows the selected engine's parameters (from the engine
// registry) and, for a randomized engine, its seed.
type EngineParams struct {
	App *App
}

// ParamField is one parameter as the panel shows it.
type ParamField struct {
	Name, Label, Title string
	Min, Max, Step     string
	Value              float64
	Text               string
	Choices            []string
}

// Params lists the selected engine's parameters with their current values.
func (c *EngineParams) Params() []ParamField {
	e := c.App.Engine()
	if e == nil {
		return nil
	}
	var out []ParamField
	for _, p := range e.Params {
		v := p.Default
		if x, ok := c.App.Params[p.Name]; ok {
			v = x
		}
		step := "any"
		if p.Integer {
			step = "1"
		}
		out = append(out, ParamField{Name: p.Name, Label: paramLabel(p.Name), Title: p.Title,
			Min: strconv.FormatFloat(p.Min, 'g', -1, 64), Max: strconv.FormatFloat(p.Max, 'g', -1, 64), Step: step,
			Value: v, Text: strconv.FormatFloat(v, 'g', -1, 64), Choices: p.Choices})
	}
	return out
}

// paramLabel turns a parameter name into a short label: "max-revisits" →
// "Max revisits".
func paramLabel(name string) string {
	s := strings.ReplaceAll(name, "-", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Randomized reports whether the selected engine takes a seed.
func (c *EngineParams) Randomized() bool {
	e := c.App.Engine()
	return e != nil && e.Randomized
}

// SeedText is the seed as the input shows it.
func (c *EngineParams) SeedText() string { return strconv.FormatInt(c.App.Seed, 10) }

// Itoa formats a choice's index as its option value.
func (c *EngineParams) Itoa(i int) string { return strconv.Itoa(i) }
