package clientconf

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// BackupSuffix ends the name of the copy Write keeps of a file it changes.
const BackupSuffix = ".zumba-backup"

// Write replaces f's file with data: a copy of its old bytes is kept
// beside it first (f.Path + BackupSuffix), and data goes to a temporary
// file in the same folder as f.Real that is then renamed over f.Real, so
// the file is never half-written and a link at f.Path stays a link. The
// new file keeps the old one's mode and owner (setup run by root with a
// user's HOME leaves the user's file the user's); a new file, and a
// folder made for it, gets the owner of the folder it is made in. A file
// this user may not write is refused before anything is written. Just
// before the rename, f is read again: when another program changed it
// since f was read, nothing is written and the error wraps ErrChanged
// (read it again and redo the edit). It returns the backup's path (""
// when there was no file).
func (f File) Write(data []byte) (backup string, err error) {
	if err := f.unchanged(); err != nil {
		return "", fmt.Errorf("%s: %w; it is left as it is", f.Path, err)
	}
	mode := os.FileMode(0o644)
	var own owner
	if f.Exists() {
		mode = f.info.Mode().Perm()
		own = ownerOf(f.info)
		// Rename would replace a read-only file: ask first (the mode
		// too, since the superuser may open any file).
		if mode&0o222 == 0 {
			return "", fmt.Errorf("%s is read-only; it is left as it is", f.Path)
		}
		h, err := os.OpenFile(f.Real, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return "", fmt.Errorf("%s is not writable: %v; it is left as it is", f.Path, err)
		}
		h.Close()
	} else {
		own = newOwner(filepath.Dir(f.Real))
		if err := mkdirs(filepath.Dir(f.Real), own); err != nil {
			return "", err
		}
	}
	if f.Exists() {
		backup = f.Path + BackupSuffix
		if err := writeAtomic(backup, f.Data, mode, own, nil); err != nil {
			return "", fmt.Errorf("cannot keep a backup of %s: %v; it is left as it is", f.Path, err)
		}
	}
	if err := writeAtomic(f.Real, data, mode, own, f.unchanged); err != nil {
		if errors.Is(err, ErrChanged) {
			return backup, fmt.Errorf("%s: %w; it is left as it is", f.Path, err)
		}
		return backup, fmt.Errorf("%s: %v; it is left as it is", f.Path, err)
	}
	return backup, nil
}

// mkdirs makes the folder dir and those above it that are missing, each
// given the owner own.
func mkdirs(dir string, own owner) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if parent := filepath.Dir(dir); parent != dir {
		if err := mkdirs(parent, own); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return own.apply(dir)
}

// writeAtomic writes data to a temporary file beside path, with mode and
// owner own, and renames it over path once check (when not nil) passes.
func writeAtomic(path string, data []byte, mode os.FileMode, own owner, check func() error) error {
	h, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := h.Name()
	_, err = h.Write(data)
	if err == nil {
		err = h.Sync()
	}
	if cerr := h.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, mode)
	}
	if err == nil {
		err = own.apply(tmp)
	}
	if err == nil && check != nil {
		err = check()
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// Diff is a unified diff of one file's change, old to new (an edit here
// is one place in the file, or a few close together: the lines between
// the first and the last that differ make one hunk, with up to 3 lines of
// context around it).
func Diff(path string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	a, b := lines(old), lines(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	from := max(0, pre-3)
	aEnd, bEnd := min(len(a), len(a)-suf+3), min(len(b), len(b)-suf+3)
	var sb strings.Builder
	oldName := path
	if old == nil {
		oldName = "/dev/null"
	}
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, path)
	fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(from, aEnd-from), hunkRange(from, bEnd-from))
	for _, l := range a[from:pre] {
		sb.WriteString(" " + l + "\n")
	}
	for _, l := range a[pre : len(a)-suf] {
		sb.WriteString("-" + l + "\n")
	}
	for _, l := range b[pre : len(b)-suf] {
		sb.WriteString("+" + l + "\n")
	}
	for _, l := range a[len(a)-suf : aEnd] {
		sb.WriteString(" " + l + "\n")
	}
	return sb.String()
}

// hunkRange is a hunk's "start,count" as unified diffs number lines.
func hunkRange(from, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", from)
	}
	return fmt.Sprintf("%d,%d", from+1, n)
}

// lines splits data into lines without their newlines.
func lines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}
