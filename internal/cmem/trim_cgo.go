//go:build linux && cgo

package cmem

/*
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
static void zumba_trim(void) { malloc_trim(0); }
#else
static void zumba_trim(void) {}
#endif
*/
import "C"

// Trim returns the C allocator's free pages to the system (glibc's
// malloc_trim; nothing with another C library).
func Trim() { C.zumba_trim() }
