package explore_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/verify"
	"github.com/locus-mc/locus/storagefs"
)

// counters has 64,000 states in 118 BFS levels; the invariant fails only in
// the last one.
const counters = `
type c: 0..39;
var a: c; b: c; d: c;
startstate begin a := 0; b := 0; d := 0; end;
rule "a" true ==> begin a := (a + 1) % 40; end;
rule "b" true ==> begin b := (b + 1) % 40; end;
rule "d" true ==> begin d := (d + 1) % 40; end;
`

// wideCounters is counters with ten constant bytes more in every state:
// 13 bytes a state, more than a 64-bit signature.
const wideCounters = `
type c: 0..39;
var a: c; b: c; d: c; pad: array[0..9] of 0..255;
startstate begin a := 0; b := 0; d := 0; for i: 0..9 do pad[i] := i; end; end;
rule "a" true ==> begin a := (a + 1) % 40; end;
rule "b" true ==> begin b := (b + 1) % 40; end;
rule "d" true ==> begin d := (d + 1) % 40; end;
`

// TestAutoPhases runs auto under budgets that make it convert its visited
// set to signatures and then to a cache or to disk, with and without a
// violation: the verdicts and the guarantee follow the phases, the count
// stays close (exact on disk), and the counterexample found after the
// conversions is still shortest and replays on the model. On the way to
// disk the signatures are 64-bit (every state is compared with all of D:
// at 40 bits the bound is near 1 at a million states), and states no
// larger than a signature go to disk whole, so nothing can be omitted.
func TestAutoPhases(t *testing.T) {
	const inv = `invariant "not all at 39" !(a = 39 & b = 39 & d = 39);`
	for _, tc := range []struct {
		model  string
		budget int64
		disk   bool // go on disk (the engine's parameter)
		phases []string
		// guarantee at the end of a pass; maxBound bounds the omission
		// bound, note is a note the result must carry.
		guarantee string
		maxBound  float64
		note      string
	}{
		{counters, 0, true, []string{"exact"}, job.GuaranteeExact, 0, ""},
		{counters, 1 << 20, false, []string{"exact", "compact"}, job.GuaranteeOmissionBound, 1e-6, "40-bit hash compaction"},
		{counters, 640 << 10, false, []string{"exact", "compact", "cache"}, job.GuaranteeOmissionBound, 1, "as a cache"},
		{counters, 640 << 10, true, []string{"exact", "ldbfs"}, job.GuaranteeExact, 0, "on disk whole"},
		{wideCounters, 1 << 20, true, []string{"exact", "ldbfs"}, job.GuaranteeOmissionBound, 1e-6, "on disk as 64-bit signatures"},
		{wideCounters, 1536 << 10, true, []string{"exact", "compact", "ldbfs"}, job.GuaranteeOmissionBound, 1e-6, "disk-based BFS with locality, 64-bit signatures"},
	} {
		for _, failing := range []bool{false, true} {
			src := tc.model
			if failing {
				src += inv
			}
			fsys := storagefs.NewMemory(storagefs.Options{})
			disk := map[bool]float64{false: 0, true: 1}[tc.disk]
			res := verify.Check(context.Background(), "counters.m", []byte(src), verify.Options{
				Options: job.Options{Algorithm: "auto", MemoryBytes: tc.budget, Params: map[string]float64{"disk": disk}}, FS: fsys})
			model := map[bool]string{false: "counters", true: "wideCounters"}[tc.model == wideCounters]
			name := fmt.Sprintf("%s %s (%d bytes, disk %v)", model, strings.Join(tc.phases, ","), tc.budget, tc.disk)
			if !slices.Equal(res.Phases, tc.phases) {
				t.Fatalf("%s failing=%v: phases %v (%s %s)", name, failing, res.Phases, res.Verdict, res.Reason)
			}
			if res.PeakBytes > tc.budget && tc.budget > 0 {
				t.Fatalf("%s: peak %d over the budget %d", name, res.PeakBytes, tc.budget)
			}
			if failing {
				v := res.Violation
				if res.Verdict != verify.Fail || v == nil || v.Kind != "invariant" || len(v.Trace) != 118 {
					t.Fatalf("%s: %s %+v, want an invariant violation with a 118-step trace", name, res.Verdict, v)
				}
				m, _ := verify.Compile("counters.m", []byte(src))
				if err := verify.Replay(m, v); err != nil {
					t.Fatalf("%s: the counterexample does not replay: %v", name, err)
				}
				continue
			}
			if res.Verdict != verify.Pass {
				t.Fatalf("%s: %s (%s)", name, res.Verdict, res.Reason)
			}
			if res.Guarantee != tc.guarantee || (tc.guarantee == job.GuaranteeOmissionBound) != (res.OmissionBound > 0) || res.OmissionBound > tc.maxBound {
				t.Fatalf("%s: guarantee %s (bound %g), want %s with a bound of at most %g", name, res.Guarantee, res.OmissionBound, tc.guarantee, tc.maxBound)
			}
			if tc.note != "" && !slices.ContainsFunc(res.Diagnostics, func(d verify.Diagnostic) bool { return strings.Contains(d.Message, tc.note) }) {
				t.Fatalf("%s: no note says %q: %+v", name, tc.note, res.Diagnostics)
			}
			n := res.StatesEstimate
			if res.States != nil {
				n = *res.States
			}
			if n < 60000 || n > 68000 {
				t.Fatalf("%s: %d states, want about 64,000", name, n)
			}
			if tc.disk && tc.phases[len(tc.phases)-1] == "ldbfs" {
				// On disk nothing is forgotten: the counts are those of
				// breadth-first search (3 rules fire in every state).
				if res.States == nil || *res.States != 64000 || res.RulesFired != 3*64000 || len(res.LevelSizes) != 118 || res.Disk == nil {
					t.Fatalf("%s: states %v rules %d levels %d disk %+v, want 64,000, 192,000, 118", name, res.States, res.RulesFired, len(res.LevelSizes), res.Disk)
				}
			}
		}
	}
}

