//go:build race

package search

// raceEnabled: the tests run under the race detector.
const raceEnabled = true
