package project

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/zumba-dev/zumba/internal/filestat"
)

// BinaryPrefix is how much of a file is looked at for a NUL byte, as git
// and ripgrep do.
const BinaryPrefix = 8 << 10

// ErrSkip is returned by a Source for a file the search does not cover
// (binary, grown past MaxFileSize, not a regular file, or gone).
var ErrSkip = errors.New("file not covered by the search")

// ErrUnreadable is returned by a Source for a file the search covers but
// could not read this time (permission denied, too many open files, an I/O
// error). Unlike ErrSkip it says nothing of the file's contents: an index
// must not remember it as empty, and tries it again later.
var ErrUnreadable = errors.New("file could not be read")

// Source gives the contents of the files a walk listed. The root reads the
// disk; an index or cache can stand in for it.
type Source interface {
	// Contents returns the file's bytes, or ErrSkip or ErrUnreadable. The bytes may live in
	// sc's buffer, valid until the next call with sc.
	Contents(e Entry, sc *Scratch) ([]byte, error)
}

// Scratch is one worker's reusable reading state: a buffer, and the
// folder it read from last (files come in path order, so mostly from the
// same folder). Close it when done.
type Scratch struct {
	buf     []byte
	dir     string
	dirFile *os.File
}

// Close releases the open folder.
func (sc *Scratch) Close() {
	if sc.dirFile != nil {
		sc.dirFile.Close()
		sc.dirFile, sc.dir = nil, ""
	}
}

// open opens a listed file for reading: relative to the folder sc holds
// open when it can, else through os.Root.
func (r *Root) open(rel string, sc *Scratch) (io.ReadCloser, error) {
	dir, base := ".", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, base = rel[:i], rel[i+1:]
	}
	if r.OpenHook != nil {
		if err := r.OpenHook(rel); err != nil {
			return nil, err
		}
	}
	if sc.dir != dir || sc.dirFile == nil {
		sc.Close()
		if d, err := r.openDir(dir); err == nil {
			sc.dir, sc.dirFile = dir, d
		}
	}
	if sc.dirFile != nil && base != "." && base != ".." && base != "" {
		f, err := openInDir(sc.dirFile, base)
		if err == nil {
			return f, nil
		}
		if errors.Is(err, filestat.ErrNotRegular) {
			return nil, err
		}
	}
	// A link, or no folder: through the root, which follows links that
	// stay in the project, still without blocking.
	f, err := r.openRegular(rel)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Contents reads a listed file through the project root. It returns ErrSkip
// for a binary file (a NUL byte in its first 8 KiB), one that has grown past
// MaxFileSize, one that is gone or no longer a regular file; and
// ErrUnreadable for one that is there but could not be read.
func (r *Root) Contents(e Entry, sc *Scratch) ([]byte, error) {
	if sc == nil {
		sc = &Scratch{}
		defer sc.Close()
	}
	f, err := r.open(e.Path, sc)
	if err != nil {
		return nil, readError(err)
	}
	defer f.Close()
	n := int(e.Size) + 1
	if n > MaxFileSize+1 {
		n = MaxFileSize + 1
	}
	buf := sc.buf
	if cap(buf) < n {
		buf = make([]byte, 0, n)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			if len(buf) > MaxFileSize {
				return nil, ErrSkip
			}
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err == io.EOF || (err == nil && m == 0) {
			break
		}
		if err != nil {
			return nil, ErrUnreadable
		}
	}
	sc.buf = buf
	if len(buf) > MaxFileSize || IsBinary(buf) {
		return nil, ErrSkip
	}
	return buf, nil
}

// readError sorts a failed open: a file gone, or no longer a file the
// search covers, is skipped; any other failure (EACCES, EMFILE, EIO) is a
// failure to read a file that is there.
func readError(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, filestat.ErrNotRegular),
		errors.Is(err, syscall.ENOTDIR), errors.Is(err, syscall.ELOOP),
		isEscape(err):
		return ErrSkip
	}
	return ErrUnreadable
}

// IsBinary reports whether data looks binary: a NUL byte in its first
// 8 KiB.
func IsBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), BinaryPrefix)], 0) >= 0
}
