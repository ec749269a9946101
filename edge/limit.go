// This file defines the rate-limit seam: Workers' rate-limiting binding in
// production, a fixed-window counter in tests and native runs.

package edge

import (
	"sync"
	"time"
)

// Limiter decides whether one more request from a client is allowed now.
type Limiter interface {
	Allow(key string) (bool, error)
}

// MemLimiter allows Limit requests per key in each Period-long window, as
// the Workers binding's "simple" limiter does.
type MemLimiter struct {
	Limit  int
	Period time.Duration
	Now    func() time.Time // nil: time.Now

	mu      sync.Mutex
	windows map[string]window
}

type window struct {
	start time.Time
	count int
}

// Allow implements Limiter.
func (l *MemLimiter) Allow(key string) (bool, error) {
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	t := now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.windows == nil {
		l.windows = make(map[string]window)
	}
	w := l.windows[key]
	if t.Sub(w.start) >= l.Period {
		w = window{start: t}
	}
	w.count++
	l.windows[key] = w
	return w.count <= l.Limit, nil
}
