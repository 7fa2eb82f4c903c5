//go:build !race

package lines

// raceEnabled: the tests run under the race detector.
const raceEnabled = false
