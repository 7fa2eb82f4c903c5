package index

import (
	"runtime"
	"sync"
	"time"
)

// The background parse takes one core, and the others only while the
// rest of the machine leaves them idle: every spareWindow it reads how
// much CPU the machine spent outside this process (see machineCPU), and
// the workers past the first wait while the cores it leaves idle are
// fewer than the workers.

// spareWindow is how often the machine's CPU use is read.
const spareWindow = 250 * time.Millisecond

// coreGate says how many background workers may run now.
type coreGate struct {
	mu         sync.Mutex
	at         time.Time
	busy, self time.Duration
	allowed    int
}

// workers returns how many of n background workers may run: one, and
// one more for each core the rest of the machine left idle in the last
// window (a core counts as idle when others used less than three
// quarters of it).
func (g *coreGate) workers(n int) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	if !g.at.IsZero() && now.Sub(g.at) < spareWindow {
		return min(g.allowed, n)
	}
	busy, self, ok := machineCPU()
	switch {
	case !ok:
		g.allowed = n - 1
	case g.at.IsZero():
		g.allowed = n - 1
	default:
		others := float64((busy-g.busy)-(self-g.self)) / float64(now.Sub(g.at))
		g.allowed = int(float64(runtime.NumCPU()) - others + 0.25)
	}
	g.at, g.busy, g.self = now, busy, self
	g.allowed = min(max(g.allowed, 1), n)
	return g.allowed
}
