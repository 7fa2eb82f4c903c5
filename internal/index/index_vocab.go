package index

import (
	"hash/maphash"
	"math/bits"
	"slices"
	"sync"
	"unsafe"
)

// Vocab interns the index's strings (the words of every file and the
// names in every definition) once each, and numbers them. Strings live in
// large append-only chunks, so a string never moves; each id has one
// 8-byte reference to its bytes (chunk, offset, length) instead of a
// 16-byte string header, so that the millions of strings of a large
// project (4.1 million on the Linux kernel) cost half as much and hold
// no pointer for the garbage collector to follow. The references lie in
// pages that never move either: one array grown by append was copied
// at each growth (150 MB of garbage while the kernel's words were
// interned, and up to a quarter of its 33 MB unused). The lookup table is an
// open-addressing array of ids, each slot's spare high bits holding bits
// of its string's hash (see slotTag).
//
// A vocab is not safe for concurrent use; an index's is in a wordTable,
// whose lock guards it. A view taken under the lock stays valid outside
// it (see strTable).
type Vocab struct {
	StrTable
	// table holds id+1 per slot, 0 for an empty slot, under a tag of
	// its string's hash (slotTag); its length is a power of two at least
	// twice the number of strings.
	table []uint32
	// idBits is log2(len(table)): id+1 is below 1<<idBits, the bits
	// above it are the tag's.
	idBits uint
	seed   maphash.Seed
	// open is the index in chunks of the chunk new strings are copied
	// to, fill how much of it is used; -1: none yet.
	open, fill int
}

// StrTable is the vocab's strings by id. Its slices only ever grow, and
// what they hold never changes, so a copy taken under the lock
// (vocab.view) reads the ids it covers without the lock while the vocab
// grows.
type StrTable struct {
	// pages[id>>refPageBits] holds where string id is (see makeRef and
	// refPage), for the n ids there are. A page is never replaced, and
	// only the part of the last one past n is written to.
	Pages []*refPage
	N     int
	// Big holds the references a page cannot: of strings of bigLen bytes
	// or more, or in a chunk past the 4096th; append-only.
	Big []uint64
	// Chunks hold the strings' bytes; each is at most 1 MiB long (it
	// is addressed with 20 bits), and its length never changes.
	Chunks [][]byte
	// long holds strings of refLong bytes or more (none the index makes:
	// it reads no file over project.MaxFileSize, but a disk cache may hold one).
	long []string
}

// A page holds the references of 1<<refPageBits ids (20 KiB): for id,
// start is its chunk<<refBits | its offset and n its length; n bigLen
// says its reference is Big[start]. Five bytes a string instead of the
// reference's eight: on the kernel's 4.1 million strings, 21 MB instead
// of 33.
const (
	RefPageBits = 12
	refPageMask = 1<<RefPageBits - 1
	bigLen      = 1<<8 - 1
)

type refPage struct {
	start [1 << RefPageBits]uint32
	n     [1 << RefPageBits]uint8
}

// setRef makes r string id's reference; the caller holds the vocab's
// lock, and id's page exists.
func (t *StrTable) setRef(id uint32, r uint64) {
	p, i := t.Pages[id>>RefPageBits], id&refPageMask
	n, chunk := r&refMask, r>>(2*refBits)
	if n >= bigLen || chunk >= 1<<(32-refBits) {
		p.start[i], p.n[i] = uint32(len(t.Big)), bigLen
		t.Big = append(t.Big, r)
		return
	}
	p.start[i], p.n[i] = uint32(chunk<<refBits|(r>>refBits)&refMask), uint8(n)
}

// A reference is chunk<<40 | offset<<20 | length, or for a long string
// index<<40 | refLong.
const (
	refBits = 20
	refMask = 1<<refBits - 1
	// refLong, as a length, marks a long string.
	refLong = refMask
)

func makeRef(chunk, off, n int) uint64 {
	return uint64(chunk)<<(2*refBits) | uint64(off)<<refBits | uint64(n)
}

// vocabChunk is the size of a string chunk; strings longer than a
// sixteenth of it get a chunk of their own.
const vocabChunk = 1 << refBits

// NewVocab returns an empty vocab.
func NewVocab() *Vocab {
	return &Vocab{seed: maphash.MakeSeed(), table: make([]uint32, 1024), idBits: 10, open: -1}
}

