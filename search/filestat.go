package search

import (
	"io/fs"

	"github.com/zumba-dev/zumba/internal/filestat"
)

// FileStat is filestat.Stat, what a file's cached record is keyed on.
type FileStat = filestat.Stat

// FileID is filestat.ID, a file's device and inode number.
type FileID = filestat.ID

// RacyWindow is filestat.RacyWindow: a file modified this close to when
// it was read cannot be trusted from its stat.
const RacyWindow = filestat.RacyWindow

// StatOf is filestat.Of: the FileStat of fi.
func StatOf(fi fs.FileInfo) FileStat { return filestat.Of(fi) }

func fileID(fi fs.FileInfo) FileID { return filestat.IDOf(fi) }

func fileCTime(fi fs.FileInfo) int64 { return filestat.CTime(fi) }
