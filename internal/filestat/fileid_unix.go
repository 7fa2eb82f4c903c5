//go:build unix

package filestat

import (
	"io/fs"
	"syscall"
)

// IDOf reads the device and inode of a file from its stat record.
func IDOf(fi fs.FileInfo) ID {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return ID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}
	}
	return ID{}
}
