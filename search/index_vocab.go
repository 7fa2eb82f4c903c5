package search

import (
	"hash/maphash"
	"unsafe"
)

// vocab interns the index's strings (the words of every file and the
// names in every definition) once each, and numbers them. Strings live in
// large append-only chunks, so a string never moves and the garbage
// collector sees a few large arrays instead of millions of small ones;
// the lookup table is an open-addressing array of ids.
//
// A vocab is not safe for concurrent use; the Index guards it.
type vocab struct {
	strs []string
	// table holds id+1 per slot, 0 for an empty slot; its length is a
	// power of two at least twice len(strs).
	table []uint32
	seed  maphash.Seed
	// chunk is where new strings are copied; a full chunk is left to the
	// strings pointing into it.
	chunk []byte
}

// vocabChunk is the size of a string chunk.
const vocabChunk = 1 << 20

func newVocab() *vocab {
	return &vocab{seed: maphash.MakeSeed(), table: make([]uint32, 1024)}
}

func (v *vocab) len() int { return len(v.strs) }

func (v *vocab) str(id uint32) string { return v.strs[id] }

// lookup returns the id of the string b, without allocating.
func (v *vocab) lookup(b []byte) (uint32, bool) {
	mask := uint64(len(v.table) - 1)
	for i := maphash.Bytes(v.seed, b) & mask; ; i = (i + 1) & mask {
		id := v.table[i]
		if id == 0 {
			return 0, false
		}
		if v.strs[id-1] == string(b) {
			return id - 1, true
		}
	}
}

func (v *vocab) lookupString(s string) (uint32, bool) {
	return v.lookup(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// intern returns the id of b, adding a copy of it if new.
func (v *vocab) intern(b []byte) uint32 {
	if id, ok := v.lookup(b); ok {
		return id
	}
	var s string
	switch {
	case len(b) == 0:
		s = ""
	case len(b) > vocabChunk/16:
		s = string(b)
	default:
		if cap(v.chunk)-len(v.chunk) < len(b) {
			v.chunk = make([]byte, 0, vocabChunk)
		}
		off := len(v.chunk)
		v.chunk = append(v.chunk, b...)
		s = unsafe.String(&v.chunk[off], len(b))
	}
	return v.add(s)
}

func (v *vocab) internString(s string) uint32 {
	return v.intern(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// add appends s, known to be absent, and returns its id. s is kept as is.
func (v *vocab) add(s string) uint32 {
	id := uint32(len(v.strs))
	v.strs = append(v.strs, s)
	if 2*len(v.strs) > len(v.table) {
		v.grow(2 * len(v.table))
	} else {
		v.place(id)
	}
	return id
}

func (v *vocab) place(id uint32) {
	mask := uint64(len(v.table) - 1)
	s := v.strs[id]
	for i := maphash.String(v.seed, s) & mask; ; i = (i + 1) & mask {
		if v.table[i] == 0 {
			v.table[i] = id + 1
			return
		}
	}
}

func (v *vocab) grow(n int) {
	v.table = make([]uint32, n)
	for id := range v.strs {
		v.place(uint32(id))
	}
}

// load replaces the vocab with strs (a disk cache's table, whose strings
// point into its bytes). Duplicates keep their first id.
func (v *vocab) load(strs []string) {
	v.strs = strs
	n := 1024
	for n < 2*len(strs) {
		n *= 2
	}
	v.table = make([]uint32, n)
	mask := uint64(n - 1)
	for id, s := range strs {
		for i := maphash.String(v.seed, s) & mask; ; i = (i + 1) & mask {
			if v.table[i] == 0 {
				v.table[i] = uint32(id) + 1
				break
			}
			if strs[v.table[i]-1] == s {
				break
			}
		}
	}
}