// TestAutoCheckpointResume interrupts checkpointed auto runs in their disk
// phase (after a few checks) and before it (during the exact phase, which
// writes no checkpoint), resumes each in the same storage, and gets the
// phases, counts, levels and guarantee of an uninterrupted run; a
// resumption before any checkpoint starts over and says so.
func TestAutoCheckpointResume(t *testing.T) {
	for _, tc := range []struct {
		name   string
		model  string
		budget int64
		phases []string
	}{
		{"counters", counters, 640 << 10, []string{"exact", "ldbfs"}},
		{"wideCounters", wideCounters, 1536 << 10, []string{"exact", "compact", "ldbfs"}},
	} {
		opts := func(fsys storagefs.FS, resume bool, progress func(verify.Progress)) verify.Options {
			return verify.Options{Options: job.Options{Algorithm: "auto", MemoryBytes: tc.budget, Checkpoint: true, ProgressEvery: 1},
				FS: fsys, Resume: resume, Progress: progress}
		}
		want := verify.Check(context.Background(), "c.m", []byte(tc.model), opts(storagefs.NewMemory(storagefs.Options{}), false, nil))
		if want.Verdict != verify.Pass || !slices.Equal(want.Phases, tc.phases) || want.States == nil || *want.States != 64000 || want.Checkpoint == nil {
			t.Fatalf("%s uninterrupted: %s %v states %v checkpoint %+v (%s)", tc.name, want.Verdict, want.Phases, want.States, want.Checkpoint, want.Reason)
		}
		for _, stopAt := range []string{"disk", "exact"} {
			fsys := storagefs.NewMemory(storagefs.Options{})
			ctx, cancel := context.WithCancel(context.Background())
			stop := func(p verify.Progress) {
				if (stopAt == "disk" && p.Disk != nil && p.Disk.Checks >= 5) || (stopAt == "exact" && p.States > 1000) {
					cancel()
				}
			}
			first := verify.Check(ctx, "c.m", []byte(tc.model), opts(fsys, false, stop))
			cancel()
			resumable := first.Checkpoint != nil && first.Checkpoint.Resumable
			if first.Verdict == verify.Pass || resumable != (stopAt == "disk") {
				t.Fatalf("%s stopped in the %s phase: %s (%s), checkpoint %+v", tc.name, stopAt, first.Verdict, first.Reason, first.Checkpoint)
			}
			got := verify.Check(context.Background(), "c.m", []byte(tc.model), opts(fsys, true, nil))
			if got.Verdict != verify.Pass || !slices.Equal(got.Phases, want.Phases) || got.States == nil || *got.States != *want.States ||
				got.RulesFired != want.RulesFired || !slices.Equal(got.LevelSizes, want.LevelSizes) || got.Guarantee != want.Guarantee {
				t.Fatalf("%s resumed after a stop in the %s phase: %s %v states %v rules %d levels %d %s; uninterrupted: %v %d %d %d %s (%s)",
					tc.name, stopAt, got.Verdict, got.Phases, got.States, got.RulesFired, len(got.LevelSizes), got.Guarantee,
					want.Phases, *want.States, want.RulesFired, len(want.LevelSizes), want.Guarantee, got.Reason)
			}
			if want.OmissionBound > 0 && (got.OmissionBound < want.OmissionBound/2 || got.OmissionBound > 2*want.OmissionBound) {
				t.Fatalf("%s resumed: omission bound %g, uninterrupted %g", tc.name, got.OmissionBound, want.OmissionBound)
			}
			startedOver := slices.ContainsFunc(got.Diagnostics, func(d verify.Diagnostic) bool { return strings.Contains(d.Message, "started over") })
			if startedOver != (stopAt == "exact") || got.Checkpoint == nil || (got.Checkpoint.Resumed > 0) != (stopAt == "disk") {
				t.Fatalf("%s resumed after a stop in the %s phase: started over %v, checkpoint %+v", tc.name, stopAt, startedOver, got.Checkpoint)
			}
			if left, _ := fsys.ListSegments(""); len(left) > 0 {
				t.Fatalf("%s: a finished run left %d segments, such as %s", tc.name, len(left), left[0].Name)
			}
		}
	}
}
