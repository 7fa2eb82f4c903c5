//go:build unix

package mcpserver

import "syscall"

// fdLimit is the process's limit of open descriptors, 0 when unknown.
func fdLimit() int {
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl) != nil || rl.Cur > 1<<30 {
		return 0
	}
	return int(rl.Cur)
}
