package ui

import (
	"math"
	"testing"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/wasm/protocol"
)

// TestChartFeedRuns feeds the samples of three kinds of run and checks
// which charts each gets and their points.
func TestChartFeedRuns(t *testing.T) {
	check := func(c int64, blocks, read int, cal bool) *job.CloudSample {
		return &job.CloudSample{Check: c, Blocks: blocks, Read: read, Calibrate: cal}
	}
	for _, tc := range []struct {
		name                   string
		samples                []protocol.Progress
		disk, cloud, collision bool
		cloudPoints            []cloudPoint // the checks charted live, in order
	}{
		{name: "exact in memory", samples: []protocol.Progress{
			{Seconds: 0.1, MemoryBytes: 1 << 20, MemoryBudget: 16 << 20},
			{Seconds: 0.2, MemoryBytes: 2 << 20, MemoryBudget: 16 << 20},
		}},
		{name: "queue spilled", disk: true, samples: []protocol.Progress{
			{Seconds: 0.1, MemoryBytes: 1 << 20},
			{Seconds: 0.2, MemoryBytes: 2 << 20, QueueDisk: 100, BytesWritten: 4096, DiskBytes: 4096},
		}},
		{name: "ldbfs", disk: true, cloud: true, samples: []protocol.Progress{
			{Seconds: 0.1, Disk: &job.DiskProgress{}},
			{Seconds: 0.2, BytesWritten: 8192, Disk: &job.DiskProgress{Checks: 2, LastCheck: check(2, 1, 1, false)}},
			{Seconds: 0.3, BytesWritten: 8192, Disk: &job.DiskProgress{Checks: 2, LastCheck: check(2, 1, 1, false)}}, // no new check
			{Seconds: 0.4, BytesWritten: 9000, Disk: &job.DiskProgress{Checks: 5, LastCheck: check(5, 4, 4, true)}},
		}, cloudPoints: []cloudPoint{{2, 1, 1, false}, {5, 4, 4, true}}},
		{name: "cache", collision: true, samples: []protocol.Progress{
			{Seconds: 0.1},
			{Seconds: 0.2, CacheFill: 0.5},
			{Seconds: 0.3, CacheFill: 1, CollisionRate: 0.25},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f chartFeed
			var cloud []cloudPoint
			memory := 0
			for i := range tc.samples {
				p := &tc.samples[i]
				pts := f.observe(p, 32<<20)
				if pts.Memory == nil || pts.Memory.Used != p.MemoryBytes || pts.Memory.Seconds != p.Seconds {
					t.Fatalf("sample %d: memory point %+v", i, pts.Memory)
				}
				if want := p.MemoryBudget; want > 0 && pts.Memory.Budget != want || want == 0 && pts.Memory.Budget != 32<<20 {
					t.Fatalf("sample %d: budget %d", i, pts.Memory.Budget)
				}
				memory++
				if (pts.Disk != nil) != f.Disk {
					t.Fatalf("sample %d: disk point %v, disk chart %v", i, pts.Disk, f.Disk)
				}
				if pts.Cloud != nil {
					cloud = append(cloud, *pts.Cloud)
				}
				if (pts.Collision != nil) != f.Collisions {
					t.Fatalf("sample %d: collision point %v, chart %v", i, pts.Collision, f.Collisions)
				}
			}
			if f.Disk != tc.disk || f.Cloud != tc.cloud || f.Collisions != tc.collision {
				t.Fatalf("charts disk %v cloud %v collisions %v, want %v %v %v", f.Disk, f.Cloud, f.Collisions, tc.disk, tc.cloud, tc.collision)
			}
			if len(cloud) != len(tc.cloudPoints) {
				t.Fatalf("cloud points %v, want %v", cloud, tc.cloudPoints)
			}
			for i := range cloud {
				if cloud[i] != tc.cloudPoints[i] {
					t.Fatalf("cloud points %v, want %v", cloud, tc.cloudPoints)
				}
			}
			if memory != len(tc.samples) {
				t.Fatalf("%d memory points for %d samples", memory, len(tc.samples))
			}
		})
	}
}

