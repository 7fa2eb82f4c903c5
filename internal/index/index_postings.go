package index

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"sync"
	"unique"
)

// Postings maps keys (vocab ids) to sorted sets of file ids. Most of it
// is one compact base: per key, its file ids as uvarint deltas (a key's
// first id is its own delta from 0). The files (re)read or parsed since
// the base was built are in an overlay, chains of (file id, next) pairs
// in one array, newest first; merge folds the overlay into a new base.
// Ids of removed files stay in the lists until a merge drops them:
// readers skip them.
//
// The base is cut into blocks of blockKeys keys, each one byte array
// that depends on nothing but its keys' lists (see appendBlock): a bit
// for each key that has files, an offset for each of those only (most
// keys of the definitions' and find_code's postings have none: a name is
// one key in ten of the vocab, which every kind of key and every root of
// the process share), then their lists. Two roots whose common files
// have the same ids (a copy or a worktree of a project, walked in the
// same order) have the same bytes in every block their differences do
// not touch; with a Shared, each such block is held once (shareBytes).
type Postings struct {
	// NKeys is how many keys the base covers (the vocab's size when it
	// was made); blocks[b] holds keys b*blockKeys on, nil when none of
	// them has files.
	NKeys  int
	Blocks [][]byte
	// shared: the blocks are interned (shareBytes), each kept by its
	// handle; else they lie in one array of the postings' own.
	shared  bool
	handles []unique.Handle[string]
	// Gen counts the bases made, so that what is made from one (defNames)
	// can tell a new one.
	Gen uint64
	// overlay holds the files added since the base was made.
	overlay
	// frozen is an older overlay that a merge outside the index's lock
	// is folding into the next base (Index.startMergeLocked); readers see
	// it as part of the overlay, and nothing changes it. epoch counts the
	// merges under the lock, which fold it too: an outside merge begun
	// before one of them leaves its result unused.
	frozen overlay
	epoch  uint64
	// merging: an outside merge of these postings is under way.
	merging bool
}

// overlay is a postings' files added since its base was made: Head
// gives 1 + the index in Pool of each key's newest entry (none: 0); Pool
// holds file id, then 1 + the next entry's index.
type overlay struct {
	Head heads
	Pool []uint32
}

// chain appends the files of key k's entries, newest first.
func (o *overlay) chain(k uint32, buf []uint32) []uint32 {
	for e := o.Head.get(k); e != 0; e = o.Pool[2*(e-1)+1] {
		buf = append(buf, o.Pool[2*(e-1)])
	}
	return buf
}

// heads maps keys to their newest overlay entry: an open-addressing
// table, so that an overlay of a few files takes room for their keys
// only, not 4 bytes for every key of the vocab in each postings (an edit
// of one file of the Go tree gave each of the three postings a head of
// 2.6 MB, until the next merge). A slot is key+1 in its high 32 bits and
// the entry in its low ones, 0 for an empty slot.
type heads struct {
	Slots []uint64
	n     int
	shift uint8 // 32 - log2(len(slots))
}

// get returns key k's entry, 0 for none.
func (h *heads) get(k uint32) uint32 {
	if h.n == 0 {
		return 0
	}
	mask := uint32(len(h.Slots) - 1)
	for i := (k * 0x9e3779b1) >> h.shift; ; i = (i + 1) & mask {
		s := h.Slots[i]
		if s == 0 {
			return 0
		}
		if uint32(s>>32) == k+1 {
			return uint32(s)
		}
	}
}

// push makes e key k's entry and returns the one it had (0 for none).
func (h *heads) push(k, e uint32) uint32 {
	if 4*(h.n+1) > 3*len(h.Slots) {
		h.grow()
	}
	mask := uint32(len(h.Slots) - 1)
	for i := (k * 0x9e3779b1) >> h.shift; ; i = (i + 1) & mask {
		s := h.Slots[i]
		if s == 0 {
			h.n++
		} else if uint32(s>>32) != k+1 {
			continue
		}
		h.Slots[i] = uint64(k+1)<<32 | uint64(e)
		return uint32(s)
	}
}

func (h *heads) grow() {
	old := h.Slots
	size := max(64, 2*len(old))
	h.Slots = make([]uint64, size)
	h.shift = uint8(32 - bits.TrailingZeros(uint(size)))
	h.n = 0
	for _, s := range old {
		if s != 0 {
			h.push(uint32(s>>32)-1, uint32(s))
		}
	}
}

