package search

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is the error of opening something that is not a regular
// file (a named pipe, a device, a socket, a folder) for its contents.
var ErrNotRegular = errors.New("not a regular file")

// Every file zumba reads is opened through openRegular or OpenRegular:
// O_NONBLOCK keeps the open of a named pipe (FIFO) or a device from
// waiting for a writer forever, and anything that is not a regular file is
// refused right after, before a read could wait on it instead.

// openRegular opens the project file rel for reading through the root,
// which follows links only while they stay inside the project.
func (r *Root) openRegular(rel string) (*os.File, error) {
	return checkRegular(r.openFile(rel))
}

// OpenRegular opens a file outside any project (the diagnostics file, the
// disk cache) for reading, without blocking; see ErrNotRegular.
func OpenRegular(path string) (*os.File, error) {
	return checkRegular(os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0))
}

func checkRegular(f *os.File, err error) (*os.File, error) {
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

// openDir opens the project folder rel for listing, without blocking on
// something that replaced it; the caller checks that it is a folder.
func (r *Root) openDir(rel string) (*os.File, error) {
	return r.openFile(rel)
}
