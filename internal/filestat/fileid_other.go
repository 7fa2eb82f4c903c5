//go:build !unix

package filestat

import "io/fs"

// IDOf is unknown here (the zero ID); a walk's symbolic link loops are
// then stopped by os.Root's own limit on link resolution.
func IDOf(fs.FileInfo) ID { return ID{} }
