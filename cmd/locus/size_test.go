package main

import "testing"

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"64", 64 << 20}, {"64M", 64 << 20}, {"64MB", 64 << 20}, {"64MiB", 64 << 20}, {"64mib", 64 << 20},
		{"1G", 1 << 30}, {"1GiB", 1 << 30}, {"2gb", 2 << 30}, {"512K", 512 << 10}, {"512KiB", 512 << 10},
		{"1.5G", 3 << 29}, {"100B", 100}, {" 8 M ", 8 << 20},
	} {
		got, err := parseSize(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "x", "-1", "12Q", "M", "NaN"} {
		if _, err := parseSize(bad); err == nil {
			t.Errorf("parseSize(%q) succeeded", bad)
		}
	}
}
