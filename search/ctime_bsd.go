//go:build darwin || freebsd || netbsd

package search

import (
	"io/fs"
	"syscall"
)

// fileCTime is the file's status change time in Unix nanoseconds, 0 where
// unknown (see ctime_linux.go).
func fileCTime(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctimespec.Nano()
	}
	return 0
}
