//go:build js || wasip1

package nativerun

import "errors"

func goTool() (string, error) {
	return "", errors.New("native code generation needs a native system, not " + runtimeName)
}

const runtimeName = "WebAssembly"
