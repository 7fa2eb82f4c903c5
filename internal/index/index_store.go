package index

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/zumba-dev/zumba/internal/diskcache"
)

// A file's records (its words, and one record of each kind: its
// definitions, find_code's words) are kept in the disk cache's store by
// the file's content (see [diskcache.Store]), shared by every project
// and process: a second checkout of a project takes its unchanged files'
// records from there. An entry holds its strings itself, since the
// vocab's ids are each index's own:
//
//	flags         1 byte: 1 when the file is generated
//	strings       uvarint count, each one's length, the bytes end to end;
//	              the file's words first
//	words         uvarint: how many of the strings are the file's words
//	records       per kind, in the index's order: uvarint length, then
//	              the kind's record as it exports it (recordKind.Export),
//	              with the entry's string numbers and without what the
//	              kind adds back for the path it finds the file at (the
//	              definitions, search/internal/defrec; find_code's words, without
//	              the words of the path, search/findcode/record.go)
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
	base := path[strings.LastIndexByte(path, '/')+1:]
	h.Write(binary.AppendUvarint(nil, uint64(len(base))))
	h.Write([]byte(base))
	h.Write(data)
	var k diskcache.Key
	copy(k[:], h.Sum(nil))
	return k
}

// encodeEntry makes the store's entry of a parsed record whose words (vocab
// ids) are words, its strings from strs.
func (ix *Index) encodeEntry(strs *StrTable, words []uint32, generated bool, recs records) ([]byte, error) {
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
	nstrs := uint64(strs.Len())
	var lrecs []byte
	for k, kind := range ix.kinds {
		rec, err := ix.Record(k, recs.Get(k))
		if err != nil {
			return nil, err
		}
		if len(rec) == 0 {
			lrecs = append(lrecs, 0)
			continue
		}
		l, err := kind.Export(nil, rec, nstrs, num)
		if err != nil {
			return nil, err
		}
		lrecs = binary.AppendUvarint(lrecs, uint64(len(l)))
		lrecs = append(lrecs, l...)
	}
	size := 16 + len(lrecs)
	for _, id := range ids {
		size += 2 + len(strs.Str(id))
	}
	b := make([]byte, 1, size)
	if generated {
		b[0] = entryGenerated
	}
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		b = binary.AppendUvarint(b, uint64(len(strs.Str(id))))
	}
	for _, id := range ids {
		b = append(b, strs.Str(id)...)
	}
	b = binary.AppendUvarint(b, uint64(nwords))
	b = append(b, lrecs...)
	return b, nil
}

// StoreRec is a record decoded from the store, with its ids in the
// index's vocab.
type StoreRec struct {
	Generated bool
	// Words are the file's words, in the scratch memory the entry was
	// decoded with.
	Words []uint32
	Recs  records
}

// entryScratch is what decoding an entry needs only while it runs.
type entryScratch struct {
	entry []byte
	strs  [][]byte
	// ids are the vocab ids of strs, the file's words first (read and
	// fromStore return these).
	ids []uint32
	// recs are the entry's records, bufs their memory as imported; at
	// says where each kind's strings of the path are in strs.
	recs, bufs [][]byte
	at         []int
	// hs and refs are lookupAll's.
	hs, refs []uint64
	// keys are a record's keys per kind (recKeys), while the build
	// packs them.
	keys [][]uint32
}

var entryScratches = sync.Pool{New: func() any { return &entryScratch{} }}

// keysFor returns es.keys for n kinds, emptied.
func (es *entryScratch) keysFor(n int) [][]uint32 {
	if len(es.keys) != n {
		es.keys = make([][]uint32, n)
	}
	for k := range es.keys {
		es.keys[k] = es.keys[k][:0]
	}
	return es.keys
}

// DecodeEntry reads an entry for the file at path, interning its strings.
func (ix *Index) DecodeEntry(b []byte, path string) (*StoreRec, error) {
	sc := entryScratches.Get().(*entryScratch)
	defer entryScratches.Put(sc)
	r, err := ix.decodeEntryWith(b, path, sc)
	if r != nil {
		r.Words = slices.Clone(r.Words)
	}
	return r, err
}

func (ix *Index) decodeEntryWith(b []byte, path string, sc *entryScratch) (*StoreRec, error) {
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
	recs := sc.recs[:0]
	for range ix.kinds {
		recs = append(recs, r.Bytes())
	}
	sc.recs = recs
	if r.Err() != nil || !r.Done() || nwords > n {
		return nil, errBadEntry
	}
	// The strings of the path the kinds' records need, after the
	// entry's: kind k's are strs[at[k]:at[k+1]].
	at := append(sc.at[:0], len(strs))
	for k, kind := range ix.kinds {
		if len(recs[k]) > 0 {
			strs = kind.PathStrings(path, strs)
		}
		at = append(at, len(strs))
	}
	sc.at = at
	ids := ix.internAll(strs, sc)
	sc.strs, sc.ids = strs[:0], ids
	out := &StoreRec{Generated: flags&entryGenerated != 0, Words: ids[:nwords:nwords]}
	m := func(l uint32) uint32 { return ids[l] }
	if len(sc.bufs) != len(ix.kinds) {
		sc.bufs = make([][]byte, len(ix.kinds))
	}
	for k, kind := range ix.kinds {
		if len(recs[k]) == 0 {
			recs[k] = nil
			continue
		}
		b, err := kind.Import(sc.bufs[k][:0], recs[k], uint64(n), m, ids[at[k]:at[k+1]])
		if err != nil {
			return nil, err
		}
		recs[k], sc.bufs[k] = b, b
	}
	ix.spillRecs(recs)
	out.Recs = PackRecords(recs)
	clear(recs)
	return out, nil
}

// internAll returns the vocab ids of strs, adding those new to it, in
// sc.ids's memory (lookupAll's scratch in sc too).
func (ix *Index) internAll(strs [][]byte, sc *entryScratch) []uint32 {
	ids := slices.Grow(sc.ids[:0], len(strs))[:len(strs)]
	ix.Words.read(func(v *Vocab) { sc.hs, sc.refs = v.lookupAll(strs, ids, sc.hs, sc.refs) })
	if slices.Contains(ids, notFound) {
		ix.Words.Write(func(v *Vocab) {
			for i, id := range ids {
				if id == notFound {
					ids[i] = v.intern(strs[i])
				}
			}
		})
	}
	return ids
}

// exact returns b in memory of its size (or a sixteenth more): what is
// kept for long, made by append, whose spare room was up to half of it.
func exact(b []byte) []byte {
	if cap(b)-len(b) <= len(b)/16 {
		return b
	}
	return append(make([]byte, 0, len(b)), b...)
}