// Each calls f with every key that has an entry, in no order.
func (h *heads) Each(f func(k uint32)) {
	for _, s := range h.Slots {
		if s != 0 {
			f(uint32(s>>32) - 1)
		}
	}
}

// A block covers blockKeys keys: blockWords 64-bit words of marks, little
// endian (bit k%64 of word k/64 for key k of the block), then a byte for
// each word, how many marks the words before it hold, then for the j-th
// key marked the start of its list in the block, then the end of the
// last list, then the lists. The starts are 2 bytes each (little endian)
// in a block shorter than 64 KiB, else 4 (see blockHead): most blocks
// are a few KiB, and with 4 bytes for each of the millions of keys with
// files (on the kernel, 3.9 million words, most of them in one or a few
// files) the offsets took as much as the lists. Small enough
// that an edit's few keys leave most blocks as they were, large enough
// that a block's slice (and handle) is little beside its bytes.
const (
	blockKeys  = 256
	blockWords = blockKeys / 64
)

// blockHead is the size of a block's marks, ranks and offsets for m
// keys whose lists take lists bytes: offsets of 2 bytes when the block
// is then shorter than 64 KiB, else of 4 (offWidth).
func blockHead(m, lists int) int {
	if n := blockOffs + 2*(m+1); n+lists < 1<<16 {
		return n
	}
	return blockOffs + 4*(m+1)
}

// offWidth is the size of each offset of a block n bytes long.
func offWidth(n int) int {
	if n < 1<<16 {
		return 2
	}
	return 4
}

// blockOffs is where a block's offsets start.
const blockOffs = 9 * blockWords

// appendHead appends the marks and offsets of a block whose keys' lists
// take size[k] bytes (size covers blockKeys keys or fewer, the last
// block); it appends nothing for a block without lists.
func appendHead(dst []byte, size []uint32) []byte {
	var has [blockWords]uint64
	m, lists := 0, 0
	for k, s := range size {
		if s > 0 {
			has[k/64] |= 1 << (k % 64)
			m++
			lists += int(s)
		}
	}
	if m == 0 {
		return dst
	}
	for _, w := range has {
		dst = binary.LittleEndian.AppendUint64(dst, w)
	}
	before := 0
	for _, w := range has {
		dst = append(dst, byte(before))
		before += bits.OnesCount64(w)
	}
	head := blockHead(m, lists)
	wide := offWidth(head+lists) == 4
	at := uint32(head)
	for _, s := range size {
		if s > 0 {
			dst = appendOff(dst, at, wide)
			at += s
		}
	}
	return appendOff(dst, at, wide)
}

func appendOff(dst []byte, off uint32, wide bool) []byte {
	if wide {
		return binary.LittleEndian.AppendUint32(dst, off)
	}
	return binary.LittleEndian.AppendUint16(dst, uint16(off))
}

// buildRange is how many keys build lays out at a time: a multiple
// of blockKeys, its per-key arrays 1 MiB each.
const buildRange = 1 << 18

// build makes the base from the keys of each of the files first,
// first+1, ..., lists[i] the packed keys (packIDs) of file first+i; nkeys
// bounds the keys. It lays out one range of buildRange keys at a time,
// in two passes over the lists (sizes, then bytes): its per-key arrays
// cover a range (2 MiB), not the vocab (on the kernel 33 MB, at the
// word pass's peak). A cursor per list remembers where the next range
// starts in it.
func (p *Postings) build(nkeys int, first uint32, lists [][]byte) {
	var sc buildScratch
	p.startBlocks(nkeys)
	// pos[i] is where list i's next key is, after id prev[i]. Both
	// passes read a list from there up to the range's end (the second
	// moves the cursor); the loops are written out twice, as a closure
	// per key cost a third of the build's time.
	pos := make([]uint32, len(lists))
	prev := make([]uint32, len(lists))
	for lo := 0; lo < nkeys; lo += buildRange {
		hi := uint32(min(nkeys, lo+buildRange))
		size, last := sc.arrays(int(hi) - lo)
		for i, l := range lists {
			f := first + uint32(i) + 1 // 1 + the file's id
			at, id := int(pos[i]), prev[i]
			for at < len(l) {
				d, n := uint64(l[at]), 1
				if d >= 0x80 {
					d, n = binary.Uvarint(l[at:])
				}
				if id+uint32(d) >= hi {
					break
				}
				id += uint32(d)
				at += n
				k := id - uint32(lo)
				size[k] += uint32(uvarintLen(uint64(f - last[k])))
				last[k] = f
			}
		}
		all, bounds := blockLayout(size)
		at := size
		clear(last)
		for i, l := range lists {
			f := first + uint32(i) + 1
			j, id := int(pos[i]), prev[i]
			for j < len(l) {
				d, n := uint64(l[j]), 1
				if d >= 0x80 {
					d, n = binary.Uvarint(l[j:])
				}
				if id+uint32(d) >= hi {
					break
				}
				id += uint32(d)
				j += n
				k := id - uint32(lo)
				at[k] += uint32(binary.PutUvarint(all[at[k]:], uint64(f-last[k])))
				last[k] = f
			}
			pos[i], prev[i] = uint32(j), id
		}
		p.putBlocks(lo/blockKeys, all, bounds)
	}
	p.overlay = overlay{}
	p.dropFrozen()
}

