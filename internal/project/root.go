package project

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
	"syscall"
)

// Root is an open project folder. Every file a tool reads is opened through
// it, so no path, "..", or symbolic link can reach outside the folder.
type Root struct {
	// Dir is the folder as given, made absolute; Real is the same folder
	// with symbolic links resolved.
	Dir, Real string
	// OpenHook, when set, is asked before each listed file is opened and
	// fails the open with its error (tests: root ignores file modes).
	OpenHook func(rel string) error
	fs       *os.Root
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
// at the disk. A backslash is taken as a separator (agents on Windows-style
// habits send them), "~" is not expanded, and percent-escapes are decoded
// only in file:// URIs: elsewhere "%2e%2e" is an ordinary file name.
func (r *Root) Rel(p string) (string, error) {
	orig := p
	if strings.TrimSpace(p) == "" {
		return "", pathErrorf("missing path")
	}
	if len(p) > MaxPath {
		return "", pathErrorf("path too long (%d bytes; the limit is %d): %s", len(p), MaxPath, show(p))
	}
	if len(p) >= 7 && strings.EqualFold(p[:7], "file://") {
		u, err := url.Parse("file://" + p[7:])
		if err != nil || u.Opaque != "" || (u.Host != "" && u.Host != "localhost") {
			return "", pathErrorf("invalid file URI %s", show(orig))
		}
		p = u.Path
	}
	if strings.ContainsRune(p, 0) {
		return "", pathErrorf("invalid path %s: it contains a NUL byte", show(orig))
	}
	if strings.HasPrefix(p, "~") {
		return "", pathErrorf("path outside the project: %s (~ is not expanded; give a path relative to the project)", show(orig))
	}
	p = strings.ReplaceAll(p, "\\", "/")
	if path.IsAbs(p) || filepath.IsAbs(p) {
		rel, ok := r.within(p)
		if !ok {
			return "", pathErrorf("path outside the project: %s", show(orig))
		}
		p = rel
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", pathErrorf("path outside the project: %s", show(orig))
	}
	return p, nil
}

// MaxPath is the longest path a tool accepts, in bytes: Linux's PATH_MAX.
const MaxPath = 4096

// maxShown bounds how much of a path a message repeats: a model that sends
// a megabyte of path should not get it back.
const maxShown = 200

// show prints a path for a one-line message, as Echo does, cut at
// maxShown characters.
func show(p string) string { return echo(p, maxShown, false) }

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
// It returns the clean relative path, for messages and outputs. Every open
// goes through the os.Root, so whatever ".." or link p holds, the file
// opened is inside the project's real path.
func (r *Root) Open(p string) (*os.File, string, error) {
	rel, err := r.Rel(p)
	if err != nil {
		return nil, "", err
	}
	f, err := r.openFile(rel)
	if err != nil {
		return nil, rel, r.openError(rel, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, rel, fmt.Errorf("read %s: %w", show(rel), err)
	}
	if fi.IsDir() {
		f.Close()
		return nil, rel, pathErrorf("%s is a directory, not a file", show(rel))
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, rel, pathErrorf("%s is not a regular file", show(rel))
	}
	return f, rel, nil
}

// openFile opens rel read-only. O_NONBLOCK keeps a named pipe in the
// project from blocking the open forever; callers refuse it right after.
func (r *Root) openFile(rel string) (*os.File, error) {
	f, err := r.fs.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil && isEscape(err) {
		// os.Root refuses absolute link targets even when they point back
		// inside; resolve those by hand and open the result through the
		// root again, which still refuses it if it leaves the project.
		if target, ok := r.resolve(rel); ok {
			return r.fs.OpenFile(target, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		}
	}
	return f, err
}

// Stat is os.Root's Stat, which follows links, with openFile's rule for
// absolute links that stay inside.
func (r *Root) Stat(rel string) (fs.FileInfo, error) {
	fi, err := r.fs.Stat(rel)
	if err != nil && isEscape(err) {
		if target, ok := r.resolve(rel); ok {
			return r.fs.Stat(target)
		}
	}
	return fi, err
}

// resolve follows the links in rel on disk and returns the project-relative
// path of their target, or false when it is outside the project.
func (r *Root) resolve(rel string) (string, bool) {
	real, err := filepath.EvalSymlinks(filepath.Join(r.Real, filepath.FromSlash(rel)))
	if err != nil {
		return "", false
	}
	within, err := filepath.Rel(r.Real, real)
	if err != nil || !filepath.IsLocal(within) {
		return "", false
	}
	return filepath.ToSlash(within), true
}

func isEscape(err error) bool {
	return err != nil && strings.Contains(err.Error(), "escapes")
}

func (r *Root) openError(rel string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return pathErrorf("no such file: %s", show(rel))
	case errors.Is(err, fs.ErrPermission):
		return pathErrorf("cannot read %s: permission denied", show(rel))
	case isEscape(err):
		return pathErrorf("path outside the project: %s (a symbolic link leaves the project)", show(rel))
	case errors.Is(err, syscall.ENOTDIR):
		return pathErrorf("no such file: %s", show(rel))
	case errors.Is(err, syscall.ELOOP):
		return pathErrorf("cannot read %s: too many levels of symbolic links", show(rel))
	case errors.Is(err, syscall.ENAMETOOLONG):
		return pathErrorf("no such file: %s (the name is too long)", show(rel))
	}
	return fmt.Errorf("open %s: %w", show(rel), err)
}

// ReadFile reads the project file p, up to limit bytes (0 for no limit).
func (r *Root) ReadFile(p string, limit int64) ([]byte, string, error) {
	f, rel, err := r.Open(p)
	if err != nil {
		return nil, rel, err
	}
	defer f.Close()
	b, err := ReadOpened(f, rel, limit)
	return b, rel, err
}

// ReadOpened reads a file opened by Root.Open, whose project-relative path
// is rel, up to limit bytes (0 for no limit).
func ReadOpened(f *os.File, rel string, limit int64) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", show(rel), err)
	}
	if limit > 0 && fi.Size() > limit {
		return nil, pathErrorf("%s is too large (%d bytes; the limit is %d)", show(rel), fi.Size(), limit)
	}
	max := fi.Size() + 1
	if limit > 0 {
		max = limit + 1
	}
	b, err := io.ReadAll(io.LimitReader(f, max))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", show(rel), err)
	}
	if limit > 0 && int64(len(b)) > limit {
		return nil, pathErrorf("%s is too large (the limit is %d bytes)", show(rel), limit)
	}
	return b, nil
}
