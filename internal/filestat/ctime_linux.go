package filestat

import (
	"io/fs"
	"syscall"
)

// CTime is the file's status change time in Unix nanoseconds, 0 where
// unknown. Every write sets it, and nothing can set it back, so a file
// rewritten and given its old modification time back still shows.
func CTime(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctim.Nano()
	}
	return 0
}