// blockLayout lays out the blocks of keys whose lists take size[k] bytes
// (size covers whole blocks, but for a last one): it returns their bytes,
// each block's head written and room left for its lists, with block b
// at all[bounds[b]:bounds[b+1]], and turns size into where each key's
// list goes.
func blockLayout(size []uint32) (all []byte, bounds []int) {
	nblocks := (len(size) + blockKeys - 1) / blockKeys
	total := 0
	for b := range nblocks {
		m, lists := 0, 0
		for _, s := range size[b*blockKeys : min(len(size), (b+1)*blockKeys)] {
			if s > 0 {
				m++
				lists += int(s)
			}
		}
		if m > 0 {
			total += blockHead(m, lists) + lists
		}
	}
	all = make([]byte, 0, total)
	bounds = make([]int, nblocks+1)
	for b := range nblocks {
		in := size[b*blockKeys : min(len(size), (b+1)*blockKeys)]
		all = appendHead(all, in)
		for k, s := range in {
			in[k] = uint32(len(all))
			all = all[:len(all)+int(s)]
		}
		bounds[b+1] = len(all)
	}
	return all, bounds
}

// buildScratch holds the two per-key arrays of a build's range.
type buildScratch struct{ size, last []uint32 }

// arrays returns the two arrays, n long and zeroed.
func (sc *buildScratch) arrays(n int) (size, last []uint32) {
	if cap(sc.size) < n {
		sc.size, sc.last = make([]uint32, n), make([]uint32, n)
	}
	sc.size, sc.last = sc.size[:n], sc.last[:n]
	clear(sc.size)
	clear(sc.last)
	return sc.size, sc.last
}

// setBlocks makes the base of nkeys keys from its blocks, all[bounds[b]:
// bounds[b+1]] for block b, interned when the postings are shared.
func (p *Postings) setBlocks(nkeys int, all []byte, bounds []int) {
	p.startBlocks(nkeys)
	p.putBlocks(0, all, bounds)
}

// startBlocks makes an empty base of nkeys keys, for putBlocks to fill.
func (p *Postings) startBlocks(nkeys int) {
	p.NKeys = nkeys
	p.Blocks = make([][]byte, (nkeys+blockKeys-1)/blockKeys)
	p.handles = nil
	if p.shared {
		p.handles = make([]unique.Handle[string], len(p.Blocks))
	}
	p.Gen++
}

// putBlocks sets the base's blocks from b0 on to all[bounds[b]:
// bounds[b+1]] for block b0+b, interned when the postings are shared.
func (p *Postings) putBlocks(b0 int, all []byte, bounds []int) {
	for b := range len(bounds) - 1 {
		lo, hi := bounds[b], bounds[b+1]
		if lo == hi {
			continue
		}
		blk := all[lo:hi:hi]
		if p.shared {
			p.handles[b0+b], blk = shareBytes(blk)
		}
		p.Blocks[b0+b] = blk
	}
}

