package outline

/*
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
static int zumba_trim(void) { malloc_trim(0); return 1; }
#else
static int zumba_trim(void) { return 0; }
#endif
*/
import "C"

import (
	"context"
	"runtime/debug"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"
)

// releaseSize is the size of a file from which a parse gives its memory
// back to the system when it ends. tree-sitter needs tens of times a
// file's size while it parses: 8 MB left the server's resident size at
// 0.6 GB long after, above its soft limit, since neither Go's heap nor
// the C heap returns freed memory at once. Files this large are rare
// (the project search skips them), so the full collection it costs is
// paid seldom.
const releaseSize = 512 << 10

var releasing sync.Mutex

// trims reports whether release returns the C heap's free memory too.
var trims bool

// release returns freed memory to the system: Go's heap (debug.FreeOSMemory
// runs a collection first) and, with glibc, the C heap, where tree-sitter's
// freed nodes otherwise stay. Concurrent large parses release once.
func release() {
	if !releasing.TryLock() {
		return
	}
	defer releasing.Unlock()
	debug.FreeOSMemory()
	trims = C.zumba_trim() != 0
}

// Parses of large texts share a budget of bytes, so that tree-sitter's
// memory, which is outside Go's limit, stays bounded however many calls
// arrive at once: a parse needs tens of times its text's size (a MB file
// about 30 MB), and eight clients asking for 16 MB files at once used to
// hold 2.4 GB. A parse of largeParse bytes or more waits for its size in
// the budget (a text larger than the budget takes all of it), in arrival
// order, until its deadline; smaller ones never wait.
const (
	parseBudget = 4 << 20
	largeParse  = 256 << 10
)

var parseBytes = semaphore.NewWeighted(parseBudget)

// admit waits, until deadline, for a parse of n bytes to fit in the
// budget of large parses; done gives its share back.
func admit(ctx context.Context, n int, deadline time.Time) (done func(), err error) {
	if n < largeParse {
		return func() {}, nil
	}
	w := int64(min(n, parseBudget))
	if !parseBytes.TryAcquire(w) {
		// The parse's context may have a deadline and no timer (see
		// deadlineCtx): the wait gets one.
		wait, cancel := context.WithDeadline(ctx, deadline)
		err := parseBytes.Acquire(wait, w)
		cancel()
		if err != nil {
			return nil, err
		}
	}
	return func() { parseBytes.Release(w) }, nil
}