// slotTag is the tag of a string whose hash is h in a table of 1<<idBits
// slots: the bits of a slot above its id, taken from the hash's high half
// (its low bits choose the slot). A probe compares tags before strings, so
// a slot holding another string is passed over, most of the time, without
// reading that string: two memory reads (its reference, then its bytes)
// saved on each of the collisions of a large vocab, where both miss the
// cache (interning the kernel's words spent a third of its time there).
func slotTag(h uint64, idBits uint) uint32 {
	return uint32(h>>32) &^ (1<<idBits - 1)
}

// Len is how many strings the table holds: an id below it is valid.
func (t *StrTable) Len() int { return t.N }

// ref returns where string id is.
func (t *StrTable) ref(id uint32) uint64 {
	p, i := t.Pages[id>>RefPageBits], id&refPageMask
	if p.n[i] == bigLen {
		return t.Big[p.start[i]]
	}
	s := uint64(p.start[i])
	return makeRef(int(s>>refBits), int(s&refMask), int(p.n[i]))
}

// Str returns string id, pointing into the vocab's memory.
func (t *StrTable) Str(id uint32) string {
	if int(id) >= t.N {
		panic("search: string id out of range")
	}
	return t.refString(t.ref(id))
}

// refString returns the string at reference r.
func (t *StrTable) refString(r uint64) string {
	n := int(r & refMask)
	if n == refLong {
		return t.long[r>>(2*refBits)]
	}
	if n == 0 {
		return ""
	}
	off := int(r>>refBits) & refMask
	return unsafe.String(&t.Chunks[r>>(2*refBits)][off], n)
}

// View returns the strings as they are now, for use without the lock.
func (v *Vocab) View() *StrTable {
	t := v.StrTable
	return &t
}

// lookup returns the id of the string b, without allocating.
func (v *Vocab) lookup(b []byte) (uint32, bool) {
	return v.lookupHash(maphash.Bytes(v.seed, b), b)
}

// lookupHash is lookup of b, whose hash (maphash.Bytes, v's seed) is h.
func (v *Vocab) lookupHash(h uint64, b []byte) (uint32, bool) {
	mask := uint64(len(v.table) - 1)
	tag, ids := slotTag(h, v.idBits), uint32(mask)
	for i := h & mask; ; i = (i + 1) & mask {
		slot := v.table[i]
		if slot == 0 {
			return 0, false
		}
		if slot&^ids == tag && v.Str(slot&ids-1) == string(b) {
			return slot&ids - 1, true
		}
	}
}

// lookupAll sets ids[i] to the id of strs[i], or to notFound for a
// string not in the vocab; hs and refs are scratch space as long as strs,
// returned for reuse. It takes the strings in passes whose memory reads
// do not depend on each other (the hashes, then each one's first slot,
// then that slot's reference, then its bytes), so that the processor
// overlaps their cache misses: in a large vocab (the kernel's table,
// references and strings are 33, 33 and 75 MB) each lookup is three
// misses one after the other. A string whose first slot is not its own
// is looked up as lookup does.
func (v *Vocab) lookupAll(strs [][]byte, ids []uint32, hs, refs []uint64) ([]uint64, []uint64) {
	hs, refs = slices.Grow(hs[:0], len(strs))[:len(strs)], slices.Grow(refs[:0], len(strs))[:len(strs)]
	mask := uint64(len(v.table) - 1)
	idMask := uint32(mask)
	for i, s := range strs {
		hs[i] = maphash.Bytes(v.seed, s)
	}
	for i, h := range hs {
		ids[i] = v.table[h&mask]
	}
	for i, slot := range ids {
		if slot != 0 && slot&^idMask == slotTag(hs[i], v.idBits) {
			refs[i] = v.ref(slot&idMask - 1)
		} else {
			refs[i] = ^uint64(0)
		}
	}
	for i, s := range strs {
		if r := refs[i]; r != ^uint64(0) && v.refString(r) == string(s) {
			ids[i] = ids[i]&idMask - 1
			continue
		}
		id, ok := v.lookupHash(hs[i], s)
		if !ok {
			id = notFound
		}
		ids[i] = id
	}
	return hs, refs
}

// notFound is lookupAll's id of a string not in the vocab: no id is
// this large.
const notFound = ^uint32(0)

