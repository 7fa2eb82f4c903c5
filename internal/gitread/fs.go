package gitread

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-billy/v5"
)

// rootFS is a folder of a repository as go-git reads it: a read-only
// billy.Filesystem over an os.Root, so that no path, "..", or symbolic
// link inside the repository's files can lead a read outside the folder,
// and nothing is ever written.
type rootFS struct {
	root *os.Root
	dir  string // the folder's real path
}

func openRootFS(dir string) (*rootFS, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &rootFS{root: r, dir: dir}, nil
}

// rel is name relative to the folder; an absolute name must lie inside it.
func (f *rootFS) rel(name string) (string, error) {
	if filepath.IsAbs(name) {
		r, err := filepath.Rel(f.dir, name)
		if err != nil || !filepath.IsLocal(r) {
			if r == "." {
				return ".", nil
			}
			return "", &fs.PathError{Op: "open", Path: name, Err: billy.ErrCrossedBoundary}
		}
		return r, nil
	}
	if name == "" {
		return ".", nil
	}
	return filepath.Clean(name), nil
}

func (f *rootFS) Open(name string) (billy.File, error) {
	r, err := f.rel(name)
	if err != nil {
		return nil, err
	}
	file, err := f.root.Open(r)
	if err != nil {
		return nil, err
	}
	return &rootFile{File: file, name: name}, nil
}

func (f *rootFS) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
		return nil, &fs.PathError{Op: "open", Path: name, Err: billy.ErrReadOnly}
	}
	return f.Open(name)
}

func (f *rootFS) Stat(name string) (os.FileInfo, error) {
	r, err := f.rel(name)
	if err != nil {
		return nil, err
	}
	return f.root.Stat(r)
}

func (f *rootFS) Lstat(name string) (os.FileInfo, error) {
	r, err := f.rel(name)
	if err != nil {
		return nil, err
	}
	return f.root.Lstat(r)
}

func (f *rootFS) Readlink(name string) (string, error) {
	r, err := f.rel(name)
	if err != nil {
		return "", err
	}
	return f.root.Readlink(r)
}

func (f *rootFS) ReadDir(name string) ([]os.FileInfo, error) {
	r, err := f.rel(name)
	if err != nil {
		return nil, err
	}
	d, err := f.root.Open(r)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdir(-1)
}

func (f *rootFS) Join(elem ...string) string { return filepath.Join(elem...) }

func (f *rootFS) Chroot(name string) (billy.Filesystem, error) {
	r, err := f.rel(name)
	if err != nil {
		return nil, err
	}
	sub, err := f.root.OpenRoot(r)
	if err != nil {
		return nil, err
	}
	return &rootFS{root: sub, dir: filepath.Join(f.dir, r)}, nil
}

func (f *rootFS) Root() string { return f.dir }

// Capabilities: reading only.
func (f *rootFS) Capabilities() billy.Capability {
	return billy.ReadCapability | billy.SeekCapability
}

func (f *rootFS) readOnly(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: billy.ErrReadOnly}
}

func (f *rootFS) Create(name string) (billy.File, error) { return nil, f.readOnly("create", name) }
func (f *rootFS) Rename(from, to string) error           { return f.readOnly("rename", from) }
func (f *rootFS) Remove(name string) error               { return f.readOnly("remove", name) }
func (f *rootFS) MkdirAll(name string, _ os.FileMode) error {
	return f.readOnly("mkdir", name)
}
func (f *rootFS) Symlink(target, link string) error { return f.readOnly("symlink", link) }
func (f *rootFS) TempFile(dir, prefix string) (billy.File, error) {
	return nil, f.readOnly("create", filepath.Join(dir, prefix))
}

// rootFile is an os.File opened for reading, as a billy.File.
type rootFile struct {
	*os.File
	name string
}

func (f *rootFile) Name() string { return f.name }
func (f *rootFile) Write([]byte) (int, error) {
	return 0, fmt.Errorf("write %s: %w", f.name, billy.ErrReadOnly)
}
func (f *rootFile) Truncate(int64) error {
	return fmt.Errorf("truncate %s: %w", f.name, billy.ErrReadOnly)
}
func (f *rootFile) Lock() error   { return nil }
func (f *rootFile) Unlock() error { return nil }
