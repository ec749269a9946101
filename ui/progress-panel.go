package ui

import (
	"fmt"

	"github.com/locus-mc/locus/wasm/protocol"
)

// ProgressPanel shows a check's progress as numbers and charts.
type ProgressPanel struct {
	App *App
}

// Stats lists the latest progress sample.
func (c *ProgressPanel) Stats() []Stat {
	r := c.App.Run
	if r == nil {
		return nil
	}
	p := protocol.Progress{}
	if r.Progress != nil {
		p = *r.Progress
	}
	if res := r.Result; res != nil && (res.States != nil || res.RulesFired > 0) {
		// Finished: the result's totals supersede the last sample.
		if res.States != nil {
			p.States = *res.States
		}
		p.RulesFired, p.Level, p.Seconds, p.StatesPerSec = res.RulesFired, res.Depth, res.Seconds, res.StatesPerSec
		p.BytesWritten, p.BytesRead = max(p.BytesWritten, res.DiskWritten), max(p.BytesRead, res.DiskRead)
	}
	budget := r.Options.MemoryBytes
	memLabel, mem := "Memory (of budget)", p.MemoryBytes
	if res := r.Result; res != nil && res.PeakBytes > 0 {
		// Finished: the engine's peak, which the verdict reports too (a
		// short run may end before any progress sample).
		memLabel, mem = "Peak memory (of budget)", res.PeakBytes
	}
	out := []Stat{
		{"time", "Elapsed", seconds(p.Seconds)},
		{"states", "States", count(p.States)},
		{"rules", "Rules fired", count(p.RulesFired)},
		{"level", "BFS level", count(int64(p.Level))},
		{"queue", "Queued (memory / disk)", count(p.QueueMemory) + " / " + count(p.QueueDisk)},
		{"memory", memLabel, byteSize(mem) + " of " + byteSize(budget)},
		{"disk", "Disk written / read", byteSize(p.BytesWritten) + " / " + byteSize(p.BytesRead)},
		{"rate", "States per second", rate(p.StatesPerSec)},
	}
	// The figures of the engines that give up exactness for memory.
	if p.Phase != "" {
		out = append(out, Stat{"phase", "Mode", phaseLabel(p.Phase)})
	}
	if p.CacheFill > 0 || p.CollisionRate > 0 {
		out = append(out,
			Stat{"visited", "Insertions (revisits included)", count(p.StatesVisited)},
			Stat{"collisions", "Collision rate", fmt.Sprintf("%.3f", p.CollisionRate)},
			Stat{"cache-fill", "Cache filled", fmt.Sprintf("%.0f%%", 100*p.CacheFill)})
	}
	out = append(out, engineStats(p)...)
	out = append(out, diskStats(p, r.charts.rates, r.Status == "running")...)
	if p.TrailBytes > 0 {
		out = append(out, Stat{"trail", "Counterexample trail", byteSize(p.TrailBytes)})
	}
	return out
}

// engineStats are the live figures of the engines that trade time for
// memory by forgetting states: randomized BFS's visits and omission
// estimate, state caching's re-expansions and TD-tree, DFS with
// replacement's stack and re-insertions.
func engineStats(p protocol.Progress) []Stat {
	var out []Stat
	if p.Visits > 0 {
		out = append(out,
			Stat{"visits", "Randomized visits", count(int64(p.Visits))},
			Stat{"pomis", "Estimated omission probability (PomIs)", fmt.Sprintf("%.3g (%d sampled states)", p.PomIs, p.Samples)})
	}
	if p.Reexpansions > 0 {
		out = append(out, Stat{"reexpansions", "Re-expansions of forgotten states (est.)", count(p.Reexpansions)})
	}
	if p.Reinsertions > 0 {
		out = append(out, Stat{"reinsertions", "Re-insertions of forgotten states (est.)", count(p.Reinsertions)})
	}
	if p.StackDepth > 0 {
		out = append(out, Stat{"stack", "States that cannot be forgotten (stack or TD-tree)", count(p.StackDepth)})
	}
	return out
}

// phaseLabel names an adaptive engine's mode for a reader.
func phaseLabel(phase string) string {
	switch phase {
	case "exact":
		return "exact (every state kept)"
	case "compact":
		return "hash compaction (signatures in memory)"
	case "cache":
		return "cache (recent states only)"
	}
	return phase
}

// StorageNote says where the queue may spill.
func (c *ProgressPanel) StorageNote() string {
	if r := c.App.Run; r != nil {
		switch r.Storage {
		case protocol.StorageOPFS:
			return "disk: origin private file system"
		case protocol.StorageIndexedDB:
			return "disk: IndexedDB"
		}
	}
	return "disk: none (memory only)"
}

// LevelsCaption titles the per-level chart.
func (c *ProgressPanel) LevelsCaption() string {
	if r := c.App.Run; r != nil && r.Result == nil && r.Status == "running" {
		return "New states per BFS level (estimate until the end)"
	}
	return "New states per BFS level"
}

// The charts beyond states and levels, each shown once the run has its
// figures: memory for every run, disk I/O once it touched storage, the disk
// cloud once a disk-based search made a table check, collisions for the
// engines that report them.
func (c *ProgressPanel) HasDisk() bool       { return c.App.Run != nil && c.App.Run.charts.Disk }
func (c *ProgressPanel) HasCloud() bool      { return c.App.Run != nil && c.App.Run.charts.Cloud }
func (c *ProgressPanel) HasCollisions() bool { return c.App.Run != nil && c.App.Run.charts.Collisions }

// MemoryCaption titles the memory chart with the budget.
func (c *ProgressPanel) MemoryCaption() string {
	r := c.App.Run
	if r == nil || r.Options.MemoryBytes <= 0 {
		return "Engine memory over time (no budget)"
	}
	return "Engine memory over time, against the budget of " + byteSize(r.Options.MemoryBytes)
}

// NoLevels reports a run whose engine does not search by BFS levels, so
// there is no per-level chart.
func (c *ProgressPanel) NoLevels() bool {
	r := c.App.Run
	return r != nil && !c.App.bfsLevels(r)
}

// bfsLevels reports whether the run's engine searches by BFS levels (the
// engine registry says), so its progress levels can be charted.
func (a *App) bfsLevels(r *Run) bool {
	e := a.EngineNamed(r.Options.Algorithm)
	return e != nil && e.Levels
}

// diskStats are a disk search's live figures: the table M of recent states,
// the signature file D, the disk cloud of the last check, and the I/O rates.
func diskStats(p protocol.Progress, rates diskRates, live bool) []Stat {
	d := p.Disk
	if d == nil {
		return nil
	}
	out := []Stat{
		{"disk-m", "Table M (recent states)", fmt.Sprintf("%.0f%% of %s", 100*d.MFill, count(d.MCapacity))},
		{"disk-d", "Signature file D", count(d.DStates) + " entries, " + byteSize(d.DBytes) + " in " + count(int64(d.DBlocks)) + " blocks"},
		{"disk-cloud", "Disk cloud (blocks read by the last check)", fmt.Sprintf("%s (%.0f%% of D)", count(int64(d.CloudBlocks)), 100*d.CloudShare)},
		{"disk-checks", "Table checks", count(d.Checks) + ", " + count(d.Unchecked) + " candidates waiting"},
	}
	if live {
		out = append(out, Stat{"disk-rates", "Disk write / read rate", byteSize(int64(rates.WriteRate)) + "/s / " + byteSize(int64(rates.ReadRate)) + "/s"})
	}
	return out
}
