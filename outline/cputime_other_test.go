//go:build !unix

package outline

import "time"

var processStart = time.Now()

// cpuTime is the wall time since the tests started where the process's
// CPU time is not at hand.
func cpuTime() time.Duration { return time.Since(processStart) }
