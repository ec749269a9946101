package main

import "syscall"

// physicalMemory is the machine's memory in bytes (0 if unknown).
func physicalMemory() int64 {
	var info syscall.Sysinfo_t
	if syscall.Sysinfo(&info) != nil {
		return 0
	}
	return int64(info.Totalram) * int64(info.Unit)
}
