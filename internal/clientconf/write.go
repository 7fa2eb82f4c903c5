package clientconf

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// BackupSuffix ends the name of the copy Write keeps of a file it changes.
const BackupSuffix = ".zumba-backup"

// Write replaces the file at path, whose contents were old (nil: it did
// not exist), with data: a copy of old is kept beside it first (path +
// BackupSuffix), and data goes to a temporary file in the same folder
// that is then renamed over path, so the file is never half-written. A
// file this user may not write is refused before anything is written;
// its mode is kept. It returns the backup's path ("" when there was no
// file).
func Write(path string, old, data []byte) (backup string, err error) {
	mode := os.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
		// Rename would replace a read-only file: ask first (the mode
		// too, since the superuser may open any file).
		if mode&0o222 == 0 {
			return "", fmt.Errorf("%s is read-only; it is left as it is", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return "", fmt.Errorf("%s is not writable: %v; it is left as it is", path, err)
		}
		f.Close()
	} else if !os.IsNotExist(err) {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	if old != nil {
		backup = path + BackupSuffix
		if err := writeAtomic(backup, old, mode); err != nil {
			return "", fmt.Errorf("cannot keep a backup of %s: %v; it is left as it is", path, err)
		}
	}
	if err := writeAtomic(path, data, mode); err != nil {
		return backup, fmt.Errorf("%s: %v; it is left as it is", path, err)
	}
	return backup, nil
}

// writeAtomic writes data to a temporary file beside path and renames it
// over path.
func writeAtomic(path string, data []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, mode)
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
