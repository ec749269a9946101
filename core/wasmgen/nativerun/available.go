package nativerun

import "runtime"

// Available says why the runtime cannot run here, or "": it needs a
// 64-bit little-endian Unix and the go command.
func Available() string {
	if _, err := goTool(); err != nil {
		return err.Error()
	}
	return platform()
}

func platform() string {
	switch {
	case runtime.GOOS == "windows" || runtime.GOOS == "plan9":
		return "native code generation needs a Unix system"
	case !littleEndian64[runtime.GOARCH]:
		return "native code generation needs a 64-bit little-endian processor, not " + runtime.GOARCH
	}
	return ""
}

var littleEndian64 = map[string]bool{"amd64": true, "arm64": true, "riscv64": true, "loong64": true, "ppc64le": true, "mips64le": true}
