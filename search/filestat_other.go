//go:build !unix

package search

import "io/fs"

// inodeOf has no inode to give where the system does not expose one through
// os.Stat (Windows, Plan 9, wasm): size and time alone key the record.
func inodeOf(fs.FileInfo) uint64 { return 0 }
