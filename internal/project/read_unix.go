//go:build unix

package project

import (
	"io"
	"os"

	"golang.org/x/sys/unix"

	"github.com/zumba-dev/zumba/internal/filestat"
)

// openInDir opens the file base (a name, no "/") inside the open folder
// dir, without following a symbolic link: one openat instead of os.Root's
// walk of every path component, and no os.File around the descriptor.
// O_NONBLOCK keeps a FIFO that replaced a file from blocking the open, and
// anything but a regular file is refused before it is read; ELOOP (a
// link) makes the caller fall back to os.Root, which follows links
// that stay in the project. The calls are x/sys/unix's: the syscall
// package has no Openat on darwin or the BSDs.
func openInDir(dir *os.File, base string) (io.ReadCloser, error) {
	for {
		fd, err := unix.Openat(int(dir.Fd()), base, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			unix.Close(fd)
			return nil, filestat.ErrNotRegular
		}
		return rawFile(fd), nil
	}
}

// rawFile reads a descriptor with plain system calls.
type rawFile int

func (f rawFile) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(int(f), p)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f rawFile) Close() error { return unix.Close(int(f)) }
