package search

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"
)

// defNames is the text of the names definitions are found by (the keys of
// Index.defines' base), in lower case, end to end, so that the fallback
// finds the names containing a piece with one search of a few tens of
// megabytes instead of a test of each of the millions of strings of the
// vocabulary. The names are grouped by their first two bytes, so that
// those starting with a piece are one stretch of the text. It is made
// as the index completes (or at the first search that needs it, if that
// comes first), and brought up to date when the base of defines
// changes (a merge); keys added since are in the overlay, and tested one
// by one.
//
// Each name is its key's id in nameIDLen bytes of 7 bits (each with its
// top bit set, so never 0), its lower case, then a 0 byte: a match found
// in the text lies in a name when it starts past the id before it. On
// the Linux kernel (2.2 million names) the text is 59 MB, with nothing
// beside it but the groups' bounds.
type defNames struct {
	mu sync.Mutex
	// gen is the defines base it was made from (postings.gen).
	gen  uint64
	text []byte
	// pairAt bounds the groups: names whose lower case starts with bytes
	// a, b are text[pairAt[a<<8|b]:pairAt[a<<8|b+1]] (a name of one byte
	// a is in group a<<8).
	pairAt []uint32
	// keys is how many names text holds.
	keys int
	// in marks the keys in text, by id, a bit each.
	in []uint64
	// extra holds the keys a merge brought into the base since text was
	// made, in lower case, each then a 0 byte: searched whole.
	extra    []byte
	extraIDs []uint32
}

// nameIDLen is how many bytes a name's id takes in defNames.text.
const nameIDLen = 5

func (n *defNames) has(k int) bool { return k/64 < len(n.in) && n.in[k/64]&(1<<(k%64)) != 0 }

func (n *defNames) mark(k int) {
	if k/64 >= len(n.in) {
		n.in = append(n.in, make([]uint64, k/64+1-len(n.in))...)
	}
	n.in[k/64] |= 1 << (k % 64)
}

// prepare makes the text now if it is missing or out of date.
func (n *defNames) prepare(ix *Index) {
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	n.mu.Lock()
	defer n.mu.Unlock()
	n.update(ix)
}

func (n *defNames) update(ix *Index) {
	p := ix.defines
	switch {
	case n.pairAt == nil || len(n.extraIDs) > n.keys/16:
		n.build(ix)
	case n.gen != p.Gen:
		// A merge (each save makes one): the keys that were in the
		// overlay are in the base now. Keys gone from it stay, and
		// lead to no file.
		n.gen = p.Gen
		strs := ix.Words.View()
		p.ForBase(func(k uint32) {
			if !n.has(int(k)) {
				n.extraIDs = append(n.extraIDs, k)
				n.extra = append(appendLower(n.extra, strs.Str(k)), 0)
			}
		})
		for _, k := range n.extraIDs {
			n.mark(int(k))
		}
	}
}

