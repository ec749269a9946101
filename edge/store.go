// This file defines the storage seam: Workers KV in production, a map in
// tests and native runs.

package edge

import (
	"sync"
)

// KV is the part of a key-value store the edge needs.
type KV interface {
	// Get returns the value stored under key; ok is false if there is none.
	Get(key string) (value string, ok bool, err error)
	// Put stores value under key.
	Put(key, value string) error
}

// kvNull is what github.com/syumai/workers's GetString returns, with a nil
// error, for a key that is not there: the JavaScript null turned into a Go
// string.
const kvNull = "<null>"

// FromWorkersKV maps the result of a Workers KV GetString to Get's: the
// "<null>" string means not found. No stored document can be "<null>"
// (every one is a JSON object).
func FromWorkersKV(value string, err error) (string, bool, error) {
	if err != nil {
		return "", false, err
	}
	if value == kvNull {
		return "", false, nil
	}
	return value, true, nil
}

// MemKV is an in-memory KV for tests and native runs.
type MemKV struct {
	mu   sync.Mutex
	m    map[string]string
	Gets int // lookups made, so tests can see that bad ids never reach the store
	Puts int
}

// NewMemKV returns an empty MemKV.
func NewMemKV() *MemKV { return &MemKV{m: make(map[string]string)} }

// Get implements KV.
func (s *MemKV) Get(key string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Gets++
	v, ok := s.m[key]
	return v, ok, nil
}

// Put implements KV.
func (s *MemKV) Put(key, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Puts++
	s.m[key] = value
	return nil
}

// Len is the number of stored keys.
func (s *MemKV) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}
