package main

import (
	"fmt"
	"strconv"
	"strings"
)

// parseSize reads a memory size: K, M, G (or KB, MB, GB, KiB, MiB, GiB, any
// case) are powers of 1024; a bare number means MiB, as CMurphi's -m does.
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	if t == "" {
		return 0, fmt.Errorf("empty size")
	}
	mult := float64(1 << 20)
	for _, u := range []struct {
		suffix string
		mult   float64
	}{
		{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
		{"kb", 1 << 10}, {"mb", 1 << 20}, {"gb", 1 << 30}, {"tb", 1 << 40},
		{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40},
		{"b", 1},
	} {
		if strings.HasSuffix(t, u.suffix) {
			t = strings.TrimSpace(strings.TrimSuffix(t, u.suffix))
			mult = u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || v != v {
		return 0, fmt.Errorf("bad size %q: use a number with an optional K, M or G suffix (powers of 1024; a bare number means MiB)", s)
	}
	n := v * mult
	if n > 1<<62 {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return int64(n), nil
}
