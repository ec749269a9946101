//go:build unix

package nativerun

import (
	"os/exec"
	"syscall"
)

// detach puts the program in a process group of its own: an interrupt
// from the terminal reaches the host alone, which stops the search
// between calls and reports its counts, rather than losing the program
// in the middle of one.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup makes cancelling cmd kill its process group: go build's
// compiler and linker, not the go command alone.
func killGroup(cmd *exec.Cmd) {
	detach(cmd)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
