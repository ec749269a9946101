//go:build !unix

package nativerun

import "os/exec"

func detach(*exec.Cmd) {}
