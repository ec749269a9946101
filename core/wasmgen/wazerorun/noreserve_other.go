//go:build unix && !linux

package wazerorun

const mapNoReserve = 0
