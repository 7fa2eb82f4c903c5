package search

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/zumba-dev/zumba/internal/diskcache"
)

// A file's records (its words, definitions and find_code's words) are
// kept in the disk cache's store by the file's content (see
// [diskcache.Store]), shared by every project and process: a second
// checkout of a project takes its unchanged files' records from there.
// An entry holds its strings itself, since the vocab's ids are each
// index's own:
//
//	flags         1 byte: 1 when the file is generated
//	strings       uvarint count, each one's length, the bytes end to end;
//	              the file's words first
//	words         uvarint: how many of the strings are the file's words
//	definitions   uvarint length, then the definitions' encoding (see
//	              index_defs.go) with the entry's string numbers
//	code          uvarint length, then find_code's record (see
//	              code_record.go) with the entry's string numbers and
//	              without the words of the path: the index adds them
//	              back for the path it finds the file at
//
// The key hashes what the records are computed from: the file's bytes
// and its base name (see contentKey); the producer (the build of zumba)
// is the store's own.

// entryGenerated is the flags bit of a generated file.
const entryGenerated = 1

var errBadEntry = errors.New("bad store entry")

// contentKey is the store's key of the records of the file at path whose
// bytes are data: a hash of its base name and its bytes. Everything the
// records depend on but the path's words (which the index adds at load)
// is a function of the two: the language (grammar.ForPath reads the name
// and the head), whether it is a Go file, its words and definitions.
// Hashing the name is cheaper than choosing the language (a .h file's
// head is matched against C++'s regular expressions).
func contentKey(path string, data []byte) diskcache.Key {
	h := sha256.New()
	base := pathBase(path)
	h.Write(binary.AppendUvarint(nil, uint64(len(base))))
	h.Write([]byte(base))
	h.Write(data)
	var k diskcache.Key
	copy(k[:], h.Sum(nil))
	return k
}

// encodeEntry makes the store's entry of a parsed record whose words (vocab
// ids) are words, its strings from strs.
func encodeEntry(strs *strTable, words []uint32, generated bool, defs, code []byte) ([]byte, error) {
	local := make(map[uint32]uint32, len(words)+8)
	var ids []uint32
	num := func(id uint32) uint32 {
		l, ok := local[id]
		if !ok {
			l = uint32(len(ids))
			local[id] = l
			ids = append(ids, id)
		}
		return l
	}
	for _, w := range words {
		num(w)
	}
	nwords := len(ids)
	nstrs := uint64(strs.len())
	ldefs, _, err := remapDefs(defs, nstrs, num, nil)
	if err != nil {
		return nil, err
	}
	var lcode []byte
	if len(code) > 0 {
		lcode, _, _, err = remapCode(code, nstrs, num, nil, nil, nil)
		if err != nil {
			return nil, err
		}
	}
	size := 16 + len(ldefs) + len(lcode)
	for _, id := range ids {
		size += 2 + len(strs.str(id))
	}
	b := make([]byte, 1, size)
	if generated {
		b[0] = entryGenerated
	}
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		b = binary.AppendUvarint(b, uint64(len(strs.str(id))))
	}
	for _, id := range ids {
		b = append(b, strs.str(id)...)
	}
	b = binary.AppendUvarint(b, uint64(nwords))
	b = binary.AppendUvarint(b, uint64(len(ldefs)))
	b = append(b, ldefs...)
	b = binary.AppendUvarint(b, uint64(len(lcode)))
	b = append(b, lcode...)
	return b, nil
}

// storeRec is a record decoded from the store, with its ids in the
// index's vocab.
type storeRec struct {
	generated bool
	// words are the file's words, in the scratch memory the entry was
	// decoded with.
	words      []uint32
	defs, code []byte
}

// entryScratch is what decoding an entry needs only while it runs.
type entryScratch struct {
	entry []byte
	strs  [][]byte
	// ids are the vocab ids of strs, the file's words first (read and
	// fromStore return these).
	ids   []uint32
	words []codeWord
	buf   []byte
	// hs and refs are lookupAll's.
	hs, refs []uint64
	// defKeys and codeKeys are a record's keys (recKeys), while the
	// build packs them; not nil.
	defKeys, codeKeys []uint32
}

var entryScratches = sync.Pool{New: func() any { return &entryScratch{defKeys: []uint32{}, codeKeys: []uint32{}} }}

// decodeEntry reads an entry for the file at path, interning its strings.
func (ix *Index) decodeEntry(b []byte, path string) (*storeRec, error) {
	sc := entryScratches.Get().(*entryScratch)
	defer entryScratches.Put(sc)
	r, err := ix.decodeEntryWith(b, path, sc)
	if r != nil {
		r.words = slices.Clone(r.words)
	}
	return r, err
}

