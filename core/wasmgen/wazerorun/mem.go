//go:build !js

package wazerorun

// sliceMemory is a linear memory in a Go slice that grows by copying, as
// wazero's own: where no mapping can be reserved.
type sliceMemory struct {
	buf []byte
	max uint64 // 0: none
}

func (m *sliceMemory) Reallocate(size uint64) []byte {
	if m.max > 0 && size > m.max {
		return nil
	}
	if size > uint64(cap(m.buf)) {
		b := make([]byte, size, max(size, 2*uint64(cap(m.buf))))
		copy(b, m.buf)
		m.buf = b
	}
	m.buf = m.buf[:size]
	return m.buf
}

func (m *sliceMemory) Free() { m.buf = nil }
