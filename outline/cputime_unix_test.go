//go:build unix

package outline

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system. A test
// that checks that work stops near a deadline measures it rather than the
// wall clock, which a loaded machine stretches (tree-sitter's deadline is
// on the wall clock, so it stops such work sooner, never later).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
