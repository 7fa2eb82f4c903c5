package search

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Root is an open project folder. Every file a tool reads is opened through
// it, so no path, "..", or symbolic link can reach outside the folder.
type Root struct {
	// Dir is the folder as given, made absolute; Real is the same folder
	// with symbolic links resolved.
	Dir, Real string
	fs        *os.Root
}

// OpenRoot opens the project folder dir.
func OpenRoot(dir string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("project folder %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("project folder %s does not exist", dir)
		}
		return nil, fmt.Errorf("project folder %s: %w", dir, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("project folder %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("project folder %s is not a directory", dir)
	}
	r, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("project folder %s: %w", dir, err)
	}
	return &Root{Dir: abs, Real: real, fs: r}, nil
}

// FS returns the project folder as an os.Root, which refuses any path that
// leaves it.
func (r *Root) FS() *os.Root { return r.fs }

// PathError is a path a tool cannot use; its message is the one line the
// tool answers with.
type PathError struct{ Msg string }

func (e *PathError) Error() string { return e.Msg }

func pathErrorf(format string, args ...any) error {
	return &PathError{Msg: fmt.Sprintf(format, args...)}
}

// Rel turns a path a tool was given (relative to the project, or absolute
// inside it, or a file:// URI) into a clean project-relative path with "/"
// separators. It refuses a path that leaves the project; it does not look
// at the disk.
func (r *Root) Rel(p string) (string, error) {
	orig := p
	if strings.TrimSpace(p) == "" {
		return "", pathErrorf("missing path")
	}
	if strings.ContainsRune(p, 0) {
		return "", pathErrorf("invalid path %q: it contains a NUL byte", orig)
	}
	if strings.HasPrefix(p, "file://") {
		u, err := url.Parse(p)
		if err != nil || (u.Host != "" && u.Host != "localhost") {
			return "", pathErrorf("invalid file URI %q", orig)
		}
		p = u.Path
	}
	if strings.HasPrefix(p, "~") {
		return "", pathErrorf("path outside the project: %s (~ is not expanded; give a path relative to the project)", orig)
	}
	p = strings.ReplaceAll(p, "\\", "/")
	if path.IsAbs(p) || filepath.IsAbs(p) {
		rel, ok := r.within(p)
		if !ok {
			return "", pathErrorf("path outside the project: %s", orig)
		}
		p = rel
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", pathErrorf("path outside the project: %s", orig)
	}
	return p, nil
}

// within makes an absolute path relative to the project, accepting it under
// either the folder as given or its real path.
func (r *Root) within(abs string) (string, bool) {
	abs = path.Clean(abs)
	for _, base := range []string{filepath.ToSlash(r.Dir), filepath.ToSlash(r.Real)} {
		if abs == base {
			return ".", true
		}
		if rest, ok := strings.CutPrefix(abs, strings.TrimSuffix(base, "/")+"/"); ok {
			return rest, true
		}
	}
	return "", false
}

// Open resolves p as Rel does and opens it for reading as a regular file.
// It returns the clean relative path, for messages and outputs.
func (r *Root) Open(p string) (*os.File, string, error) {
	rel, err := r.Rel(p)
	if err != nil {
		return nil, "", err
	}
	f, err := r.fs.Open(rel)
	if err != nil {
		return nil, rel, r.openError(rel, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, rel, fmt.Errorf("read %s: %w", rel, err)
	}
	if fi.IsDir() {
		f.Close()
		return nil, rel, pathErrorf("%s is a directory, not a file", rel)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, rel, pathErrorf("%s is not a regular file", rel)
	}
	return f, rel, nil
}

func (r *Root) openError(rel string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return pathErrorf("no such file: %s", rel)
	case errors.Is(err, fs.ErrPermission):
		return pathErrorf("cannot read %s: permission denied", rel)
	case strings.Contains(err.Error(), "escapes"):
		return pathErrorf("path outside the project: %s (a symbolic link leaves the project)", rel)
	case strings.Contains(err.Error(), "not a directory"):
		return pathErrorf("no such file: %s", rel)
	}
	return fmt.Errorf("open %s: %w", rel, err)
}

// ReadFile reads the project file p, up to limit bytes (0 for no limit).
func (r *Root) ReadFile(p string, limit int64) ([]byte, string, error) {
	f, rel, err := r.Open(p)
	if err != nil {
		return nil, rel, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, rel, fmt.Errorf("read %s: %w", rel, err)
	}
	if limit > 0 && fi.Size() > limit {
		return nil, rel, pathErrorf("%s is too large (%d bytes; the limit is %d)", rel, fi.Size(), limit)
	}
	max := fi.Size() + 1
	if limit > 0 {
		max = limit + 1
	}
	b, err := io.ReadAll(io.LimitReader(f, max))
	if err != nil {
		return nil, rel, fmt.Errorf("read %s: %w", rel, err)
	}
	if limit > 0 && int64(len(b)) > limit {
		return nil, rel, pathErrorf("%s is too large (the limit is %d bytes)", rel, limit)
	}
	return b, rel, nil
}
