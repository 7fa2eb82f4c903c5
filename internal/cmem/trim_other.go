//go:build !linux || !cgo

package cmem

// Trim does nothing: only glibc's allocator is known to keep freed
// memory that it can be asked to return.
func Trim() {}
