package index

import (
	"context"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zumba-dev/zumba/internal/project"
)

// The build's workers, and how they give way to the calls being answered.

// procs is how many cores the index works on: GOMAXPROCS as it was
// before the first build added a spare one (see spareProc).
var procs = sync.OnceValue(func() int { return runtime.GOMAXPROCS(0) })

// spareProc adds one to GOMAXPROCS, once, unless the program chose its
// own: the build and the background parse may keep every core busy (see
// coreGate), and a goroutine answering a call must not wait for one of
// theirs to be preempted to get a P.
var spareProc = sync.OnceFunc(func() {
	n := procs()
	if os.Getenv("GOMAXPROCS") == "" && runtime.GOMAXPROCS(0) == n {
		runtime.GOMAXPROCS(n + 1)
	}
})

// workers is how many goroutines read files for the index at once.
func workers() int { return procs() }

// backgroundWorkers is how many may parse in the background: one per
// core, all but the first only while the rest of the machine leaves a
// core idle (see coreGate).
func backgroundWorkers() int { return procs() }

// A workKind says how parallel runs its work.
type workKind int

const (
	// callWork is a call's own: it never waits.
	callWork workKind = iota
	// buildWork is the build's: each item waits while a call is being
	// answered, but for no longer than the worker worked before (see
	// yielder), so that a stream of calls slows the build, never stops it.
	buildWork
	// idleWork is the background parse: it waits like buildWork, and
	// its workers past the first wait while the machine has no idle
	// core for them (see coreGate).
	idleWork
)

// parallel runs work on items 0..n-1 on up to w workers, one scratch
// buffer each, as kind says.
func (ix *Index) parallel(ctx context.Context, n, w int, kind workKind, work func(i int, sc *project.Scratch)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	w = min(w, n)
	for k := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := &project.Scratch{}
			defer sc.Close()
			y := newYielder()
			for ctx.Err() == nil {
				if kind != callWork {
					y.yield(ctx, &ix.busy, &ix.late)
				}
				if kind == idleWork && k > 0 && k >= ix.cores.workers(w) {
					if next.Load() >= int64(n) {
						return
					}
					select {
					case <-ctx.Done():
					case <-time.After(spareWindow):
					}
					continue
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				work(i, sc)
				y.worked()
			}
		}()
	}
	wg.Wait()
}

// maxYield bounds how long a build worker may wait for calls at once, and
// so the time its work earns it (see yielder).
const maxYield = time.Second

// A yielder lets a build worker give way to the calls being answered
// without being stopped by them: it waits while there is one, but no
// longer than it worked since it last waited (at most maxYield), so that
// under a stream of calls the build keeps half its pace. A call finds
// the cores free for as long as the build has worked before it (a
// second, at most); a client asking again and again (an agent polling a
// partial answer every 50 ms, issue 42) no longer holds the build still.
type yielder struct {
	since  time.Time     // when the worker last started to work
	earned time.Duration // how long it may wait
}

// newYielder returns a yielder that may wait maxYield before its first
// item: the calls that come at once when a server starts (an agent's
// first questions) find the cores free.
func newYielder() yielder { return yielder{earned: maxYield} }

// worked notes an item done.
func (y *yielder) worked() {
	now := time.Now()
	if !y.since.IsZero() {
		y.earned = min(y.earned+now.Sub(y.since), maxYield)
	}
	y.since = now
}

// yieldQuantum is the least a build worker waits at once. A wait is
// made of sleeps, each a millisecond or more whatever is asked: a worker
// whose items take a fraction of that (a file's words, ~0.2 ms on the Go
// tree) and waited as soon as it had earned anything waited five times
// as long as it worked, and under a client polling every 50 ms the Go
// tree's word pass took 19.7 s instead of 1.0 s (issue 42).
const yieldQuantum = 2 * time.Millisecond

// yield waits while late counts a call past its deadline (at most
// maxYield), then while busy counts a call, as long as the worker has
// earned, once it has earned yieldQuantum.
func (y *yielder) yield(ctx context.Context, busy, late *atomic.Int32) {
	if late.Load() > 0 {
		start := time.Now()
		for late.Load() > 0 && ctx.Err() == nil && time.Since(start) < maxYield {
			time.Sleep(time.Millisecond)
		}
	}
	if busy.Load() > 0 && y.earned >= yieldQuantum {
		start := time.Now()
		for busy.Load() > 0 && ctx.Err() == nil && time.Since(start) < y.earned {
			time.Sleep(time.Millisecond)
		}
		y.earned = max(0, y.earned-time.Since(start))
	}
	y.since = time.Now()
}

// CallUntil is Call for a call that must be answered by deadline (none
// when zero): past it, the call is finishing what it found (the parses
// it started, its answer), and for up to maxYield the build's workers
// wait for it instead of taking half the cores (a polling client's
// complete answers on the Go tree came 0.2 to 0.8 s past the deadline).
func (ix *Index) CallUntil(deadline time.Time) func() {
	done := ix.Call()
	if deadline.IsZero() {
		return done
	}
	var mu sync.Mutex
	var late, over bool
	var t2 *time.Timer
	end := func() {
		if late {
			late = false
			ix.late.Add(-1)
		}
	}
	t := time.AfterFunc(time.Until(deadline), func() {
		mu.Lock()
		defer mu.Unlock()
		if !over {
			late = true
			ix.late.Add(1)
			t2 = time.AfterFunc(maxYield, func() {
				mu.Lock()
				defer mu.Unlock()
				end()
			})
		}
	})
	return func() {
		t.Stop()
		mu.Lock()
		over = true
		if t2 != nil {
			t2.Stop()
		}
		end()
		mu.Unlock()
		done()
	}
}

// Call marks a call being answered until the function it returns runs.
func (ix *Index) Call() func() {
	ix.busy.Add(1)
	return func() { ix.busy.Add(-1) }
}
