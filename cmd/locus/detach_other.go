//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package main

import "os/exec"

// detach does nothing where processes have no groups to move the child to.
func detach(*exec.Cmd) {}
