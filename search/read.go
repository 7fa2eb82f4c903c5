package search

import (
	"bytes"
	"errors"
	"io"
)

// binaryPrefix is how much of a file is looked at for a NUL byte, as git
// and ripgrep do.
const binaryPrefix = 8 << 10

// ErrSkip is returned by a Source for a file the search does not cover
// (binary, grown past MaxFileSize, or gone).
var ErrSkip = errors.New("file not covered by the search")

// Source gives the contents of the files a walk listed. The root reads the
// disk; an index or cache can stand in for it.
type Source interface {
	// Contents returns the file's bytes, reusing buf when it is big enough,
	// or ErrSkip.
	Contents(e Entry, buf []byte) ([]byte, error)
}

// Contents reads a listed file through the project root. It returns ErrSkip
// for a binary file (a NUL byte in its first 8 KiB), one that has grown past
// MaxFileSize, and one that cannot be read any more.
func (r *Root) Contents(e Entry, buf []byte) ([]byte, error) {
	f, err := r.fs.Open(e.Path)
	if err != nil {
		return nil, ErrSkip
	}
	defer f.Close()
	n := int(e.Size) + 1
	if n > MaxFileSize+1 {
		n = MaxFileSize + 1
	}
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
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, ErrSkip
		}
	}
	if len(buf) > MaxFileSize || IsBinary(buf) {
		return nil, ErrSkip
	}
	return buf, nil
}

// IsBinary reports whether data looks binary: a NUL byte in its first
// 8 KiB.
func IsBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binaryPrefix)], 0) >= 0
}
