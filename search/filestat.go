package search

import (
	"io/fs"
	"time"
)

// RacyWindow is how close to a reference time a file's modification time
// may be before its contents can no longer be trusted from a cached record.
// File systems stamp times with a coarse clock (a kernel tick, or whole
// seconds on some), so a file rewritten within the same tick as it was read
// keeps its size and time; git calls such index entries "racily clean" and
// re-reads them. Two seconds covers one-second file systems.
const RacyWindow = 2 * time.Second

// FileStat is what a file's cached record is keyed on: when any field
// differs, the file has changed.
type FileStat struct {
	Size int64
	// MTime is the modification time in nanoseconds since the Unix epoch.
	MTime int64
	// Inode is the file's inode number; 0 where the system has none. It
	// catches a file replaced by another of the same size and time (a
	// checkout or an editor's write-and-rename).
	Inode uint64
	// CTime is the status change time in nanoseconds since the Unix epoch;
	// 0 where the system has none. Every write sets it and no tool can set
	// it back, so it catches a file rewritten in place with its size and
	// its old modification time (git keys its index on it too).
	CTime int64
}

// StatOf returns the FileStat of fi, as returned by os.Stat, os.Lstat or
// fs.DirEntry.Info.
func StatOf(fi fs.FileInfo) FileStat {
	return FileStat{Size: fi.Size(), MTime: fi.ModTime().UnixNano(), Inode: fileID(fi).Ino, CTime: fileCTime(fi)}
}

// RacyAt reports whether a record of the file taken at time ref (Unix
// nanoseconds) cannot be trusted: the file was modified within RacyWindow
// of ref, or after it, so a later write may have left size and time alone.
func (s FileStat) RacyAt(ref int64) bool {
	return s.MTime >= ref-int64(RacyWindow)
}
