package search

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// postings maps keys (vocab ids) to sorted sets of file ids. Most of it
// is one compact base: per key, its file ids as uvarint deltas, end to
// end in one byte array (a key's first id is its own delta from 0). The
// files (re)read or parsed since the base was built are in an overlay,
// chains of (file id, next) pairs in one array, newest first; merge folds
// the overlay into a new base. Ids of removed files stay in the lists
// until a merge drops them: readers skip them.
//
// The base keeps an offset only for the keys it has files for: most
// keys of the definitions' and find_code's postings have none (a name
// is one key in ten of the vocab, which every kind of key and every root
// of the process share), and an offset for each would be 4 bytes a key
// of the vocab for each postings of each root.
type postings struct {
	// nkeys is how many keys the base covers (the vocab's size when it
	// was made); has marks those it has files for (bit k%64 of
	// has[k/64]), rank[i] counts the marks in has[:i], and the j-th key
	// marked has the bytes off[j]..off[j+1] of data.
	nkeys int
	has   []uint64
	rank  []uint32
	off   []uint32
	data  []byte
	// head[k] is 1 + the index in pool of key k's newest overlay entry,
	// 0 for none; pool holds file id, then 1 + the next entry's index.
	head []uint32
	pool []uint32
}

// build makes the base from the keys of each of n files, in id order
// from first: keys(i, f) calls f with the distinct keys of file first+i.
// nkeys bounds the keys. Two passes (sizes, then bytes), so the base is
// allocated once and no file's keys need be held between them.
func (p *postings) build(nkeys int, first uint32, n int, keys func(i int, f func(k uint32))) {
	size := make([]uint32, nkeys)
	last := make([]uint32, nkeys) // 1 + the last file id put under the key
	for i := range n {
		f := first + uint32(i)
		keys(i, func(k uint32) {
			size[k] += uint32(uvarintLen(uint64(f + 1 - last[k])))
			last[k] = f + 1
		})
	}
	total := p.layout(size)
	p.data = make([]byte, total)
	at := size
	clear(last)
	for i := range n {
		f := first + uint32(i)
		keys(i, func(k uint32) {
			at[k] += uint32(binary.PutUvarint(p.data[at[k]:], uint64(f+1-last[k])))
			last[k] = f + 1
		})
	}
	p.head, p.pool = nil, nil
}

// layout makes the base's has, rank and off for keys whose lists take
// size[k] bytes, turns size into each key's start in data, and returns
// data's size.
func (p *postings) layout(size []uint32) uint32 {
	p.nkeys = len(size)
	p.has = make([]uint64, (len(size)+63)/64)
	p.rank = make([]uint32, len(p.has))
	marked := 0
	for k, s := range size {
		if k%64 == 0 {
			p.rank[k/64] = uint32(marked)
		}
		if s > 0 {
			p.has[k/64] |= 1 << (k % 64)
			marked++
		}
	}
	p.off = make([]uint32, 0, marked+1)
	var total uint32
	for k, s := range size {
		if s > 0 {
			p.off = append(p.off, total)
		}
		size[k] = total
		total += s
	}
	p.off = append(p.off, total)
	return total
}

// span is where key k's list lies in the base's data; lo == hi for
// none.
func (p *postings) span(k uint32) (lo, hi uint32) {
	i := int(k / 64)
	if i >= len(p.has) {
		return 0, 0
	}
	bit := uint64(1) << (k % 64)
	if p.has[i]&bit == 0 {
		return 0, 0
	}
	j := p.rank[i] + uint32(bits.OnesCount64(p.has[i]&(bit-1)))
	return p.off[j], p.off[j+1]
}

// inBase reports whether the base has files for key k.
func (p *postings) inBase(k uint32) bool {
	i := int(k / 64)
	return i < len(p.has) && p.has[i]&(1<<(k%64)) != 0
}

// forBase calls f with each key the base has files for, in increasing
// order.
func (p *postings) forBase(f func(k uint32)) {
	for i, w := range p.has {
		for ; w != 0; w &= w - 1 {
			f(uint32(i*64 + bits.TrailingZeros64(w)))
		}
	}
}

