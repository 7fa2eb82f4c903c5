//go:build unix

package mcpserver

import (
	"syscall"
	"testing"
)

// mkfifo makes a named pipe at p.
func mkfifo(t testing.TB, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}
