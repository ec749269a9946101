package main

import (
	"os/exec"
	"syscall"
)

// detach puts the child in its own process group, so that a Ctrl-C reaches
// it once (passed on by the supervisor) and not also from the terminal, and
// has the kernel stop it if the supervisor dies.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
