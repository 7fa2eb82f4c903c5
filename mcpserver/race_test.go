//go:build race

package mcpserver

// raceEnabled skips the tests that only push sizes, which the race detector
// slows tenfold without finding anything in them.
const raceEnabled = true
