package ui

import (
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/wasm/protocol"
)

func TestDiskRates(t *testing.T) {
	var d diskRates
	for _, p := range []protocol.Progress{
		{Seconds: 0.1, BytesWritten: 1 << 20, BytesRead: 0},
		{Seconds: 0.5, BytesWritten: 2 << 20, BytesRead: 4 << 20}, // under a second: kept for later
		{Seconds: 2.1, BytesWritten: 5 << 20, BytesRead: 8 << 20},
	} {
		d.observe(&p)
	}
	if d.WriteRate != 2<<20 || d.ReadRate != 4<<20 {
		t.Errorf("rates = %.0f / %.0f, want 2 MiB/s and 4 MiB/s", d.WriteRate, d.ReadRate)
	}
	// A resumed run's clock restarts below the reference: a new reference,
	// not a negative rate.
	d.observe(&protocol.Progress{Seconds: 1, BytesWritten: 1, BytesRead: 1})
	if d.WriteRate < 0 || d.ReadRate < 0 || d.at != 1 {
		t.Errorf("after a clock reset: %+v", d)
	}
}

func TestDiskStats(t *testing.T) {
	if got := diskStats(protocol.Progress{}, diskRates{}, true); got != nil {
		t.Errorf("no disk search: %v", got)
	}
	p := protocol.Progress{Disk: &job.DiskProgress{MFill: 0.5, MCapacity: 1000, DStates: 12345, DBytes: 3 << 20,
		DBlocks: 3, CloudBlocks: 1, CloudShare: 1.0 / 3, Checks: 7, Unchecked: 20}}
	stats := diskStats(p, diskRates{WriteRate: 1 << 20, ReadRate: 2 << 20}, true)
	byKey := map[string]string{}
	for _, s := range stats {
		byKey[s.Key] = s.Value
	}
	for key, want := range map[string]string{
		"disk-m": "50% of 1,000", "disk-d": "12,345 entries", "disk-cloud": "(33% of D)",
		"disk-checks": "7, 20 candidates", "disk-rates": "/s",
	} {
		if !strings.Contains(byKey[key], want) {
			t.Errorf("%s = %q, want it to contain %q", key, byKey[key], want)
		}
	}
	if len(diskStats(p, diskRates{}, false)) != len(stats)-1 {
		t.Error("a finished run shows no rates")
	}
}

func TestStoredSummary(t *testing.T) {
	for _, tc := range []struct {
		run  protocol.StoredRun
		want string
	}{
		{protocol.StoredRun{Running: true}, "running now"},
		{protocol.StoredRun{Options: protocol.Options{Algorithm: "ldbfs"}, Resumable: true, Elapsed: 12, States: 5000, Bytes: 2 << 20},
			"ldbfs; checkpoint after 12"},
		{protocol.StoredRun{Options: protocol.Options{Algorithm: "dbfs"}}, "no checkpoint yet"},
	} {
		if got := storedSummary(tc.run); !strings.Contains(got, tc.want) {
			t.Errorf("storedSummary(%+v) = %q, want %q in it", tc.run, got, tc.want)
		}
	}
}
