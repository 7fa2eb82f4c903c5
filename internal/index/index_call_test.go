package index

import (
	"testing"
	"time"
)

// TestCallUntilLate: a call past its deadline counts as late (the build's
// workers wait for it) until it ends, or for maxYield at most; one within
// its deadline does not.
func TestCallUntilLate(t *testing.T) {
	t.Parallel()
	ix := &Index{}
	until := func(what string, cond func() bool) {
		t.Helper()
		for start := time.Now(); !cond(); time.Sleep(time.Millisecond) {
			if time.Since(start) > 10*time.Second {
				t.Fatalf("%s: late %d, busy %d", what, ix.late.Load(), ix.busy.Load())
			}
		}
	}
	done := ix.CallUntil(time.Now().Add(time.Hour))
	if ix.late.Load() != 0 || ix.busy.Load() != 1 {
		t.Errorf("in time: late %d, busy %d; want 0, 1", ix.late.Load(), ix.busy.Load())
	}
	done()
	done = ix.CallUntil(time.Now().Add(-time.Millisecond))
	until("past its deadline", func() bool { return ix.late.Load() == 1 })
	done()
	if ix.late.Load() != 0 || ix.busy.Load() != 0 {
		t.Errorf("ended: late %d, busy %d; want 0, 0", ix.late.Load(), ix.busy.Load())
	}
	done = ix.CallUntil(time.Now())
	until("late", func() bool { return ix.late.Load() == 1 })
	until("late for maxYield", func() bool { return ix.late.Load() == 0 })
	if ix.busy.Load() != 1 {
		t.Errorf("busy %d after maxYield; want 1", ix.busy.Load())
	}
	done()
	if ix.late.Load() != 0 || ix.busy.Load() != 0 {
		t.Errorf("ended: late %d, busy %d; want 0, 0", ix.late.Load(), ix.busy.Load())
	}
}
