//go:build unix

package gitread

import (
	"io/fs"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// sameOwner reports whether fi's inode, user and group are the index
// entry's, as git checks them.
func sameOwner(e *index.Entry, fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || (uint32(st.Ino) == e.Inode && st.Uid == e.UID && st.Gid == e.GID)
}
