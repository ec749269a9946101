package ui

import (
	"fmt"

	"github.com/locus-mc/locus/wasm/protocol"
)

// VerdictPanel shows how a finished check ended, with its counts.
type VerdictPanel struct {
	App *App
}

// Stat is one labelled number of the verdict.
type Stat struct{ Key, Label, Value string }

// Show reports whether there is a verdict to show.
func (c *VerdictPanel) Show() bool { r := c.App.Run; return r != nil && r.Status != "running" }

// RunID identifies the run the panel shows (0 before the first), so a
// reader can tell a new verdict from the previous one.
func (c *VerdictPanel) RunID() int64 {
	if r := c.App.Run; r != nil {
		return r.ID
	}
	return 0
}

// Verdict is pass, fail, incomplete, rejected or error.
func (c *VerdictPanel) Verdict() string {
	r := c.App.Run
	switch {
	case r == nil:
		return ""
	case r.Status == "cancelled":
		return protocol.Incomplete
	case r.Status == "failed" || r.Result == nil:
		return protocol.Error
	}
	return r.Result.Verdict
}

// Headline says in a sentence what the verdict means.
func (c *VerdictPanel) Headline() string {
	r := c.App.Run
	if r == nil {
		return ""
	}
	if r.Status == "cancelled" {
		return "Cancelled by you; the counts below are from the last progress report."
	}
	if r.Result == nil {
		return "The engine stopped without a result: " + r.Error
	}
	res := r.Result
	switch res.Verdict {
	case protocol.Pass:
		if res.States != nil {
			return fmt.Sprintf("No violation in %s reachable states.", count(*res.States))
		}
		return "No violation."
	case protocol.Fail:
		if v := res.Violation; v != nil {
			s := KindWords(v.Kind) + ": " + sentence(v.Message)
			switch {
			case v.Kind == "invariant" && v.Name != "":
				s = KindWords(v.Kind) + ": “" + v.Name + "”"
			case v.Kind == "deadlock":
				s = KindWords(v.Kind)
			}
			if v.Pos != "" {
				s += " (" + v.Pos + ")"
			}
			return s
		}
		return "A property failed."
	case protocol.Rejected:
		return "The model has errors; fix them and run again."
	case protocol.Incomplete:
		if res.Reason != "" {
			return "Nothing was proved: " + res.Reason
		}
	}
	if res.Reason != "" {
		return sentence(res.Reason)
	}
	return res.Verdict
}

// Stats lists the counts of the run.
func (c *VerdictPanel) Stats() []Stat {
	r := c.App.Run
	if r == nil {
		return nil
	}
	var out []Stat
	add := func(key, label, value string) { out = append(out, Stat{key, label, value}) }
	res := r.Result
	if res == nil {
		if p := r.Progress; p != nil {
			add("states", "States so far", count(p.States))
			add("rules", "Rules fired", count(p.RulesFired))
			add("time", "Time", seconds(p.Seconds))
		}
		return out
	}
	if res.Verdict == protocol.Rejected || res.States == nil && res.RulesFired == 0 {
		return nil // nothing was explored
	}
	if res.States != nil {
		add("states", "States", count(*res.States))
	}
	add("rules", "Rules fired", count(res.RulesFired))
	if res.Algorithm != "dfs" {
		add("depth", "BFS depth", count(int64(res.Depth)))
	}
	add("time", "Time", seconds(res.Seconds))
	add("rate", "States per second", rate(res.StatesPerSec))
	add("rules-rate", "Rules per second", rate(res.RulesPerSec))
	add("memory", "Peak memory", byteSize(res.PeakBytes))
	if res.DiskWritten > 0 || res.DiskRead > 0 {
		add("disk", "Disk written / read", byteSize(res.DiskWritten)+" / "+byteSize(res.DiskRead))
	}
	if res.StateBits > 0 {
		add("state-size", "State size", fmt.Sprintf("%d bits", res.StateBits))
	}
	// The options in the words of the menus.
	add("options", "Options", fmt.Sprintf("%s; symmetry reduction: %s; deadlock: %s",
		label(algorithmLabels, orDefault(res.Algorithm, r.Options.Algorithm)),
		label(symmetryLabels, orDefault(res.Symmetry, r.Options.Symmetry)),
		label(deadlockLabels, orDefault(res.Deadlock, r.Options.Deadlock))))
	return out
}

// Diagnostics lists the front end's messages of a rejected model.
func (c *VerdictPanel) Diagnostics() []protocol.Diagnostic {
	if r := c.App.Run; r != nil && r.Result != nil {
		return r.Result.Diagnostics
	}
	return nil
}

// Pos prints a diagnostic's position.
func (c *VerdictPanel) Pos(d protocol.Diagnostic) string { return fmt.Sprintf("%d:%d", d.Line, d.Col) }