// base returns the base alone, which no change alters (a merge or a
// build makes a new one), for reading outside the index's lock.
func (p *postings) base() postings {
	return postings{nkeys: p.nkeys, has: p.has, rank: p.rank, off: p.off, data: p.data}
}

// packIDs encodes distinct ids compactly, for as long as build needs
// them: sorted, as uvarint differences (a file's words take about a
// third of their 4 bytes each so).
func packIDs(ids []uint32) []byte {
	slices.Sort(ids)
	b := make([]byte, 0, len(ids)+len(ids)/2)
	prev := uint32(0)
	for _, id := range ids {
		b = binary.AppendUvarint(b, uint64(id-prev))
		prev = id
	}
	return slices.Clip(b)
}

// unpackIDs calls f with each id packIDs encoded in b.
func unpackIDs(b []byte, f func(id uint32)) {
	var id uint32
	for i := 0; i < len(b); {
		d, n := binary.Uvarint(b[i:])
		i += n
		id += uint32(d)
		f(id)
	}
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// add puts file f under key k, in the overlay.
func (p *postings) add(k, f uint32) {
	if int(k) >= len(p.head) {
		h := make([]uint32, max(int(k)+1, 2*len(p.head), 1024))
		copy(h, p.head)
		p.head = h
	}
	p.pool = append(p.pool, f, p.head[k])
	p.head[k] = uint32(len(p.pool) / 2)
}

// overlay is how many entries the overlay holds.
func (p *postings) overlay() int { return len(p.pool) / 2 }

// empty reports whether key k has no file, live or not.
func (p *postings) empty(k uint32) bool {
	if p.inBase(k) {
		return false
	}
	return int(k) >= len(p.head) || p.head[k] == 0
}

// list appends key k's file ids to buf, in increasing order (removed
// files included).
func (p *postings) list(k uint32, buf []uint32) []uint32 {
	start := len(buf)
	if lo, hi := p.span(k); hi > lo {
		b := p.data[lo:hi]
		var f uint32
		for i := 0; i < len(b); {
			var d uint64
			if c := b[i]; c < 0x80 {
				d = uint64(c)
				i++
			} else {
				var n int
				d, n = binary.Uvarint(b[i:])
				i += n
			}
			f += uint32(d)
			buf = append(buf, f-1)
		}
	}
	if int(k) < len(p.head) {
		base := len(buf)
		for e := p.head[k]; e != 0; e = p.pool[2*(e-1)+1] {
			buf = append(buf, p.pool[2*(e-1)])
		}
		if len(buf) > base {
			slices.Reverse(buf[base:])
			if !slices.IsSorted(buf[start:]) {
				slices.Sort(buf[start:])
				buf = append(buf[:start], slices.Compact(buf[start:])...)
			}
		}
	}
	return buf
}

// merge folds the overlay into a new base, keeping only the files live
// accepts, for keys below nkeys.
func (p *postings) merge(nkeys int, live func(f uint32) bool) {
	size := make([]uint32, nkeys)
	// An overlay entry takes about 1.2 to 1.5 bytes in the base (most
	// deltas fit in one byte); a base larger than that is grown by
	// append, and exact gives it back its spare room.
	data := make([]byte, 0, len(p.data)+p.overlay()*3/2+64)
	var buf []uint32
	for k := range nkeys {
		start := len(data)
		buf = p.list(uint32(k), buf[:0])
		var last uint32
		for _, f := range buf {
			if live(f) {
				data = binary.AppendUvarint(data, uint64(f+1-last))
				last = f + 1
			}
		}
		size[k] = uint32(len(data) - start)
	}
	p.layout(size)
	p.data = exact(data)
	p.head, p.pool = nil, nil
}

// intersect keeps the ids of a (sorted) that are in b (sorted).
func intersect(a, b []uint32) []uint32 {
	out := a[:0]
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) {
			break
		}
		if b[j] == x {
			out = append(out, x)
		}
	}
	return out
}
