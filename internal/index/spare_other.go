//go:build !linux

package index

import "time"

// machineCPU cannot be read here: the background parse leaves a core
// to the rest of the machine.
func machineCPU() (busy, self time.Duration, ok bool) { return 0, 0, false }
