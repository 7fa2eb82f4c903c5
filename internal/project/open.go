package project

import (
	"os"

	"github.com/zumba-dev/zumba/internal/filestat"
)

// Every file zumba reads is opened through openRegular or
// filestat.OpenRegular: O_NONBLOCK keeps the open of a named pipe (FIFO)
// or a device from waiting for a writer forever, and anything that is not
// a regular file is refused right after, before a read could wait on it
// instead.

// openRegular opens the project file rel for reading through the root,
// which follows links only while they stay inside the project.
func (r *Root) openRegular(rel string) (*os.File, error) {
	return filestat.CheckRegular(r.openFile(rel))
}

// openDir opens the project folder rel for listing, without blocking on
// something that replaced it; the caller checks that it is a folder.
func (r *Root) openDir(rel string) (*os.File, error) {
	return r.openFile(rel)
}
