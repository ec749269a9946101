package main

// This file implements the directory a run spills its BFS queue into: made
// on the first spill (most runs never spill), removed when the run ends, and
// locked while the run lives so that a later run can remove the leftovers of
// runs that died (killed, or crashed) without touching those still going.

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"sync"

	"github.com/locus-mc/locus/storagefs"
)

// spillPrefix starts the names of spill directories and their lock files:
// base/locus-spill-XXXX/ and base/locus-spill-XXXX.lock.
const spillPrefix = "locus-spill-"

// spillFS is a storagefs.FS whose directory is made on the first write.
type spillFS struct {
	base string // where the directory goes

	mu   sync.Mutex
	fs   storagefs.FS // nil until the first write
	dir  string
	lock *os.File // held while the directory exists
	err  error    // why the directory could not be made
}

// newSpillFS returns the spill store of one run in base (the system's
// temporary directory if base is empty). Nothing is created yet.
func newSpillFS(base string) *spillFS {
	if base == "" {
		base = os.TempDir()
	}
	return &spillFS{base: base}
}

// open makes the directory (once) and returns the store inside it.
func (s *spillFS) open() (storagefs.FS, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fs != nil || s.err != nil {
		return s.fs, s.err
	}
	name, err := randomName()
	if err != nil {
		s.err = err
		return nil, err
	}
	dir := filepath.Join(s.base, spillPrefix+name)
	// The lock comes first: a sweeping run that finds the directory also
	// finds it locked.
	lock, err := lockFile(dir + ".lock")
	if err != nil {
		s.err = err
		return nil, err
	}
	fs, err := storagefs.NewOS(dir, storagefs.Options{})
	if err != nil {
		os.Remove(dir + ".lock")
		unlockFile(lock)
		s.err = err
		return nil, err
	}
	s.fs, s.dir, s.lock = fs, dir, lock
	return fs, nil
}

// current returns the store if the directory exists, else nil.
func (s *spillFS) current() storagefs.FS {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fs
}

// Dir returns the spill directory, or "" if nothing was spilled.
func (s *spillFS) Dir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dir
}

// Remove deletes the directory and its lock, if they were made.
func (s *spillFS) Remove() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fs == nil {
		s.err = errSpillRemoved
		return
	}
	s.fs.Close()
	os.RemoveAll(s.dir)
	os.Remove(s.dir + ".lock") // (the lock was made under another name)
	unlockFile(s.lock)
	s.fs = nil
	// An engine still running after an interrupt must not make another.
	s.err = errSpillRemoved
}

var errSpillRemoved = errors.New("the run's spill directory was removed")

func (s *spillFS) WriteSegment(name string, data []byte) error {
	fs, err := s.open()
	if err != nil {
		return err
	}
	return fs.WriteSegment(name, data)
}

func (s *spillFS) ReadSegment(name string, buf []byte) ([]byte, error) {
	if fs := s.current(); fs != nil {
		return fs.ReadSegment(name, buf)
	}
	return nil, storagefs.ErrNotExist
}

func (s *spillFS) OpenSegment(name string) (storagefs.Segment, error) {
	if fs := s.current(); fs != nil {
		return fs.OpenSegment(name)
	}
	return nil, storagefs.ErrNotExist
}

func (s *spillFS) RemoveSegment(name string) error {
	if fs := s.current(); fs != nil {
		return fs.RemoveSegment(name)
	}
	return storagefs.ErrNotExist
}

func (s *spillFS) ListSegments(prefix string) ([]storagefs.SegmentInfo, error) {
	if fs := s.current(); fs != nil {
		return fs.ListSegments(prefix)
	}
	return nil, nil
}

func (s *spillFS) Space() (storagefs.Space, error) {
	if fs := s.current(); fs != nil {
		return fs.Space()
	}
	return storagefs.Space{Free: -1, Quota: -1, Used: -1}, nil
}

func (s *spillFS) Persist() (bool, error) { return true, nil }

func (s *spillFS) Stats() storagefs.Stats {
	if fs := s.current(); fs != nil {
		return fs.Stats()
	}
	return storagefs.Stats{}
}

func (s *spillFS) Kind() string { return "os" }

// Close keeps the directory (Remove deletes it), as storagefs.FS says.
func (s *spillFS) Close() error { return nil }

func randomName() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// sweepSpills removes the spill directories in base (the temporary
// directory if empty) whose runs are gone: their lock is free. A directory
// being made or used by a live run is always locked, so this is safe while
// other runs start, spill and end.
func sweepSpills(base string) {
	if base == "" {
		base = os.TempDir()
	}
	locks, _ := filepath.Glob(filepath.Join(base, spillPrefix+"*.lock"))
	for _, l := range locks {
		f, ok := tryLockFile(l)
		if !ok {
			continue // a live run, or not ours to judge
		}
		os.RemoveAll(l[:len(l)-len(".lock")])
		os.Remove(l)
		unlockFile(f)
	}
}
