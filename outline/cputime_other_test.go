//go:build !linux

package outline

import "time"

// threadCPU runs f and returns how long it took: the wall time, where the
// thread's CPU time is not read (see cputime_linux_test.go).
func threadCPU(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}
