// Package cmem gives the C allocator's free memory back to the system.
//
// Tree-sitter parses in C, and the C library's allocator (glibc's) keeps
// what a parse freed in its per-thread arenas for the next one: after the
// background parse of a large project that is tens of megabytes a
// long-lived server holds and never uses again (80 MB on the Linux
// kernel). Go's own heap is returned by runtime/debug.FreeOSMemory; this
// is the C side.
package cmem
