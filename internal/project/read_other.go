//go:build !unix

package project

import (
	"errors"
	"io"
	"os"
)

// openInDir is not available here; the caller falls back to os.Root.
func openInDir(dir *os.File, base string) (io.ReadCloser, error) {
	return nil, errors.ErrUnsupported
}
