package ui

import (
	"github.com/locus-mc/locus/wasm/protocol"
)

// chartFeed turns a run's progress samples into the points of the live
// charts beyond states and queue (web/src/charts.js): memory against the
// budget, disk I/O, the disk cloud check by check, and the caches'
// collision rate. It also says which of those charts the run has, for the
// progress panel to show.
type chartFeed struct {
	Disk       bool // the run has touched disk
	Cloud      bool // a disk-based search has made a table check
	Collisions bool // the engine reports a collision rate, cache fill or omission estimate
	lastCheck  int64
	used, peak int64
	onDisk     int64
	last       protocol.Progress
	io         []ioSample // the last second or so of disk counts, oldest first
	rates      diskRates  // the rates of the last sample, for the panel's row too
}

// diskRates are disk write and read rates, in bytes per second.
type diskRates struct{ WriteRate, ReadRate float64 }

// ioSample is a progress sample's cumulative disk counts.
type ioSample struct {
	seconds       float64
	written, read int64
}

// rateWindow is the span the disk chart's rates average over.
const rateWindow = 1.0 // seconds

// ioRates records a sample's disk counts and returns the write and read
// rates over the last second: from the newest sample at least that old,
// else from the oldest kept, else (the first sample) since the start. A
// clock that goes back (a resumed run) starts the window over.
func (f *chartFeed) ioRates(s ioSample) (write, read float64) {
	if n := len(f.io); n > 0 && s.seconds < f.io[n-1].seconds {
		f.io = f.io[:0]
	}
	from := ioSample{}
	for i := len(f.io) - 1; i >= 0; i-- {
		from = f.io[i]
		if s.seconds-f.io[i].seconds >= rateWindow {
			f.io = f.io[i:] // older samples are no longer needed
			break
		}
	}
	f.io = append(f.io, s)
	if dt := s.seconds - from.seconds; dt > 0 {
		write, read = float64(s.written-from.written)/dt, float64(s.read-from.read)/dt
	}
	f.rates = diskRates{max(write, 0), max(read, 0)}
	return f.rates.WriteRate, f.rates.ReadRate
}

// The points of one sample; a nil one adds nothing to its chart. Field
// names are the JSON the charts read.
type chartPoints struct {
	Memory    *memoryPoint    `json:"memory,omitempty"`
	Disk      *diskPoint      `json:"disk,omitempty"`
	Cloud     *cloudPoint     `json:"cloud,omitempty"`
	Collision *collisionPoint `json:"collision,omitempty"`
}

type memoryPoint struct {
	Seconds float64 `json:"s"`
	Used    int64   `json:"used"`
	Peak    int64   `json:"peak"`
	Budget  int64   `json:"budget"` // 0: no budget
}

type diskPoint struct {
	Seconds float64 `json:"s"`
	Write   float64 `json:"write"` // bytes per second
	Read    float64 `json:"read"`
	OnDisk  int64   `json:"on_disk"` // bytes the run holds on disk
}

type cloudPoint struct {
	Check     int64 `json:"check"`
	Blocks    int   `json:"blocks"` // D's blocks at the check
	Read      int   `json:"read"`   // blocks the check read: the disk cloud
	Calibrate bool  `json:"calibrate,omitempty"`
}

type collisionPoint struct {
	Seconds float64 `json:"s"`
	Rate    float64 `json:"rate"`  // evictions per insertion
	Fill    float64 `json:"fill"`  // share of the cache in use
	PomIs   float64 `json:"pomis"` // rbfs's omission estimate
}

// touchesDisk reports a sample of a run that has used storage (a disk
// search whose D still fits in memory has not).
func touchesDisk(p *protocol.Progress) bool {
	return p.BytesWritten > 0 || p.BytesRead > 0 || p.QueueDisk > 0 || p.DiskBytes > 0
}

// observe takes one progress sample of a run whose budget is budget (the
// sample's own, when it says).
func (f *chartFeed) observe(p *protocol.Progress, budget int64) chartPoints {
	if p == nil {
		return chartPoints{}
	}
	f.last = *p
	write, read := f.ioRates(ioSample{p.Seconds, p.BytesWritten, p.BytesRead})
	f.used, f.peak = p.MemoryBytes, max(f.peak, p.MemoryBytes)
	if p.MemoryBudget > 0 {
		budget = p.MemoryBudget
	}
	out := chartPoints{Memory: &memoryPoint{p.Seconds, f.used, f.peak, budget}}
	if touchesDisk(p) {
		f.Disk = true
	}
	if f.Disk {
		f.onDisk = p.DiskBytes
		out.Disk = &diskPoint{p.Seconds, write, read, f.onDisk}
	}
	if d := p.Disk; d != nil && d.LastCheck != nil && d.LastCheck.Check > f.lastCheck {
		c := d.LastCheck
		f.lastCheck, f.Cloud = c.Check, true
		out.Cloud = &cloudPoint{c.Check, c.Blocks, c.Read, c.Calibrate}
	}
	if p.CollisionRate > 0 || p.CacheFill > 0 || p.PomIs > 0 {
		f.Collisions = true
	}
	if f.Collisions {
		out.Collision = &collisionPoint{p.Seconds, p.CollisionRate, p.CacheFill, p.PomIs}
	}
	return out
}

// finish takes the run's result: the last points, at the result's time (a
// run shorter than one progress sample has no other), and the whole
// cloud history (thinned by the engine), which replaces the points seen
// live since the samples may have missed checks.
func (f *chartFeed) finish(res *protocol.Result, budget int64) (chartPoints, []cloudPoint) {
	if res == nil {
		return chartPoints{}, nil
	}
	if res.MemoryBudget > 0 {
		budget = res.MemoryBudget
	}
	used := f.used
	if used == 0 {
		used = res.PeakBytes
	}
	f.peak = max(f.peak, res.PeakBytes)
	out := chartPoints{Memory: &memoryPoint{res.Seconds, used, f.peak, budget}}
	if res.DiskWritten > 0 || res.DiskRead > 0 {
		f.Disk = true
	}
	if f.Disk {
		onDisk := f.onDisk
		if onDisk == 0 && res.Disk != nil {
			onDisk = res.Disk.DBytes
		}
		write, read := f.ioRates(ioSample{res.Seconds, res.DiskWritten, res.DiskRead})
		out.Disk = &diskPoint{res.Seconds, write, read, onDisk}
	}
	if res.CollisionRate > 0 {
		f.Collisions = true
	}
	if f.Collisions {
		out.Collision = &collisionPoint{res.Seconds, res.CollisionRate, f.last.CacheFill, f.last.PomIs}
	}
	var cloud []cloudPoint
	if res.Disk != nil && len(res.Disk.Cloud) > 0 {
		f.Cloud = true
		for _, c := range res.Disk.Cloud {
			cloud = append(cloud, cloudPoint{c.Check, c.Blocks, c.Read, c.Calibrate})
		}
	}
	return out, cloud
}
