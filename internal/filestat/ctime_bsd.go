//go:build darwin || freebsd || netbsd

package filestat

import (
	"io/fs"
	"syscall"
)

// CTime is the file's status change time in Unix nanoseconds, 0 where
// unknown (see ctime_linux.go).
func CTime(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctimespec.Nano()
	}
	return 0
}
