package explore_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/storagefs"
)

// diskModel is a model the disk-based searches are compared on.
type diskModel struct {
	name, src, symmetry string
}

func diskModels(t *testing.T) []diskModel {
	t.Helper()
	read := func(path string) string {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(src)
	}
	peterson := read("../../../shared/models/cmurphi/mux/n_peterson.m")
	if !strings.Contains(peterson, "  N: 7;") {
		t.Fatal("n_peterson.m no longer declares N: 7")
	}
	return []diskModel{
		// Wide levels of large states: M fills up many times within a
		// level, and the final count takes several passes.
		{"wide", read("testdata/wide.m"), "off"},
		// 118 levels: the locality window and the learned levels move.
		{"counters", counters, "off"},
		// A real protocol, under symmetry reduction.
		{"n_peterson N=6", strings.Replace(peterson, "  N: 7;", "  N: 6;", 1), "exact"},
		{"mcslock1", read("../../../shared/models/cmurphi/mux/mcslock1.m"), "exact"},
	}
}

// TestDiskSearchCounts runs dbfs and ldbfs under a small budget, with and
// without hash compaction, and with a disk cloud so small that old states
// are expanded again: each ends as breadth-first search does, with its
// states, rules fired and level sizes.
func TestDiskSearchCounts(t *testing.T) {
	const budget = 768 << 10
	for _, m := range diskModels(t) {
		want := verify.Check(context.Background(), m.name+".m", []byte(m.src), verify.Options{
			Options: job.Options{Algorithm: "bfs", Symmetry: m.symmetry}})
		if want.Verdict != verify.Pass || want.States == nil {
			t.Fatalf("%s: bfs: %s %s", m.name, want.Verdict, want.Reason)
		}
		revisited := false
		for _, tc := range []struct {
			algo   string
			hash   int
			params map[string]float64
		}{
			{"dbfs", 0, nil},
			{"dbfs", 40, nil},
			{"ldbfs", 0, nil},
			{"ldbfs", 40, nil},
			{"ldbfs", 0, map[string]float64{"window": 0, "cloud": 0.01, "calibrate": 3}},
		} {
			name := m.name + "/" + tc.algo
			if tc.hash > 0 {
				name += "/hc"
			}
			if tc.params != nil {
				name += "/small-cloud"
			}
			t.Run(name, func(t *testing.T) {
				res := verify.Check(context.Background(), m.name+".m", []byte(m.src), verify.Options{
					Options: job.Options{Algorithm: tc.algo, Symmetry: m.symmetry, HashCompaction: tc.hash,
						MemoryBytes: budget, Params: tc.params},
					FS: storagefs.NewMemory(storagefs.Options{})})
				if res.Verdict != verify.Pass || res.States == nil {
					t.Fatalf("%s %s %v", res.Verdict, res.Reason, res.Diagnostics)
				}
				if *res.States != *want.States || res.RulesFired != want.RulesFired || !slices.Equal(res.LevelSizes, want.LevelSizes) {
					t.Fatalf("states %d rules %d levels %v, want %d %d %v", *res.States, res.RulesFired, res.LevelSizes,
						*want.States, want.RulesFired, want.LevelSizes)
				}
				if res.PeakBytes > budget {
					t.Fatalf("peak %d over the budget %d", res.PeakBytes, budget)
				}
				d := res.Disk
				if d == nil || d.Checks < int64(len(want.LevelSizes)) || d.DStates != *res.States+d.Revisited {
					t.Fatalf("disk report %+v for %d levels", d, len(want.LevelSizes))
				}
				if res.DiskWritten == 0 || (d.DBlocks > 0 && d.DBytesRead == 0) {
					t.Fatalf("disk I/O %d written, %d read of D", res.DiskWritten, d.DBytesRead)
				}
				if tc.algo == "dbfs" && d.Revisited != 0 {
					t.Fatalf("dbfs expanded %d states twice", d.Revisited)
				}
				if (tc.hash > 0) != (res.OmissionBound > 0) {
					t.Fatalf("omission bound %g with hash compaction %d", res.OmissionBound, tc.hash)
				}
				if d.Revisited > 0 {
					revisited = true
				}
				t.Logf("%d checks, %d calibrations, %d revisited, D %d blocks, %d bytes read of it", d.Checks, d.Calibrations, d.Revisited, d.DBlocks, d.DBytesRead)
			})
		}
		if m.name == "wide" && !revisited {
			t.Errorf("%s: no run expanded a state twice: the count's correction went untested", m.name)
		}
	}
}

