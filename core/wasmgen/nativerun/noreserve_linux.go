//go:build linux

package nativerun

import "syscall"

// mapNoReserve asks the kernel not to reserve swap for the mapping.
const mapNoReserve = syscall.MAP_NORESERVE

// madvHugePage asks for transparent huge pages (MADV_HUGEPAGE).
const madvHugePage = 14
