package search

import (
	"runtime"
	"syscall"
)

// lowerThread locks the calling goroutine to its thread and lowers the
// thread's CPU priority by 10 nice levels (to 19 at most), so that any
// other thread that wants the CPU — the agent's, or this server's own
// answers — takes it first. It reports whether the priority was lowered.
// The caller must not unlock the thread: the runtime ends a locked thread
// with its goroutine, so a lowered thread is never reused for other work.
func lowerThread() bool {
	runtime.LockOSThread()
	tid := syscall.Gettid()
	// The raw getpriority system call gives 20 - nice.
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err != nil {
		return false
	}
	nice := min(20-raw+10, 19)
	return syscall.Setpriority(syscall.PRIO_PROCESS, tid, nice) == nil
}

// lowPriority reports whether background threads can be lowered.
const lowPriority = true
