//go:build linux && amd64

// Package docs pins lines under doc comments, directives and attributes.
package docs

import _ "unsafe"

// Version is the
// current version.
const Version = "1.0"

/*
Config holds settings.
*/
type Config struct{}

//go:linkname now runtime.now
func now() (int64, int32)

// Load reads a config.
//
//go:noinline
func (c *Config) Load(
	path string,
) error {
	return nil
}
