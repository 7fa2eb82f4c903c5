package outline

import (
	"runtime"
	"syscall"
	"time"
)

// threadCPU runs f locked to one OS thread and returns the CPU time that
// thread spent on it. A parse runs on the calling thread (cgo calls do),
// so this is the parse's own work: unlike its wall time, it does not grow
// when other processes share the cores. Deadline tests bound it, so that
// they check the deadline stops the work, not how busy the machine is.
func threadCPU(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := threadRusage()
	f()
	return threadRusage() - before
}

func threadRusage() time.Duration {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
