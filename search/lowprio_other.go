//go:build !linux

package search

// lowerThread does nothing where threads have no priority of their own.
func lowerThread() bool { return false }

// lowPriority reports whether background threads can be lowered.
const lowPriority = false