func (ix *Index) decodeEntryWith(b []byte, path string, sc *entryScratch) (*storeRec, error) {
	r := diskcache.NewReader(b)
	flags := r.Byte()
	n := r.Count()
	strs := sc.strs[:0]
	total := 0
	for range n {
		l := r.Uvarint()
		if l > uint64(len(b)) {
			return nil, errBadEntry
		}
		total += int(l)
		strs = append(strs, b[:l]) // for now, only its length counts
	}
	sc.strs = strs
	if r.Err() != nil {
		return nil, r.Err()
	}
	if total > len(r.Rest()) {
		return nil, errBadEntry
	}
	data := r.Rest()
	for i := range strs {
		l := len(strs[i])
		strs[i], data = data[:l:l], data[l:]
	}
	r.Skip(total)
	nwords := int(r.Uvarint())
	defs, code := r.Bytes(), r.Bytes()
	if r.Err() != nil || !r.Done() || nwords > n {
		return nil, errBadEntry
	}
	// The path's words, for find_code.
	var pathWordsB [][]byte
	if len(code) > 0 {
		forCodeWords([]byte(pathWords(path)), nil, func(w []byte) { pathWordsB = append(pathWordsB, slices.Clone(w)) })
	}
	strs = append(strs, pathWordsB...)
	ids := ix.internAll(strs, sc)
	sc.strs, sc.ids = strs[:0], ids
	out := &storeRec{generated: flags&entryGenerated != 0, words: ids[:nwords:nwords]}
	m := func(l uint32) uint32 { return ids[l] }
	var err error
	if out.defs, sc.buf, err = remapDefs(defs, uint64(n), m, sc.buf); err != nil {
		return nil, err
	}
	if len(code) > 0 {
		out.code, sc.words, sc.buf, err = remapCode(code, uint64(n), m, ids[n:], sc.words, sc.buf)
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// internAll returns the vocab ids of strs, adding those new to it, in
// sc.ids's memory (lookupAll's scratch in sc too).
func (ix *Index) internAll(strs [][]byte, sc *entryScratch) []uint32 {
	ids := slices.Grow(sc.ids[:0], len(strs))[:len(strs)]
	ix.words.read(func(v *vocab) { sc.hs, sc.refs = v.lookupAll(strs, ids, sc.hs, sc.refs) })
	if slices.Contains(ids, notFound) {
		ix.words.write(func(v *vocab) {
			for i, id := range ids {
				if id == notFound {
					ids[i] = v.intern(strs[i])
				}
			}
		})
	}
	return ids
}

// remapDefs re-encodes a definitions record, its string ids (below
// nstrs) mapped by m, in memory of its size; buf is scratch space,
// returned for reuse.
func remapDefs(raw []byte, nstrs uint64, m func(uint32) uint32, buf []byte) ([]byte, []byte, error) {
	if len(raw) == 0 {
		return nil, buf, nil
	}
	r := diskcache.NewReader(raw)
	n := r.Count()
	out := buf[:0]
	out = binary.AppendUvarint(out, uint64(n))
	err := walkDefs(raw, nstrs, func(name uint32, k byte, line, before, after uint64, quals []uint32) {
		out = binary.AppendUvarint(out, uint64(m(name)))
		out = append(out, k)
		out = binary.AppendUvarint(out, line)
		out = binary.AppendUvarint(out, before)
		out = binary.AppendUvarint(out, after)
		out = binary.AppendUvarint(out, uint64(len(quals)))
		for _, q := range quals {
			out = binary.AppendUvarint(out, uint64(m(q)))
		}
	})
	if err != nil {
		return nil, out, err
	}
	return slices.Clone(out), out, nil
}

// exact returns b in memory of its size (or a sixteenth more): what is
// kept for long, made by append, whose spare room was up to half of it.
func exact(b []byte) []byte {
	if cap(b)-len(b) <= len(b)/16 {
		return b
	}
	return append(make([]byte, 0, len(b)), b...)
}

// remapCode re-encodes find_code's record rec, its word ids (below nstrs)
// mapped by m. With path nil it leaves the path out: words only the path
// holds are dropped and no word is marked as the path's; otherwise path
// lists the (mapped) ids of the path's words, marked and added. It
// returns the record, in memory of its size; words and buf are scratch
// space, returned for reuse.
func remapCode(rec []byte, nstrs uint64, m func(uint32) uint32, path []uint32, words []codeWord, buf []byte) ([]byte, []codeWord, []byte, error) {
	r := diskcache.NewReader(rec)
	h := readCodeHead(r)
	r.Skip(2 * h.defs)
	headEnd := r.Offset()
	n := r.Count()
	words = words[:0]
	var id, at uint64
	for range n {
		id += r.Uvarint()
		l := r.Uvarint()
		if r.Err() != nil {
			return nil, words, buf, r.Err()
		}
		if id >= nstrs {
			return nil, words, buf, errBadCode
		}
		size := int(l >> 1)
		inPath := l&1 != 0
		if path == nil && inPath && size == 0 {
			at += uint64(size)
			continue
		}
		words = append(words, codeWord{id: m(uint32(id)), off: int(at), len: size})
		at += uint64(size)
	}
	lists := r.Rest()
	if r.Err() != nil || at != uint64(len(lists)) {
		return nil, words, buf, errBadCode
	}
	slices.SortFunc(words, func(a, b codeWord) int { return int(a.id) - int(b.id) })
	for _, p := range path {
		i, ok := slices.BinarySearchFunc(words, p, func(w codeWord, id uint32) int { return int(w.id) - int(id) })
		if !ok {
			words = slices.Insert(words, i, codeWord{id: p})
		}
		words[i].path = true
	}
	out := append(buf[:0], rec[:headEnd]...)
	out = binary.AppendUvarint(out, uint64(len(words)))
	prev := uint32(0)
	for _, w := range words {
		l := uint64(w.len) << 1
		if w.path {
			l |= 1
		}
		out = binary.AppendUvarint(binary.AppendUvarint(out, uint64(w.id-prev)), l)
		prev = w.id
	}
	for _, w := range words {
		out = append(out, lists[w.off:w.off+w.len]...)
	}
	return slices.Clone(out), words, out, nil
}

// codeWord is a word of a find_code record being remapped: its id, its
// list in the record's lists, and whether the path holds it.
type codeWord struct {
	id       uint32
	off, len int
	path     bool
}

// goPath reports whether find_code treats the file at path as Go's (see
// collectCode).
func goPath(path string) bool { return strings.HasSuffix(path, ".go") }
