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
	"runtime/debug"
	"sync"
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
