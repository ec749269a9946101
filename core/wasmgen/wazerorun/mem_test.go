//go:build !js

package wazerorun

import (
	"bytes"
	"testing"
)

// TestMemoryGrowsInPlace: a linear memory keeps its contents and, where a
// mapping could be reserved, its address as it grows; it refuses to grow
// past its maximum.
func TestMemoryGrowsInPlace(t *testing.T) {
	const page, max = 1 << 16, 64 << 16
	m := allocate(page, max)
	defer m.Free()
	b := m.Reallocate(page)
	if len(b) != page {
		t.Fatalf("Reallocate(%d) = %d bytes", page, len(b))
	}
	copy(b, "kept across growth")
	first := &b[0]
	b = m.Reallocate(40 * page)
	if len(b) != 40*page || !bytes.HasPrefix(b, []byte("kept across growth")) {
		t.Fatalf("after growing to 40 pages: %d bytes, prefix %q", len(b), b[:18])
	}
	if reserved(m) && &b[0] != first {
		t.Error("a reserved memory moved as it grew")
	}
	if b[40*page-1] != 0 {
		t.Error("grown memory is not zero")
	}
	if b := m.Reallocate(max + page); b != nil && len(b) > max {
		t.Fatalf("Reallocate past the maximum gave %d bytes", len(b))
	}
}

func TestSliceMemory(t *testing.T) {
	m := &sliceMemory{}
	b := m.Reallocate(10)
	copy(b, "0123456789")
	b = m.Reallocate(1 << 20)
	if string(b[:10]) != "0123456789" || len(b) != 1<<20 {
		t.Fatalf("sliceMemory lost its contents growing: %q, %d bytes", b[:10], len(b))
	}
}
