//go:build unix

package search

import (
	"io/fs"
	"syscall"
)

// fileID reads the device and inode of a file from its stat record.
func fileID(fi fs.FileInfo) FileID {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return FileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}
	}
	return FileID{}
}
