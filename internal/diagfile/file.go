package diagfile

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/zumba-dev/zumba/internal/filestat"
)

const (
	// MaxSize bounds the diagnostics file read into memory.
	MaxSize = 256 << 20
	// DefaultRetryPause is how long a half-written file is given to be
	// finished before it is read again.
	DefaultRetryPause = 50 * time.Millisecond
)

// Options tune a File.
type Options struct {
	// RetryPause is how long a file caught half-written is given to be
	// finished; 0 means DefaultRetryPause.
	RetryPause time.Duration
	// BeforeRetry, when set, runs when a half-written file is about to be
	// read again (tests finish writing it there).
	BeforeRetry func()
}

// File is an editor's diagnostics file, read at each Load, keeping the
// version it last parsed so that an unchanged file is not parsed again.
// It is safe for concurrent use.
type File struct {
	path string // absolute
	opts Options

	mu      sync.Mutex
	cached  bool
	fi      fs.FileInfo // of the cached version
	readAt  time.Time   // when the cached version was read
	sum     [sha256.Size]byte
	entries []Entry
	err     error // the cached version's problem, if any
}

// Open returns the diagnostics file at path, which need not exist yet.
// Nothing is read until Load.
func Open(path string, opts Options) *File {
	if opts.RetryPause <= 0 {
		opts.RetryPause = DefaultRetryPause
	}
	return &File{path: path, opts: opts}
}

// Path is the file's path, as given to Open.
func (d *File) Path() string { return d.path }

// Load returns the file's diagnostics and its modification time. A file
// that does not exist has none. A file that cannot be read, is not JSON
// or has a shape this package does not read is an error naming the file.
func (d *File) Load(ctx context.Context) ([]Entry, time.Time, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	fi, err := os.Stat(d.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, d.readError(err)
	}
	// The cached version stands when the file is the same one, unchanged
	// by its stat, and was not modified within filestat.RacyWindow of
	// being read (a rewrite in the same clock tick keeps size and time).
	if d.cached && sameVersion(d.fi, fi) && !filestat.Of(fi).RacyAt(d.readAt.UnixNano()) {
		return d.entries, d.fi.ModTime(), d.err
	}
	data, fi, readAt, err := d.read()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	entries, perr := d.parse(data)
	var se *syntaxError
	if errors.As(perr, &se) || len(bytes.TrimSpace(data)) == 0 {
		// Caught half-written (or truncated before being written): give
		// the editor a moment to finish, then read again.
		if d.opts.BeforeRetry != nil {
			d.opts.BeforeRetry()
		}
		select {
		case <-ctx.Done():
			return nil, time.Time{}, ctx.Err()
		case <-time.After(d.opts.RetryPause):
		}
		data, fi, readAt, err = d.read()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, time.Time{}, nil
		}
		if err != nil {
			return nil, time.Time{}, err
		}
		entries, perr = d.parse(data)
	}
	d.cached, d.fi, d.readAt, d.sum = true, fi, readAt, sha256.Sum256(data)
	d.entries, d.err = entries, perr
	return entries, fi.ModTime(), perr
}

// parse parses data, reusing the cached result when the bytes are the same.
func (d *File) parse(data []byte) ([]Entry, error) {
	if d.cached && sha256.Sum256(data) == d.sum {
		return d.entries, d.err
	}
	entries, err := Parse(data)
	var se *syntaxError
	switch {
	case errors.As(err, &se):
		return nil, fmt.Errorf("diagnostics file %s is not valid JSON: %w", d.path, err)
	case err != nil:
		return nil, fmt.Errorf("diagnostics file %s has a shape zumba does not read: %w", d.path, err)
	}
	return entries, nil
}

// read reads the whole file with the FileInfo of what was read and the time
// the reading started.
func (d *File) read() ([]byte, fs.FileInfo, time.Time, error) {
	readAt := time.Now()
	f, err := filestat.OpenRegular(d.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, readAt, err
		}
		if errors.Is(err, filestat.ErrNotRegular) {
			if fi, serr := os.Stat(d.path); serr == nil && fi.IsDir() {
				return nil, nil, readAt, fmt.Errorf("cannot read diagnostics file %s: it is a directory", d.path)
			}
			return nil, nil, readAt, fmt.Errorf("cannot read diagnostics file %s: it is not a regular file", d.path)
		}
		return nil, nil, readAt, d.readError(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, readAt, d.readError(err)
	}
	if fi.IsDir() {
		return nil, nil, readAt, fmt.Errorf("cannot read diagnostics file %s: it is a directory", d.path)
	}
	if fi.Size() > MaxSize {
		return nil, nil, readAt, fmt.Errorf("cannot read diagnostics file %s: it is too large (%d bytes; the limit is %d)", d.path, fi.Size(), MaxSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, nil, readAt, d.readError(err)
	}
	if len(data) > MaxSize {
		return nil, nil, readAt, fmt.Errorf("cannot read diagnostics file %s: it is too large (the limit is %d bytes)", d.path, MaxSize)
	}
	return data, fi, readAt, nil
}

func (d *File) readError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot read diagnostics file %s: %v", d.path, err)
}

// sameVersion reports whether two looks at a file may have seen the same
// content: same file (not replaced by a rename) and the same stat key
// (size, modification time, and status change time, which a write in
// place sets even when the modification time is then set back).
func sameVersion(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && filestat.Of(a) == filestat.Of(b)
}
