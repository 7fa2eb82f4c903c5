// Package scan reads many files of a project at once, in order, under a
// limit on results and a deadline (Ordered), with read buffers kept
// between calls (GetScratch).
package scan

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zumba-dev/zumba/internal/project"
)

// parallel is how many files are read and scanned at once.
var parallel = max(4, runtime.GOMAXPROCS(0))

// Ordered runs work on items 0..n-1 on parallel workers, taking items
// in order. work returns how many results item i gave, or -1 when the
// deadline stopped it before it was done. Once the items done without a
// gap from the first hold more than limit results, no new item is started
// (limit < 0: all are done); nor after the deadline (zero: no deadline).
// It returns how many leading items are complete, and whether the
// deadline cut the scan short (rather than the limit); the caller keeps
// each item's results by index.
func Ordered(ctx context.Context, n, limit int, deadline time.Time, work func(i int, sc *project.Scratch) int) (emitted int, timedOut bool) {
	return run(ctx, n, limit, deadline, false, work)
}

// OrderedReusing is Ordered with read buffers kept between calls
// (GetScratch), for work that copies whatever it keeps of what it reads.
func OrderedReusing(ctx context.Context, n, limit int, deadline time.Time, work func(i int, sc *project.Scratch) int) (emitted int, timedOut bool) {
	return run(ctx, n, limit, deadline, true, work)
}

// scratches keeps read buffers between calls (see GetScratch): each
// grows to the largest file it read, and a new one is zeroed as it grows.
var scratches = sync.Pool{New: func() any { return &project.Scratch{} }}

// GetScratch returns a project.Scratch that may hold an earlier call's buffer,
// for a reader that copies whatever it keeps of what it reads (line text
// into its answer); PutScratch gives it back.
func GetScratch() *project.Scratch { return scratches.Get().(*project.Scratch) }

// PutScratch closes sc's folder and keeps its buffer for another call.
func PutScratch(sc *project.Scratch) {
	sc.Close()
	scratches.Put(sc)
}

func run(ctx context.Context, n, limit int, deadline time.Time, reuse bool, work func(i int, sc *project.Scratch) int) (emitted int, timedOut bool) {
	done := make([]bool, n)
	var (
		next   atomic.Int64
		stop   atomic.Bool
		full   bool // the limit was passed
		mu     sync.Mutex
		counts = make([]int, n)
		total  int
		wg     sync.WaitGroup
	)
	for range min(parallel, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := &project.Scratch{}
			if reuse {
				sc = GetScratch()
				defer PutScratch(sc)
			} else {
				defer sc.Close()
			}
			for !stop.Load() && ctx.Err() == nil {
				if !deadline.IsZero() && time.Now().After(deadline) {
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				c := work(i, sc)
				if c < 0 {
					// Cut by the deadline: the items after it are not
					// started, and it is not done.
					stop.Store(true)
					return
				}
				mu.Lock()
				counts[i], done[i] = c, true
				for emitted < n && done[emitted] {
					total += counts[emitted]
					emitted++
				}
				if limit >= 0 && total > limit {
					full = true
					stop.Store(true)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return emitted, emitted < n && !full && ctx.Err() == nil
}
