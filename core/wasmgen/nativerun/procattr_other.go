//go:build !unix

package nativerun

import "os/exec"

func detach(*exec.Cmd) {}

func killGroup(*exec.Cmd) {}
