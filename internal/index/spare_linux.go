package index

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// machineCPU returns the CPU time every core of the machine has spent
// busy (not idle or waiting for I/O) and this process's own CPU time, or
// ok false where they cannot be read.
func machineCPU() (busy, self time.Duration, ok bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, false
	}
	line, _, _ := bytes.Cut(b, []byte{'\n'})
	f := bytes.Fields(line)
	if len(f) < 6 || string(f[0]) != "cpu" {
		return 0, 0, false
	}
	var ticks int64
	for i, s := range f[1:] {
		n, err := strconv.ParseInt(string(s), 10, 64)
		if err != nil {
			return 0, 0, false
		}
		if i == 3 || i == 4 {
			// idle, iowait
			continue
		}
		if i == 7 {
			// steal, then guest times, counted in user already
			break
		}
		ticks += n
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, 0, false
	}
	// The kernel counts /proc/stat in USER_HZ ticks, 100 a second on
	// every Linux architecture.
	return time.Duration(ticks) * 10 * time.Millisecond,
		time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
