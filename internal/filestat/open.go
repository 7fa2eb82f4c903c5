package filestat

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is the error of opening something that is not a regular
// file (a named pipe, a device, a socket, a folder) for its contents.
var ErrNotRegular = errors.New("not a regular file")

// Every file zumba reads is opened O_NONBLOCK, which keeps the open of a
// named pipe (FIFO) or a device from waiting for a writer forever, and
// anything that is not a regular file is refused right after (by
// CheckRegular), before a read could wait on it instead.

// OpenRegular opens a file outside any project (the diagnostics file, the
// disk cache) for reading, without blocking; see ErrNotRegular.
func OpenRegular(path string) (*os.File, error) {
	return CheckRegular(os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0))
}

// CheckRegular passes on the result of an open when it is a regular file,
// and otherwise closes it and returns an error wrapping ErrNotRegular.
func CheckRegular(f *os.File, err error) (*os.File, error) {
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: f.Name(), Err: ErrNotRegular}
	}
	return f, nil
}
