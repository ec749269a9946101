package ui

import (
	"reflect"
	"testing"
)

func TestCount(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 1234567: "1,234,567", -45000: "-45,000", 100000: "100,000"} {
		if got := count(n); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1536: "1.5 KiB", 64 << 20: "64.0 MiB", 3 << 30: "3.0 GiB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestSeconds(t *testing.T) {
	for s, want := range map[float64]string{0.0123: "12 ms", 1.5: "1.50 s", 75.5: "1 min 15.5 s", 7322: "2 h 2 min"} {
		if got := seconds(s); got != want {
			t.Errorf("seconds(%v) = %q, want %q", s, got, want)
		}
	}
}

func TestRate(t *testing.T) {
	for r, want := range map[float64]string{12: "12 /s", 1500: "1.5 k/s", 25000: "25 k/s", 2.5e6: "2.50 M/s"} {
		if got := rate(r); got != want {
			t.Errorf("rate(%v) = %q, want %q", r, got, want)
		}
	}
}

func TestLevelEstimate(t *testing.T) {
	var e levelEstimate
	steps := []struct {
		level  int
		states int64
		want   []int64
	}{
		{0, 1, []int64{1, 0}},
		{0, 3, []int64{1, 2}},
		{1, 4, []int64{1, 3, 0}},
		{1, 9, []int64{1, 3, 5}},
		{3, 20, []int64{1, 3, 16, 0, 0}}, // level 2 passed between samples: its states land on level 2
	}
	for _, s := range steps {
		if got := e.observe(s.level, s.states); !reflect.DeepEqual(got, s.want) {
			t.Errorf("observe(%d, %d) = %v, want %v", s.level, s.states, got, s.want)
		}
	}
}
