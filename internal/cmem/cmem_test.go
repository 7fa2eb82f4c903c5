package cmem

import "testing"

// TestTrim: Trim runs (with nothing to give back, or some).
func TestTrim(t *testing.T) {
	Trim()
	Trim()
}
