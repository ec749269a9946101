package ui

import (
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/wasm/protocol"
)

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
