//go:build linux && cgo

package cmem

/*
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
static void zumba_trim(void) { malloc_trim(0); }
static void zumba_arenas(int n) { mallopt(M_ARENA_MAX, n); }
#else
static void zumba_trim(void) {}
static void zumba_arenas(int n) {}
#endif
*/
import "C"

import (
	"os"
	"runtime"
)

// The C allocator keeps an arena per thread that met another's lock, up
// to eight a core: the parses' Go threads, many more than the parse
// workers (one a core), spread tree-sitter's memory over as many arenas,
// each keeping its own free memory, which malloc_trim cannot give back
// where live blocks are left among it. One arena a core, unless the
// environment says otherwise (MALLOC_ARENA_MAX): on Linux 6.12's cold
// build, 47 MiB less resident at the complete index, 11 MiB once idle.
func init() {
	if os.Getenv("MALLOC_ARENA_MAX") == "" {
		C.zumba_arenas(C.int(runtime.NumCPU()))
	}
}

// Trim returns the C allocator's free pages to the system (glibc's
// malloc_trim; nothing with another C library).
func Trim() { C.zumba_trim() }