// TestChartFeedDiskRates: the disk chart's rates average over the last
// second of samples (the first sample: since the start), and start over
// when the clock goes back; the progress panel's row shows the same.
func TestChartFeedDiskRates(t *testing.T) {
	const MiB = 1 << 20
	var f chartFeed
	for i, tc := range []struct {
		seconds       float64
		written, read int64
		write, rd     float64 // the rates charted, MiB/s
	}{
		{0.5, 1 * MiB, 0, 2, 0},        // since the start
		{1.0, 2 * MiB, 1 * MiB, 2, 2},  // within a second: from the oldest kept (0.5)
		{1.5, 2 * MiB, 3 * MiB, 1, 3},  // from 0.5, a second old
		{2.0, 4 * MiB, 3 * MiB, 2, 2},  // from 1.0
		{2.5, 4 * MiB, 3 * MiB, 2, 0},  // from 1.5
		{3.5, 4 * MiB, 4 * MiB, 0, 1},  // from 2.5
		{0.5, 5 * MiB, 3 * MiB, 10, 6}, // resumed: the clock went back, since the start
	} {
		pts := f.observe(&protocol.Progress{Seconds: tc.seconds, BytesWritten: tc.written, BytesRead: tc.read, DiskBytes: 1}, 0)
		if pts.Disk == nil || math.Abs(pts.Disk.Write-tc.write*MiB) > 1 || math.Abs(pts.Disk.Read-tc.rd*MiB) > 1 {
			t.Fatalf("sample %d at %.1f s: disk point %+v, want %g MiB/s written and %g read", i, tc.seconds, pts.Disk, tc.write, tc.rd)
		}
		// The panel's row shows the same rates as the chart.
		if f.rates != (diskRates{pts.Disk.Write, pts.Disk.Read}) {
			t.Fatalf("sample %d: the row's rates %+v, the chart's %+v", i, f.rates, pts.Disk)
		}
	}
}

// TestChartFeedFinish: the result adds a last point to each chart the run
// has, even one that ended before any progress sample, and hands over the
// whole cloud history.
func TestChartFeedFinish(t *testing.T) {
	t.Run("no samples", func(t *testing.T) {
		var f chartFeed
		pts, cloud := f.finish(&protocol.Result{Seconds: 0.05, PeakBytes: 3 << 20, MemoryBudget: 16 << 20}, 32<<20)
		if pts.Memory == nil || pts.Memory.Used != 3<<20 || pts.Memory.Peak != 3<<20 || pts.Memory.Budget != 16<<20 || pts.Memory.Seconds != 0.05 {
			t.Fatalf("memory point %+v", pts.Memory)
		}
		if pts.Disk != nil || pts.Collision != nil || cloud != nil || f.Disk || f.Cloud {
			t.Fatalf("an in-memory run got disk %v collision %v cloud %v", pts.Disk, pts.Collision, cloud)
		}
	})
	t.Run("disk search", func(t *testing.T) {
		var f chartFeed
		f.observe(&protocol.Progress{Seconds: 1, MemoryBytes: 1 << 20, BytesWritten: 1 << 20, DiskBytes: 1 << 20,
			Disk: &job.DiskProgress{Checks: 1, LastCheck: &job.CloudSample{Check: 1, Blocks: 1, Read: 1}}}, 0)
		res := &protocol.Result{Seconds: 2, PeakBytes: 2 << 20, DiskWritten: 3 << 20, DiskRead: 2 << 20,
			Disk: &job.DiskSearch{DBytes: 5 << 20, Cloud: []job.CloudSample{{Check: 1, Blocks: 1, Read: 1}, {Check: 3, Blocks: 4, Read: 4, Calibrate: true}}}}
		pts, cloud := f.finish(res, 16<<20)
		if pts.Memory.Used != 1<<20 || pts.Memory.Peak != 2<<20 {
			t.Fatalf("memory point %+v: the last sample's use and the result's peak", pts.Memory)
		}
		if pts.Disk == nil || pts.Disk.Write != 2<<20 || pts.Disk.Read != 2<<20 || pts.Disk.OnDisk != 1<<20 {
			t.Fatalf("disk point %+v: the rates over the last second, the last sample's bytes on disk", pts.Disk)
		}
		if len(cloud) != 2 || cloud[1] != (cloudPoint{3, 4, 4, true}) || !f.Cloud {
			t.Fatalf("cloud history %v", cloud)
		}
	})
	t.Run("disk search in memory", func(t *testing.T) {
		var f chartFeed
		pts, cloud := f.finish(&protocol.Result{Seconds: 1, Disk: &job.DiskSearch{Cloud: []job.CloudSample{{Check: 1}}}}, 0)
		if pts.Disk != nil || f.Disk || len(cloud) != 1 || !f.Cloud {
			t.Fatalf("D never left memory: disk point %+v, cloud %v", pts.Disk, cloud)
		}
	})
	t.Run("cache", func(t *testing.T) {
		var f chartFeed
		pts, _ := f.finish(&protocol.Result{Seconds: 1, CollisionRate: 0.1}, 0)
		if pts.Collision == nil || pts.Collision.Rate != 0.1 || !f.Collisions {
			t.Fatalf("collision point %+v", pts.Collision)
		}
	})
}