// appendLower appends w in lower case, as strings.ToLower has it.
func appendLower(b []byte, w string) []byte {
	if !isASCIIString(w) {
		return append(b, strings.ToLower(w)...)
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// find calls f with each key of ix.defines whose lower case contains
// fold: its id, its lower case and where fold first is in it; with
// prefix, it may leave out keys that do not start with fold; past a
// non-zero stopAt (a partial answer), it may leave out keys of the
// overlay. The caller holds ix.mu (read).
func (n *defNames) find(ix *Index, fold string, prefix bool, stopAt time.Time, f func(id uint32, lower []byte, at int)) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.update(ix)
	needle := []byte(fold)
	if len(needle) == 0 || bytes.IndexByte(needle, 0) >= 0 {
		return
	}
	switch {
	case prefix && len(needle) >= 2:
		pair := int(needle[0])<<8 | int(needle[1])
		group := n.text[n.pairAt[pair]:n.pairAt[pair+1]]
		for at := 0; at < len(group); {
			id := nameID(group[at:])
			at += nameIDLen
			end := at + bytes.IndexByte(group[at:], 0)
			if w := group[at:end]; bytes.HasPrefix(w, needle) {
				f(id, w, 0)
			}
			at = end + 1
		}
	default:
		text := n.text
		for at := 0; ; {
			i := bytes.Index(text[at:], needle)
			if i < 0 {
				break
			}
			i += at
			// The name holding i starts past the id after the 0 before it.
			start := bytes.LastIndexByte(text[:i], 0) + 1 + nameIDLen
			if i < start {
				// Inside an id: the id's bytes are all 0x80 or more, and
				// so may be some of the needle's.
				at = i + 1
				continue
			}
			end := i + bytes.IndexByte(text[i:], 0)
			f(nameID(text[start-nameIDLen:]), text[start:end], i-start)
			at = end + 1
		}
	}
	// Keys a merge brought into the base since.
	for i, at := 0, 0; at < len(n.extra); i++ {
		end := at + bytes.IndexByte(n.extra[at:], 0)
		if w := n.extra[at:end]; !prefix || bytes.HasPrefix(w, needle) {
			if j := bytes.Index(w, needle); j >= 0 {
				f(n.extraIDs[i], w, j)
			}
		}
		at = end + 1
	}
	// Keys with files in the overlay only (defined since the last merge):
	// while the index is built, every name parsed since the word index
	// (millions on the kernel), so an ASCII name is lowered only once
	// found.
	p := ix.defines
	strs := ix.Words.View()
	seen, stopped := 0, false
	p.EachOverlay(func(k uint32) {
		if seen++; seen%4096 == 0 && !stopAt.IsZero() && time.Now().After(stopAt) {
			stopped = true
		}
		s := strs.Str(k)
		if stopped || isASCIIString(s) && indexFoldASCII(unsafe.Slice(unsafe.StringData(s), len(s)), needle) < 0 || p.InBase(k) {
			return
		}
		lower := []byte(strings.ToLower(s))
		if i := bytes.Index(lower, needle); i >= 0 {
			f(k, lower, i)
		}
	})
}

// appendNameID appends id in nameIDLen bytes, 7 bits each, top bit set.
func appendNameID(b []byte, id uint32) []byte {
	for i := range nameIDLen {
		b = append(b, 0x80|byte(id>>(7*i))&0x7f)
	}
	return b
}

// nameID reads an id appendNameID wrote at the start of b.
func nameID(b []byte) uint32 {
	var id uint32
	for i := range nameIDLen {
		id |= uint32(b[i]&0x7f) << (7 * i)
	}
	return id
}

// namePair is the group of a name in lower case.
func namePair(lower []byte) int {
	if len(lower) < 2 {
		return int(lower[0]) << 8
	}
	return int(lower[0])<<8 | int(lower[1])
}

// build makes the text from the base of ix.defines: the size of each
// group first, then each name in its place.
func (n *defNames) build(ix *Index) {
	p := ix.defines
	strs := ix.Words.View()
	n.gen = p.Gen
	n.in = make([]uint64, (p.NKeys+64)/64)
	n.extra, n.extraIDs = nil, nil
	n.keys = 0
	n.pairAt = make([]uint32, 1<<16+1)
	var lower []byte
	p.ForBase(func(k uint32) {
		lower = appendLower(lower[:0], strs.Str(k))
		if len(lower) == 0 {
			// Found by no piece (a piece is never empty).
			return
		}
		n.pairAt[namePair(lower)+1] += uint32(nameIDLen + len(lower) + 1)
	})
	for i := 1; i < len(n.pairAt); i++ {
		n.pairAt[i] += n.pairAt[i-1]
	}
	n.text = make([]byte, n.pairAt[1<<16])
	next := slices.Clone(n.pairAt[:1<<16])
	p.ForBase(func(k uint32) {
		n.mark(int(k))
		lower = appendLower(lower[:0], strs.Str(k))
		if len(lower) == 0 {
			return
		}
		pair := namePair(lower)
		w := appendNameID(n.text[next[pair]:next[pair]], k)
		w = append(w, lower...)
		w = append(w, 0)
		next[pair] += uint32(len(w))
		n.keys++
	})
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
