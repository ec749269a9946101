//go:build darwin || freebsd || netbsd || openbsd

package main

import (
	"os/exec"
	"syscall"
)

// detach puts the child in its own process group, so that a Ctrl-C reaches
// it once (passed on by the supervisor) and not also from the terminal.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
