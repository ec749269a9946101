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
		{0, 3, []int64{1, 2}},              // first sample: levels 0 and 1
		{0, 5, []int64{1, 4}},              // still expanding level 0: new states on level 1
		{1, 9, []int64{1, 6, 2}},           // expanded level 1 since: levels 1 and 2
		{4, 30, []int64{1, 6, 7, 5, 5, 6}}, // levels 2..5 share the 21 new states
		{4, 30, []int64{1, 6, 7, 5, 5, 6}}, // nothing new
	}
	for _, s := range steps {
		got := e.observe(s.level, s.states)
		if !reflect.DeepEqual(got, s.want) {
			t.Errorf("observe(%d, %d) = %v, want %v", s.level, s.states, got, s.want)
		}
		var sum int64
		for _, n := range got {
			sum += n
		}
		if sum != s.states {
			t.Errorf("observe(%d, %d): sizes add up to %d", s.level, s.states, sum)
		}
	}
}
