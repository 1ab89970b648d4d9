//go:build !linux

package ddblocal

import "syscall"

// dieWithParent has no portable equivalent outside Linux; there the
// server is stopped by Main only.
func dieWithParent() *syscall.SysProcAttr { return nil }
