//go:build unix

package search

import (
	"syscall"
	"testing"
)

// mkfifo makes a named pipe at p.
func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}
