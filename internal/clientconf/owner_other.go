//go:build !unix

package clientconf

import "io/fs"

// owner is a file's owner where files have one setup can give; here
// none: a file keeps the owner Windows gives it.
type owner struct{}

func ownerOf(fs.FileInfo) owner       { return owner{} }
func newOwner(string) owner           { return owner{} }
func (owner) apply(string) error      { return nil }
func sameOwner(_, _ fs.FileInfo) bool { return true }
