//go:build js || wasip1

package nativerun

import "errors"

// goTool: there is no go command to run inside WebAssembly.
func goTool() (string, error) {
	return "", errors.New("native code generation needs a native system, not WebAssembly")
}
