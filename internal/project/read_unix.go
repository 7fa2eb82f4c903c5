//go:build unix

package project

import (
	"io"
	"os"
	"syscall"

	"github.com/zumba-dev/zumba/internal/filestat"
)

// openInDir opens the file base (a name, no "/") inside the open folder
// dir, without following a symbolic link: one openat instead of os.Root's
// walk of every path component, and no os.File around the descriptor.
// O_NONBLOCK keeps a FIFO that replaced a file from blocking the open, and
// anything but a regular file is refused before it is read; ELOOP (a
// link) makes the caller fall back to os.Root, which follows links
// that stay in the project.
func openInDir(dir *os.File, base string) (io.ReadCloser, error) {
	for {
		fd, err := syscall.Openat(int(dir.Fd()), base, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			syscall.Close(fd)
			return nil, filestat.ErrNotRegular
		}
		return rawFile(fd), nil
	}
}

// rawFile reads a descriptor with plain system calls.
type rawFile int

func (f rawFile) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), p)
		if err == syscall.EINTR {
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

func (f rawFile) Close() error { return syscall.Close(int(f)) }
