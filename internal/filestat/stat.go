// Package filestat says whether a file may have changed since it was
// last read, from its stat alone: the key every cache of file contents
// (the index and its disk cache, the outline tool's cache, the
// diagnostics file's) is compared on, and the one window within which a
// stat cannot be trusted. It also opens files for reading without ever
// blocking on one that is not a regular file.
package filestat

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

// ID is a file's device and inode number: the zero ID where the system
// has none.
type ID struct{ Dev, Ino uint64 }

// Stat is what a file's cached record is keyed on: when any field
// differs, the file has changed.
type Stat struct {
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

// Of returns the Stat of fi, as returned by os.Stat, os.Lstat, File.Stat
// or fs.DirEntry.Info.
func Of(fi fs.FileInfo) Stat {
	return Stat{Size: fi.Size(), MTime: fi.ModTime().UnixNano(), Inode: IDOf(fi).Ino, CTime: CTime(fi)}
}

// Unchanged reports whether a record of the file taken at time at (Unix
// nanoseconds), when its stat was was, still holds for the file whose
// stat is now s: the stat is the same, and the file was not modified
// within RacyWindow of at. It is the one freshness rule of every cache of
// file contents.
func (s Stat) Unchanged(was Stat, at int64) bool {
	return s == was && !s.RacyAt(at)
}

// RacyAt reports whether a record of the file taken at time ref (Unix
// nanoseconds) cannot be trusted: the file was modified within RacyWindow
// of ref, or after it, so a later write may have left size and time alone.
func (s Stat) RacyAt(ref int64) bool {
	return s.MTime >= ref-int64(RacyWindow)
}
