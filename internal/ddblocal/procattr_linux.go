package ddblocal

import "syscall"

// dieWithParent makes the kernel kill the server when the test binary
// dies, even by SIGKILL or a test timeout, so no java process outlives it.
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
