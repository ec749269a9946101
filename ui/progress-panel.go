package ui

import (
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
	return []Stat{
		{"time", "Elapsed", seconds(p.Seconds)},
		{"states", "States", count(p.States)},
		{"rules", "Rules fired", count(p.RulesFired)},
		{"level", "BFS level", count(int64(p.Level))},
		{"queue", "Queued (memory / disk)", count(p.QueueMemory) + " / " + count(p.QueueDisk)},
		{"memory", memLabel, byteSize(mem) + " of " + byteSize(budget)},
		{"disk", "Disk written / read", byteSize(p.BytesWritten) + " / " + byteSize(p.BytesRead)},
		{"rate", "States per second", rate(p.StatesPerSec)},
	}
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

// DFS reports a depth-first run, which has no BFS levels to chart.
func (c *ProgressPanel) DFS() bool { r := c.App.Run; return r != nil && !bfsLevels(r) }

// bfsLevels reports whether the run's progress levels are BFS levels.
// (The engine registry will say which algorithms have them.)
func bfsLevels(r *Run) bool { return r.Options.Algorithm != "dfs" }