// goneFS is a store the browser evicts mid-run: after a number of writes
// every operation fails with ErrStoreGone.
type goneFS struct {
	storagefs.FS
	writes, after int
}

func (g *goneFS) gone(name string) error {
	return &storagefs.Error{Op: "write", Name: name, Err: storagefs.ErrStoreGone}
}

func (g *goneFS) WriteSegment(name string, data []byte) error {
	if g.writes++; g.writes > g.after {
		return g.gone(name)
	}
	return g.FS.WriteSegment(name, data)
}

func (g *goneFS) ReadSegment(name string, buf []byte) ([]byte, error) {
	if g.writes > g.after {
		return nil, g.gone(name)
	}
	return g.FS.ReadSegment(name, buf)
}

// TestDiskSearchStorageLost: a checkpointed ldbfs run whose storage fills
// its quota, or is evicted, mid-run ends incomplete with the reason; with
// a full quota its newest checkpoint is kept, and resuming it with room
// to spare ends with breadth-first search's counts.
func TestDiskSearchStorageLost(t *testing.T) {
	const budget = 768 << 10
	src := counters
	want := verify.Check(context.Background(), "counters.m", []byte(src), verify.Options{
		Options: job.Options{Algorithm: "bfs", Symmetry: "off"}})
	if want.Verdict != verify.Pass || want.States == nil {
		t.Fatalf("bfs: %s %s", want.Verdict, want.Reason)
	}
	opts := job.Options{Algorithm: "ldbfs", Symmetry: "off", MemoryBytes: budget, Checkpoint: true}

	t.Run("quota", func(t *testing.T) {
		mem := storagefs.NewMemory(storagefs.Options{})
		full := verify.Check(context.Background(), "counters.m", []byte(src), verify.Options{Options: opts, FS: mem})
		if full.Verdict != verify.Pass {
			t.Fatalf("uncapped: %s %s", full.Verdict, full.Reason)
		}
		capped := storagefs.NewMemory(storagefs.Options{MaxBytes: full.DiskWritten / 8})
		res := verify.Check(context.Background(), "counters.m", []byte(src), verify.Options{Options: opts, FS: capped})
		if res.Verdict != verify.Incomplete || !strings.Contains(res.Reason, "quota") {
			t.Fatalf("capped: got %s %q, want incomplete for the quota", res.Verdict, res.Reason)
		}
		if res.Checkpoint == nil || !res.Checkpoint.Resumable {
			t.Fatalf("capped: the checkpoint was not kept: %+v", res.Checkpoint)
		}
		// Copy the kept checkpoint to a store with room, and resume.
		roomy := storagefs.NewMemory(storagefs.Options{})
		segs, err := capped.ListSegments("")
		if err != nil {
			t.Fatal(err)
		}
		for _, sg := range segs {
			data, err := capped.ReadSegment(sg.Name, nil)
			if err == nil {
				err = roomy.WriteSegment(sg.Name, data)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		resumed := verify.Check(context.Background(), "counters.m", []byte(src), verify.Options{Options: opts, FS: roomy, Resume: true})
		if resumed.Verdict != verify.Pass || *resumed.States != *want.States || resumed.RulesFired != want.RulesFired {
			t.Fatalf("resumed: %s %q, %v states %d rules; want %d states %d rules", resumed.Verdict, resumed.Reason,
				resumed.States, resumed.RulesFired, *want.States, want.RulesFired)
		}
	})

	t.Run("evicted", func(t *testing.T) {
		fs := &goneFS{FS: storagefs.NewMemory(storagefs.Options{}), after: 40}
		res := verify.Check(context.Background(), "counters.m", []byte(src), verify.Options{Options: opts, FS: fs})
		if res.Verdict != verify.Incomplete || !strings.Contains(res.Reason, "deleted") {
			t.Fatalf("got %s %q, want incomplete: storage deleted", res.Verdict, res.Reason)
		}
	})
}

// TestCheckpointIfAble: a run that only wishes for checkpoints (the
// browser asks it of every run of a checkpointing engine) runs without
// them where the engine, its options or the model cannot give one, with
// the verdict of a run that never asked and a note that says why; asked
// as a demand, the same runs are refused.
func TestCheckpointIfAble(t *testing.T) {
	liveness, err := os.ReadFile(filepath.Join("testdata", "liveness.m"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, algo, src string
		params          map[string]float64
		note            string
	}{
		{"engine without checkpoints", "bfs", counters, nil, "the bfs engine does not write them"},
		{"auto never on disk", "auto", counters, map[string]float64{"disk": 0}, "disk=0"},
		{"liveness on ldbfs", "ldbfs", string(liveness), nil, "liveness properties"},
		{"liveness on auto", "auto", string(liveness), nil, "liveness properties"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := job.Options{Algorithm: tt.algo, Symmetry: "off", MemoryBytes: 1 << 20, Params: tt.params}
			plain := verify.Check(context.Background(), "m.m", []byte(tt.src), verify.Options{Options: opts, FS: storagefs.NewMemory(storagefs.Options{})})
			if plain.Verdict == verify.Error {
				t.Fatalf("without checkpoints: %s", plain.Reason)
			}
			opts.Checkpoint = true
			demanded := verify.Check(context.Background(), "m.m", []byte(tt.src), verify.Options{Options: opts, FS: storagefs.NewMemory(storagefs.Options{})})
			if demanded.Verdict != verify.Error {
				t.Errorf("demanded: got %s, want error", demanded.Verdict)
			}
			wished := verify.Check(context.Background(), "m.m", []byte(tt.src), verify.Options{Options: opts, FS: storagefs.NewMemory(storagefs.Options{}), CheckpointIfAble: true})
			if wished.Verdict != plain.Verdict || *wished.States != *plain.States {
				t.Fatalf("wished: %s %s with %d states, want %s with %d", wished.Verdict, wished.Reason, *wished.States, plain.Verdict, *plain.States)
			}
			var notes []string
			for _, d := range wished.Diagnostics {
				notes = append(notes, d.Message)
			}
			if !strings.Contains(strings.Join(notes, "\n"), "no checkpoints: ") || !strings.Contains(strings.Join(notes, "\n"), tt.note) {
				t.Errorf("wished: notes %q do not say %q", notes, tt.note)
			}
			if wished.Checkpoint != nil && wished.Checkpoint.Checks > 0 {
				t.Errorf("wished: %d checkpoints written", wished.Checkpoint.Checks)
			}
		})
	}
}

// TestDiskSearchProgress follows a disk search's progress samples: each
// carries the last table check (numbers that only grow, no more blocks read
// than D had, calibrations where the calibrate parameter puts them) and the
// bytes on disk, so that the app can chart the disk cloud check by check.
func TestDiskSearchProgress(t *testing.T) {
	for _, algo := range []string{"dbfs", "ldbfs"} {
		t.Run(algo, func(t *testing.T) {
			var params map[string]float64
			if algo == "ldbfs" {
				params = map[string]float64{"calibrate": 3}
			}
			var samples []job.Progress
			res := verify.Check(context.Background(), "counters.m", []byte(counters), verify.Options{
				Options:  job.Options{Algorithm: algo, MemoryBytes: 768 << 10, ProgressEvery: 1, Params: params},
				FS:       storagefs.NewMemory(storagefs.Options{}),
				Progress: func(p verify.Progress) { samples = append(samples, p) }})
			if res.Verdict != verify.Pass || res.Disk == nil {
				t.Fatalf("%s %s", res.Verdict, res.Reason)
			}
			var last int64
			checks, onDisk := 0, false
			for _, p := range samples {
				if p.Disk == nil || p.Disk.LastCheck == nil {
					if p.Disk != nil && p.Disk.Checks > 0 {
						t.Fatalf("%d checks but no last check", p.Disk.Checks)
					}
					continue
				}
				c := p.Disk.LastCheck
				if c.Check < last || c.Check != p.Disk.Checks || c.Read > c.Blocks || c.Read < 0 {
					t.Fatalf("last check %+v after check %d, progress says %d checks", c, last, p.Disk.Checks)
				}
				if c.Check > last {
					checks++
				}
				if want := algo == "ldbfs" && c.Check%3 == 0; c.Calibrate != want {
					t.Fatalf("check %d: calibrate %v", c.Check, c.Calibrate)
				}
				last = c.Check
				if p.DiskBytes > 0 {
					onDisk = true
				}
				if p.Disk.DBlocks > 0 && p.DiskBytes == 0 {
					t.Fatalf("D has %d blocks but the run holds %d bytes on disk", p.Disk.DBlocks, p.DiskBytes)
				}
			}
			if checks < 2 || !onDisk || res.Disk.DBlocks == 0 {
				t.Fatalf("%d distinct checks seen in %d samples, on disk %v, D %d blocks", checks, len(samples), onDisk, res.Disk.DBlocks)
			}
		})
	}
}
