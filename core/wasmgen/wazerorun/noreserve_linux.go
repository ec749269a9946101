//go:build linux

package wazerorun

import "syscall"

const mapNoReserve = syscall.MAP_NORESERVE
