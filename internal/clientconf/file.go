package clientconf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/zumba-dev/zumba/internal/filestat"
)

// MaxFileSize bounds every file setup reads: configuration files and
// AGENTS.md are a few kilobytes; a larger one is refused unread.
const MaxFileSize = 16 << 20

// File is a file setup may change, as it was read.
type File struct {
	// Path is the name setup was given (~/.claude.json, DIR/AGENTS.md);
	// Real is where its bytes are: Path, or the regular file a symbolic
	// link at Path leads to, which is the file edited (the link stays).
	Path, Real string
	// Data is the file's bytes; nil when it does not exist.
	Data []byte
	info fs.FileInfo // Real's, when it exists
}

// Exists reports whether the file was there when it was read.
func (f File) Exists() bool { return f.info != nil }

// ReadConfig reads a client's configuration file at path for an edit. A
// missing file is an empty File; a file that is not regular (a FIFO, a
// device, a folder) is refused, as is one over MaxFileSize. A symbolic
// link is followed to a regular file owned by the link's owner (a
// dotfiles repository's copy), which is then the file edited; a link to
// anything else, or to another user's file, is refused.
func ReadConfig(path string) (File, error) {
	return read(path, func(real string, link, target fs.FileInfo) error {
		if target != nil && !sameOwner(link, target) {
			return fmt.Errorf("%s is a link to %s, which belongs to another user; it is left as it is", path, real)
		}
		return nil
	})
}

// ReadProjectFile reads a file of the project folder dir (AGENTS.md) for
// an edit, as ReadConfig does, except that a symbolic link is followed
// only to a file inside the project: a link leading out of it (to
// ~/.ssh/id_ed25519, committed in a cloned repository) is refused, so
// that nothing from outside is copied into the project.
func ReadProjectFile(dir, path string) (File, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return File{}, err
	}
	return read(path, func(real string, _, _ fs.FileInfo) error {
		if !within(root, real) && !within(filepath.Clean(dir), real) {
			return fmt.Errorf("%s is a link leading out of the project (to %s); it is left as it is", path, real)
		}
		return nil
	})
}

// within reports whether path is root or inside it (both clean and
// absolute, links resolved).
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// read is ReadConfig and ReadProjectFile: allowLink decides whether a
// link at path may be followed to real, given the stat of the link and
// of its target (a regular file). When the link leads nowhere (to
// nothing, or to /dev/stdin's pipe:[…]), allowLink is asked about the
// link's own target, with no stat of it, so that a link out of a
// project is named as such.
func read(path string, allowLink func(real string, link, target fs.FileInfo) error) (File, error) {
	f := File{Path: path, Real: path}
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			target, rerr := os.Readlink(path)
			if rerr != nil {
				return f, err
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(path), target)
			}
			if err := allowLink(target, fi, nil); err != nil {
				return f, err
			}
			if errors.Is(err, fs.ErrNotExist) {
				return f, fmt.Errorf("%s is a link to %s, which does not exist; it is left as it is", path, target)
			}
			return f, err
		}
		target, err := os.Stat(real)
		if err != nil {
			return f, err
		}
		if !target.Mode().IsRegular() {
			return f, fmt.Errorf("%s is a link to %s, which is not a regular file; it is left as it is", path, real)
		}
		if err := allowLink(real, fi, target); err != nil {
			return f, err
		}
		f.Real, fi = real, target
	}
	if !fi.Mode().IsRegular() {
		return f, fmt.Errorf("%s is not a regular file; it is left as it is", path)
	}
	f.Data, f.info, err = readRegular(f.Real, fi)
	if err != nil {
		return f, fmt.Errorf("%s: %v; it is left as it is", path, err)
	}
	return f, nil
}

// readRegular reads the regular file at path, which was stat'ed as want:
// opened without blocking (a FIFO swapped in since cannot hang it),
// refused unless it is still that file, and read to at most MaxFileSize.
func readRegular(path string, want fs.FileInfo) ([]byte, fs.FileInfo, error) {
	if want.Size() > MaxFileSize {
		return nil, nil, errTooLarge(path)
	}
	h, err := filestat.OpenRegular(path)
	if err != nil {
		return nil, nil, err
	}
	defer h.Close()
	fi, err := h.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !os.SameFile(fi, want) {
		return nil, nil, ErrChanged
	}
	data, err := io.ReadAll(io.LimitReader(h, MaxFileSize+1))
	if err != nil {
		return nil, nil, err
	}
	if len(data) > MaxFileSize {
		return nil, nil, errTooLarge(path)
	}
	if data == nil {
		data = []byte{} // it exists: not nil
	}
	return data, fi, nil
}

func errTooLarge(path string) error {
	return fmt.Errorf("%s is larger than %d MiB; zumba does not edit it", path, MaxFileSize>>20)
}

// ErrChanged is Write's error when another program changed the file
// between setup's read and its write: nothing was written; read it again.
var ErrChanged = errors.New("it was changed by another program while zumba was editing it")

// unchanged reports whether f is still as it was read: its path leads to
// the same file, which holds the same bytes (missing when it was).
func (f File) unchanged() error {
	now, err := f.reread()
	if err != nil {
		return err
	}
	if now.Real != f.Real || now.Exists() != f.Exists() || !bytes.Equal(now.Data, f.Data) {
		return ErrChanged
	}
	if f.Exists() && !os.SameFile(now.info, f.info) {
		return ErrChanged
	}
	return nil
}

// reread reads f's path again, following a link as it was followed.
func (f File) reread() (File, error) {
	now := File{Path: f.Path, Real: f.Path}
	fi, err := os.Lstat(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return now, nil
	}
	if err != nil {
		return now, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if now.Real, err = filepath.EvalSymlinks(f.Path); err != nil {
			return now, ErrChanged
		}
		if fi, err = os.Stat(now.Real); err != nil {
			return now, ErrChanged
		}
	}
	if !fi.Mode().IsRegular() {
		return now, ErrChanged
	}
	if now.Data, now.info, err = readRegular(now.Real, fi); err != nil {
		if errors.Is(err, ErrChanged) {
			return now, err
		}
		return now, fmt.Errorf("%w (%v)", ErrChanged, err)
	}
	return now, nil
}
