package grammar

import "sync"

// A prepared text (see Language.Prepare) is a copy of its file, and C and
// C++ files are prepared before every parse. Memory the process has not
// touched lately costs several times the copy itself, so the copies are
// made in buffers that Release handed back.
var preparedBufs sync.Pool // *[]byte

// maxPooled bounds the buffers kept for reuse; a larger file's copy is
// left to the collector.
const maxPooled = 1 << 20

// copyText returns a copy of src, in a buffer handed back by Release
// when one is large enough.
func copyText(src []byte) []byte {
	if p, ok := preparedBufs.Get().(*[]byte); ok {
		if cap(*p) >= len(src) {
			return append((*p)[:0], src...)
		}
		preparedBufs.Put(p)
	}
	return append([]byte(nil), src...)
}

// Release hands back what Prepare returned for src, once nothing reads it
// any more (the parse and the reads of the prepared text are over), for a
// later Prepare to reuse its memory. It does nothing when Prepare
// returned src itself.
func Release(prepared, src []byte) {
	if cap(prepared) == 0 || cap(prepared) > maxPooled || sameText(prepared, src) {
		return
	}
	preparedBufs.Put(&prepared)
}

// sameText reports whether a and b start at the same byte.
func sameText(a, b []byte) bool {
	return cap(a) > 0 && cap(b) > 0 && &a[:1][0] == &b[:1][0]
}

// prepare is the C and C++ rows' Prepare: conditionals, then macros. The
// conditionals' copy, when they make one, is only read by blankMacros.
func prepare(src []byte, cpp bool) []byte {
	balanced := balanceConditionals(src, cpp)
	out := blankMacros(balanced)
	if !sameText(out, balanced) {
		Release(balanced, src)
	}
	return out
}
