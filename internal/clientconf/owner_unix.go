//go:build unix

package clientconf

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// owner is a file's user and group, to be given to the file that
// replaces it; the zero owner changes nothing.
type owner struct {
	uid, gid int
	set      bool
}

// ownerOf is the owner of the file fi describes.
func ownerOf(fi fs.FileInfo) owner {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return owner{int(st.Uid), int(st.Gid), true}
	}
	return owner{}
}

// newOwner is the owner of a file made in dir: when root makes it (setup
// run with a user's HOME), the owner of dir or of the nearest folder
// above it that exists; otherwise whoever makes it, as always.
func newOwner(dir string) owner {
	if os.Geteuid() != 0 {
		return owner{}
	}
	for {
		if fi, err := os.Stat(dir); err == nil {
			return ownerOf(fi)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return owner{}
		}
		dir = parent
	}
}

// apply gives path the owner o, when it has another (path is a file or
// folder setup has just made, not a link).
func (o owner) apply(path string) error {
	if !o.set {
		return nil
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if ownerOf(fi) == o {
		return nil
	}
	return os.Lchown(path, o.uid, o.gid)
}

// sameOwner reports whether a link and the file it leads to belong to
// the same user, and that user is the one running setup (or setup runs
// as root, on behalf of the link's owner).
func sameOwner(link, target fs.FileInfo) bool {
	l, t := ownerOf(link), ownerOf(target)
	if !l.set || !t.set {
		return false
	}
	euid := os.Geteuid()
	return l.uid == t.uid && (euid == 0 || t.uid == euid)
}
