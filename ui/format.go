// This file formats numbers for people: counts, bytes, durations, rates.

package ui

import (
	"fmt"
	"strconv"
)

// count prints n with thousands separators: 1234567 -> "1,234,567".
func count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// byteSize prints n with a binary unit: 1536 -> "1.5 KiB".
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// seconds prints a duration in seconds: 0.0123 -> "12 ms", 75.5 -> "1 min 15.5 s".
func seconds(s float64) string {
	switch {
	case s < 1:
		return fmt.Sprintf("%.0f ms", s*1000)
	case s < 60:
		return fmt.Sprintf("%.2f s", s)
	case s < 3600:
		m := int(s / 60)
		return fmt.Sprintf("%d min %.1f s", m, s-float64(m*60))
	default:
		h := int(s / 3600)
		return fmt.Sprintf("%d h %d min", h, int(s-float64(h*3600))/60)
	}
}

// rate prints a per-second rate rounded to a readable precision.
func rate(r float64) string {
	switch {
	case r >= 1e6:
		return fmt.Sprintf("%.2f M/s", r/1e6)
	case r >= 1e4:
		return fmt.Sprintf("%.0f k/s", r/1e3)
	case r >= 1e3:
		return fmt.Sprintf("%.1f k/s", r/1e3)
	default:
		return fmt.Sprintf("%.0f /s", r)
	}
}

// levelEstimate estimates the number of new states at each BFS level from
// progress samples, until the result brings the exact sizes. While level l
// is expanded the states found are on level l+1, so the states found
// between two samples belong to the levels after the ones expanded in
// between; levels are often expanded faster than samples arrive, so the
// growth is spread evenly over them.
type levelEstimate struct {
	sizes  []int64
	level  int   // level of the last sample
	states int64 // states at the last sample
	seen   bool
}

func (e *levelEstimate) observe(level int, states int64) []int64 {
	first := e.level + 1 // first level the new states may be on
	if !e.seen {
		first = 0
		e.seen = true
	}
	last := level + 1
	if first > last {
		first = last
	}
	for len(e.sizes) <= last {
		e.sizes = append(e.sizes, 0)
	}
	delta := states - e.states
	n := int64(last - first + 1)
	for l := first; l <= last; l++ {
		e.sizes[l] += delta / n
	}
	for r, l := delta%n, last; r > 0; r, l = r-1, l-1 {
		e.sizes[l]++
	}
	e.level, e.states = level, states
	return append([]int64(nil), e.sizes...)
}
