//go:build unix

package wazerorun

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// reservedMemory backs a linear memory with one mapping of its maximum
// size, of which the pages are committed as they are first touched: it
// grows without copying. (wazero's own memory is a Go slice that grows by
// copying, and a search that grows to gigabytes spent more time in the
// kernel than computing: 31 of cache3's 76 CPU seconds.)
type reservedMemory struct{ buf []byte }

func (m *reservedMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size]
}

func (m *reservedMemory) Free() {
	if m.buf != nil {
		syscall.Munmap(m.buf)
		m.buf = nil
	}
}

// allocate reserves max bytes, or, where the system refuses the mapping
// (a strict overcommit policy), falls back to a growing slice.
func allocate(capacity, max uint64) experimental.LinearMemory {
	if max > 0 && max <= 1<<32 {
		buf, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|mapNoReserve)
		if err == nil {
			return &reservedMemory{buf: buf}
		}
	}
	return &sliceMemory{buf: make([]byte, 0, capacity), max: max}
}

// reserved reports whether m is a reserved mapping (it does not move).
func reserved(m experimental.LinearMemory) bool {
	_, ok := m.(*reservedMemory)
	return ok
}
