package storagefs

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"testing"

	"github.com/hack-pad/hackpadfs/mem"
)

// TestMapErr checks how backend errors become sentinels: a full disk is a
// quota error, a missing file is ErrNotExist unless its directory is gone.
var errDisk = errors.New("disk on fire")

func TestMapErr(t *testing.T) {
	m, err := mem.NewFS()
	if err != nil {
		t.Fatal(err)
	}
	present := &hpDriver{fs: m, dir: "."}
	absent := &hpDriver{fs: m, dir: "gone"}
	tests := []struct {
		name string
		d    *hpDriver
		err  error
		want error
		text string // substring of the message
	}{
		{"enospc", present, &fs.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}, ErrQuotaExceeded, "quota exceeded"},
		{"edquot", present, syscall.EDQUOT, ErrQuotaExceeded, "quota exceeded"},
		{"missing file", present, &fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist}, ErrNotExist, "not exist"},
		{"missing dir", absent, &fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist}, ErrStoreGone, "deleted"},
		{"other", present, errDisk, errDisk, "disk on fire"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.d.mapErr(tt.err)
			if !errors.Is(got, tt.want) {
				t.Fatalf("mapErr(%v) = %v, want %v", tt.err, got, tt.want)
			}
			if !errors.Is(got, tt.err) && tt.want != ErrNotExist {
				t.Fatalf("mapErr(%v) = %v, lost the cause", tt.err, got)
			}
			if !strings.Contains(got.Error(), tt.text) {
				t.Fatalf("mapErr(%v) = %q, want it to mention %q", tt.err, got, tt.text)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	err := error(&Error{Op: "write", Kind: "opfs", Name: "q-1", Err: because(ErrQuotaExceeded, errors.New("QuotaExceededError: full"))})
	const want = "storage (opfs): write q-1: storage quota exceeded (QuotaExceededError: full)"
	if err.Error() != want {
		t.Fatalf("Error() = %q, want %q", err, want)
	}
	if !errors.Is(err, ErrQuotaExceeded) {
		t.Fatalf("errors.Is(%v, ErrQuotaExceeded) = false", err)
	}
}

func TestValidName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"q-000001", true}, {"A.b_c-9", true}, {"", false}, {".x", false},
		{"a/b", false}, {"a b", false}, {strings.Repeat("x", MaxNameLen), true},
		{strings.Repeat("x", MaxNameLen+1), false},
	}
	for _, tt := range tests {
		if got := ValidName(tt.name); got != tt.want {
			t.Errorf("ValidName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