// BaseList is key k's list in the base (postings.list's format); empty
// for none.
func (p *Postings) BaseList(k uint32) []byte {
	b := int(k / blockKeys)
	if b >= len(p.Blocks) || len(p.Blocks[b]) == 0 {
		return nil
	}
	blk := p.Blocks[b]
	i := int(k/64) % blockWords
	w := binary.LittleEndian.Uint64(blk[8*i:])
	bit := uint64(1) << (k % 64)
	if w&bit == 0 {
		return nil
	}
	j := int(blk[8*blockWords+i]) + bits.OnesCount64(w&(bit-1))
	if offWidth(len(blk)) == 2 {
		o := blockOffs + 2*j
		return blk[binary.LittleEndian.Uint16(blk[o:]):binary.LittleEndian.Uint16(blk[o+2:])]
	}
	o := blockOffs + 4*j
	return blk[binary.LittleEndian.Uint32(blk[o:]):binary.LittleEndian.Uint32(blk[o+4:])]
}

// InBase reports whether the base has files for key k.
func (p *Postings) InBase(k uint32) bool {
	b := int(k / blockKeys)
	if b >= len(p.Blocks) || len(p.Blocks[b]) == 0 {
		return false
	}
	i := int(k/64) % blockWords
	return binary.LittleEndian.Uint64(p.Blocks[b][8*i:])&(1<<(k%64)) != 0
}

// ForBase calls f with each key the base has files for, in increasing
// order.
func (p *Postings) ForBase(f func(k uint32)) {
	for b, blk := range p.Blocks {
		if len(blk) == 0 {
			continue
		}
		for i := range blockWords {
			for w := binary.LittleEndian.Uint64(blk[8*i:]); w != 0; w &= w - 1 {
				f(uint32(b*blockKeys + i*64 + bits.TrailingZeros64(w)))
			}
		}
	}
}

// baseSize is how many bytes the base's blocks take.
func (p *Postings) baseSize() int {
	n := 0
	for _, blk := range p.Blocks {
		n += len(blk)
	}
	return n
}

// base returns the base alone, which no change alters (a merge or a
// build makes a new one), for reading outside the index's lock.
func (p *Postings) base() Postings {
	return Postings{NKeys: p.NKeys, Blocks: p.Blocks, shared: p.shared, handles: p.handles, Gen: p.Gen}
}

// packIDs encodes distinct ids compactly, for as long as build needs
// them, in memory from a: sorted (in place), as uvarint differences (a
// file's words take about a third of their 4 bytes each so: 1.3 bytes
// on the kernel).
func packIDs(a *packArena, ids []uint32) []byte {
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	n, prev := 0, uint32(0)
	for _, id := range ids {
		n += uvarintLen(uint64(id - prev))
		prev = id
	}
	b := a.alloc(n)
	i := 0
	prev = 0
	for _, id := range ids {
		i += binary.PutUvarint(b[i:], uint64(id-prev))
		prev = id
	}
	return b
}

// packArena hands out the memory of packed word lists from large chunks,
// for any number of goroutines: a build holds every file's list until
// the postings are made, then drops them all at once. As objects of
// their own (86,000 of them on the kernel, 30 MB) they were rounded up
// to a size class each, and when dropped left their spans full of holes
// that the large arrays allocated next (the postings' bases) could not
// use: the heap kept ~35 MB of such holes at its peak. Chunks go back
// to the heap whole.
type packArena struct {
	mu sync.Mutex
	// rest is what is left of the current chunk.
	rest []byte
}

// packChunk is the size of a packArena's chunks; a list over an eighth of
// it is allocated on its own, so at most that much of a chunk is wasted
// at its end.
const packChunk = 1 << 20

