//go:build !unix

package mcpserver

// fdLimit is unknown here.
func fdLimit() int { return 0 }
