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
// is expanded, the states found are level l+1 states, so the state count
// when level l is first seen is the number of states in levels 0..l.
type levelEstimate struct {
	marks []int64 // marks[l]: states when level l was first seen being expanded
}

func (e *levelEstimate) observe(level int, states int64) []int64 {
	for len(e.marks) <= level {
		e.marks = append(e.marks, states)
	}
	sizes := make([]int64, len(e.marks)+1)
	prev := int64(0)
	for l, m := range e.marks {
		sizes[l] = m - prev
		prev = m
	}
	sizes[len(e.marks)] = states - prev
	return sizes
}