// alloc returns n bytes, to be filled before other goroutines read them.
func (a *packArena) alloc(n int) []byte {
	if n > packChunk/8 {
		return make([]byte, n)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.rest) < n {
		a.rest = make([]byte, packChunk)
	}
	b := a.rest[:n:n]
	a.rest = a.rest[n:]
	return b
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
func (p *Postings) add(k, f uint32) {
	p.Pool = append(p.Pool, f, 0)
	p.Pool[len(p.Pool)-1] = p.Head.push(k, uint32(len(p.Pool)/2))
}

// InOverlay reports whether key k has files in the overlay.
func (p *Postings) InOverlay(k uint32) bool {
	return p.Head.get(k) != 0 || p.frozen.Head.get(k) != 0
}

// EachOverlay calls f with every key that has files in the overlay, once
// each, in no order.
func (p *Postings) EachOverlay(f func(k uint32)) {
	p.frozen.Head.Each(f)
	p.Head.Each(func(k uint32) {
		if p.frozen.Head.get(k) == 0 {
			f(k)
		}
	})
}

// keep reports whether the postings' blocks are shared and the overlay
// and the dead files' entries (dead: how many files died since the last
// merge) are few beside the base: then the base is left as it is until
// they grow, as its blocks are likely held by other roots too. A merge
// would give each block of the keys of a file changed here (a new id for
// it, the old one dropped) bytes of this root's own: after 20 files of
// one of two Go trees were edited, more than half its postings' bytes.
// Until then a change costs this root its overlay (8 bytes an entry)
// and readers skip the dead files' ids.
func (p *Postings) keep(dead int) bool {
	if !p.shared {
		return false
	}
	// An entry takes a byte or two in the base; a dead file, some tens.
	return p.Overlay()+64*dead <= p.baseSize()/64
}

// overlayKeys lists the keys of each file the overlay holds entries of,
// by file id, each file's in increasing order.
func (p *Postings) overlayKeys() map[uint32][]uint32 {
	out := map[uint32][]uint32{}
	var buf []uint32
	p.EachOverlay(func(k uint32) {
		buf = p.frozen.chain(k, buf[:0])
		buf = p.overlay.chain(k, buf)
		for _, f := range buf {
			out[f] = append(out[f], k)
		}
	})
	for f, keys := range out {
		slices.Sort(keys)
		out[f] = slices.Compact(keys)
	}
	return out
}

// Overlay is how many entries the overlay holds.
func (p *Postings) Overlay() int { return (len(p.Pool) + len(p.frozen.Pool)) / 2 }

// Empty reports whether key k has no file, live or not.
func (p *Postings) Empty(k uint32) bool {
	if p.InBase(k) {
		return false
	}
	return !p.InOverlay(k)
}

// List appends key k's file ids to buf, in increasing order (removed
// files included).
func (p *Postings) List(k uint32, buf []uint32) []uint32 {
	start := len(buf)
	if b := p.BaseList(k); len(b) > 0 {
		// Room for every entry at once (each takes a byte or more): a
		// common word's list of thousands grew by copies otherwise (most
		// of find_references' time for "ret" on the kernel).
		buf = slices.Grow(buf, len(b))
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
	// The frozen overlay's entries, then the newer ones, each chain
	// newest first.
	for _, o := range [2]*overlay{&p.frozen, &p.overlay} {
		if o.Head.n == 0 {
			continue
		}
		base := len(buf)
		buf = o.chain(k, buf)
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
func (p *Postings) merge(nkeys int, live func(f uint32) bool) {
	old := p.baseSize()
	// An overlay entry takes about 1.2 to 1.5 bytes in the base (most
	// deltas fit in one byte); a base larger than that is grown by
	// append, and exact gives it back its spare room.
	nblocks := (nkeys + blockKeys - 1) / blockKeys
	all := make([]byte, 0, old+p.Overlay()*3/2+nblocks*blockHead(0, 1<<16)+64)
	bounds := make([]int, nblocks+1)
	var buf []uint32
	var lists []byte
	size := make([]uint32, blockKeys)
	for b := range nblocks {
		lists = lists[:0]
		in := size[:min(nkeys-b*blockKeys, blockKeys)]
		for i := range in {
			start := len(lists)
			buf = p.List(uint32(b*blockKeys+i), buf[:0])
			var last uint32
			for _, f := range buf {
				if live(f) {
					lists = binary.AppendUvarint(lists, uint64(f+1-last))
					last = f + 1
				}
			}
			in[i] = uint32(len(lists) - start)
		}
		all = appendHead(all, in)
		if len(lists) > 0 {
			all = append(all, lists...)
		}
		bounds[b+1] = len(all)
	}
	if !p.shared {
		// Interned blocks are copies; else the blocks are all's own.
		all = exact(all)
	}
	p.setBlocks(nkeys, all, bounds)
	p.overlay = overlay{}
	p.dropFrozen()
}

// dropFrozen forgets the frozen overlay, now in the base, and leaves an
// outside merge begun before without effect.
func (p *Postings) dropFrozen() {
	p.frozen = overlay{}
	p.epoch++
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
