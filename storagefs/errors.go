package storagefs

// This file defines the errors every backend reports.

import (
	"errors"
	"io/fs"
)

// Sentinels, tested with errors.Is on the *Error a store returns.
var (
	ErrNotExist      = fs.ErrNotExist // no segment of that name
	ErrExist         = fs.ErrExist    // segments are write-once
	ErrInvalidName   = errors.New("invalid segment name")
	ErrTooLarge      = errors.New("segment larger than 16 MiB")
	ErrQuotaExceeded = errors.New("storage quota exceeded")
	ErrStoreGone     = errors.New("storage was deleted while in use")
	ErrUnavailable   = errors.New("storage backend not available here")
	ErrClosed        = fs.ErrClosed // the store or segment was closed
)

// Error records a failed store operation.
type Error struct {
	Op   string // "write", "read", "open", "remove", "list", "space", "persist", "close"
	Kind string // backend, as FS.Kind
	Name string // segment or prefix, if any
	Err  error  // a sentinel, possibly wrapping the backend's own error
}

func (e *Error) Error() string {
	s := "storage (" + e.Kind + "): " + e.Op
	if e.Name != "" {
		s += " " + e.Name
	}
	return s + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// causeError is a sentinel with the backend's own error as detail, so a
// message reads "storage quota exceeded (QuotaExceededError: ...)" and
// errors.Is matches both the sentinel and the cause.
type causeError struct {
	sentinel error
	cause    error
}

func (e *causeError) Error() string {
	return e.sentinel.Error() + " (" + e.cause.Error() + ")"
}

func (e *causeError) Unwrap() []error { return []error{e.sentinel, e.cause} }

// because wraps cause under sentinel; a cause that already matches the
// sentinel is returned unchanged.
func because(sentinel, cause error) error {
	if cause == nil || cause == sentinel {
		return sentinel
	}
	if errors.Is(cause, sentinel) {
		return cause
	}
	return &causeError{sentinel, cause}
}