// LookupString returns the id of the string s, without allocating.
func (v *Vocab) LookupString(s string) (uint32, bool) {
	return v.lookup(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// intern returns the id of b, adding a copy of it if new.
func (v *Vocab) intern(b []byte) uint32 {
	if id, ok := v.lookup(b); ok {
		return id
	}
	return v.add(v.copyRef(b))
}

// Intern returns the id of the string b, adding a copy when new.
func (v *Vocab) Intern(b []byte) uint32 { return v.intern(b) }

// InternString returns the id of s, adding it when new.
func (v *Vocab) InternString(s string) uint32 {
	return v.intern(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// copyRef copies b into the vocab's memory and returns its reference.
func (v *Vocab) copyRef(b []byte) uint64 {
	switch {
	case len(b) == 0:
		return 0
	case len(b) >= refLong:
		v.long = append(v.long, string(b))
		return makeRef(len(v.long)-1, 0, refLong)
	case len(b) > vocabChunk/16:
		v.Chunks = append(v.Chunks, append([]byte(nil), b...))
		return makeRef(len(v.Chunks)-1, 0, len(b))
	}
	if v.open < 0 || vocabChunk-v.fill < len(b) {
		// Full length from the start: a chunk's slice header never
		// changes once readers may see it.
		v.Chunks = append(v.Chunks, make([]byte, vocabChunk))
		v.open, v.fill = len(v.Chunks)-1, 0
	}
	off := v.fill
	copy(v.Chunks[v.open][off:], b)
	v.fill += len(b)
	return makeRef(v.open, off, len(b))
}

// add appends the string at ref, known to be absent, and returns its id.
func (v *Vocab) add(ref uint64) uint32 {
	id := uint32(v.N)
	if v.N>>RefPageBits == len(v.Pages) {
		v.Pages = append(v.Pages, new(refPage))
	}
	v.setRef(id, ref)
	v.N++
	if 2*v.N > len(v.table) {
		v.grow(2 * len(v.table))
	} else {
		v.place(id)
	}
	return id
}

func (v *Vocab) place(id uint32) {
	mask := uint64(len(v.table) - 1)
	h := maphash.String(v.seed, v.Str(id))
	for i := h & mask; ; i = (i + 1) & mask {
		if v.table[i] == 0 {
			v.table[i] = slotTag(h, v.idBits) | (id + 1)
			return
		}
	}
}

// grow makes the table n slots long, n a power of two.
func (v *Vocab) grow(n int) {
	v.table = make([]uint32, n)
	v.idBits = uint(bits.TrailingZeros(uint(n)))
	for id := range v.N {
		v.place(uint32(id))
	}
}

// wordTable is a vocab shared by the indexes of a process (see Shared),
// so that a word has one id in all of them and their records can be
// shared too. Its lock is its own, taken after an Index's (never the
// other way round): a caller holding an index's lock may intern, and a
// view taken under the index's lock covers every id the index's records
// hold at that moment, since they were interned before being added.
type wordTable struct {
	mu sync.RWMutex
	v  *Vocab
}

func newWordTable() *wordTable { return &wordTable{v: NewVocab()} }

// View returns the strings as they are now, for use without any lock.
func (t *wordTable) View() *StrTable {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.v.View()
}

// Len is how many strings the table holds: an id below it is valid.
func (t *wordTable) Len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.v.Len()
}

// Lookup returns the id of the string b, under the read lock.
func (t *wordTable) Lookup(b []byte) (uint32, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.v.lookup(b)
}

// LookupString is Lookup of s.
func (t *wordTable) LookupString(s string) (uint32, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.v.LookupString(s)
}

// read calls f with the vocab, which it may only read, under the read
// lock: for many lookups at once.
func (t *wordTable) read(f func(v *Vocab)) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	f(t.v)
}

// Write calls f with the vocab under the lock: for interning.
func (t *wordTable) Write(f func(v *Vocab)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f(t.v)
}

// adopt makes the vocab load returns the table's, if the table holds no
// string yet (else it calls nothing), and reports whether it did. The
// table is locked meanwhile: a lookup or an intern waits for the load.
func (t *wordTable) adopt(load func() *Vocab) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.v.N > 0 {
		return false
	}
	if v := load(); v != nil {
		t.v = v
		return true
	}
	return false
}
