//go:build linux

package nativerun

import "syscall"

// mapNoReserve asks the kernel not to reserve swap for the mapping.
const mapNoReserve = syscall.MAP_NORESERVE
