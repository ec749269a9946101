package ui

import (
	"fmt"
	"strings"

	"github.com/locus-mc/locus/core/job"
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
		what := "No violation"
		switch {
		case res.States != nil:
			what = fmt.Sprintf("No violation in %s reachable states", count(*res.States))
		case res.StatesEstimate > 0:
			what = fmt.Sprintf("No violation in about %s reachable states", count(res.StatesEstimate))
		}
		if res.Guarantee == job.GuaranteeOmissionBound {
			return what + fmt.Sprintf(", unless hash compaction hid a state (probability at most %.2g).", res.OmissionBound)
		}
		return what + "."
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
	if res.States == nil && res.StatesEstimate > 0 {
		add("states", "States (estimated)", count(res.StatesEstimate))
	}
	if res.States == nil || res.StatesVisited != *res.States {
		add("visited", "Insertions (revisits included)", count(res.StatesVisited))
	}
	if res.CollisionRate > 0 {
		add("collisions", "Collision rate", fmt.Sprintf("%.3f", res.CollisionRate))
	}
	if g := guaranteeLabel(res); g != "" {
		add("guarantee", "Guarantee", g)
	}
	add("rules", "Rules fired", count(res.RulesFired))
	if e := c.App.EngineNamed(res.Algorithm); e == nil || e.Levels {
		add("depth", "BFS depth", count(int64(res.Depth)))
	}
	add("time", "Time", seconds(res.Seconds))
	add("rate", "States per second", rate(res.StatesPerSec))
	add("rules-rate", "Rules per second", rate(res.RulesPerSec))
	add("memory", "Peak memory", byteSize(res.PeakBytes))
	if res.DiskWritten > 0 || res.DiskRead > 0 {
		add("disk", "Disk written / read", byteSize(res.DiskWritten)+" / "+byteSize(res.DiskRead))
	}
	if ck := res.Checkpoint; ck != nil && (ck.Resumed > 0 || ck.Resumable) {
		v := fmt.Sprintf("resumed %d time(s), %d checkpoint(s) written this session", ck.Resumed, ck.Checks)
		if ck.Resumable {
			v += "; kept in browser storage: it can be resumed (see Browser storage)"
		}
		add("checkpoint", "Checkpoint", v)
	}
	if res.StateBits > 0 {
		add("state-size", "State size", fmt.Sprintf("%d bits", res.StateBits))
	}
	// The options in the words of the menus (the engine's title from the
	// registry).
	algo := orDefault(res.Algorithm, r.Options.Algorithm)
	if e := c.App.EngineNamed(algo); e != nil && e.Title != "" {
		algo = e.Title
	}
	if len(res.Phases) > 1 {
		algo += " (" + strings.Join(res.Phases, " → ") + ")"
	}
	add("options", "Options", fmt.Sprintf("%s; symmetry reduction: %s; deadlock: %s", algo,
		label(symmetryLabels, orDefault(res.Symmetry, r.Options.Symmetry)),
		label(deadlockLabels, orDefault(res.Deadlock, r.Options.Deadlock))))
	add("code", "Model code", modelCode(res))
	return out
}

// modelCode says what ran the model's rules: WebAssembly generated for the
// model (where the generator covers the model and the options) or the
// engine's compiled closures, on how many Workers; a note in the
// diagnostics says why the closures ran where the generated code could
// not, or why one Worker ran what was asked of several.
func modelCode(res *protocol.Result) string {
	code := "the engine's compiled closures"
	if res.CodeGen != "" {
		code = "WebAssembly generated for this model (" + res.CodeGen + ")"
	}
	if res.Workers > 1 {
		code += fmt.Sprintf(", on %d Workers", res.Workers)
	}
	return code
}

// guaranteeLabel says what a verdict rests on, for the engines where that
// is not plain.
func guaranteeLabel(res *protocol.Result) string {
	switch res.Guarantee {
	case job.GuaranteeOmissionBound:
		return fmt.Sprintf("hash compaction: a state missed with probability ≤ %.2g", res.OmissionBound)
	case job.GuaranteeNotComplete:
		if res.Verdict == protocol.Incomplete {
			return "not every state was shown to be visited"
		}
	case job.GuaranteeExact:
		if len(res.Phases) > 0 && res.Verdict == protocol.Pass {
			return "exact: every state kept"
		}
	}
	return ""
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

// Locality is the run's transition locality, if measured.
func (c *VerdictPanel) Locality() *job.Locality {
	if r := c.App.Run; r != nil && r.Result != nil {
		return r.Result.Locality
	}
	return nil
}

// LocalityRow is one line of the locality table, formatted.
type LocalityRow struct{ K, Mean, StdDev string }

// LocalityRows lists E{Δ(k)} and σ(k) for k = -1, 0, 1, and SumAvg.
func (c *VerdictPanel) LocalityRows() []LocalityRow {
	l := c.Locality()
	if l == nil {
		return nil
	}
	var out []LocalityRow
	for _, d := range l.Delta {
		out = append(out, LocalityRow{fmt.Sprint(d.K), fmt.Sprintf("%.4f", d.Mean), fmt.Sprintf("%.4f", d.StdDev)})
	}
	return append(out, LocalityRow{"SumAvg", fmt.Sprintf("%.4f", l.SumAvg), ""})
}

// LocalityBar is one bar of the histogram of k.
type LocalityBar struct{ K, Count, Width, Title string }

// LocalityBars is the histogram of k as bars, widest = most transitions.
func (c *VerdictPanel) LocalityBars() []LocalityBar {
	l := c.Locality()
	if l == nil {
		return nil
	}
	var most int64 = 1
	for _, h := range l.Histogram {
		most = max(most, h.Count)
	}
	var out []LocalityBar
	for _, h := range l.Histogram {
		share := float64(h.Count) / float64(max(l.Transitions, 1))
		out = append(out, LocalityBar{K: fmt.Sprint(h.K), Count: count(h.Count),
			Width: fmt.Sprintf("%.1f%%", 100*float64(h.Count)/float64(most)),
			Title: fmt.Sprintf("%s transitions with k = %d (%.1f%%)", count(h.Count), h.K, 100*share)})
	}
	return out
}
