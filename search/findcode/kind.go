package findcode

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync"

	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/outline"
)

// Kind is find_code's kind of record in the index (see
// [index.RecordKind]): each file's words, field by field (record.go), and
// their sums over the live records (codeStats, under the index's lock).
type Kind struct {
	codeStats
}

// Make collects the words of the file and encodes them.
func (*Kind) Make(path string, data []byte, defs []outline.Definition, v *index.Vocab) []byte {
	rec, _ := collectCode(path, data, defs).encode(v)
	return rec
}

// Keys lists the record's words: increasing, without repeats.
func (*Kind) Keys(rec []byte, dst []uint32) []uint32 {
	codeTerms(rec, func(id uint32, _ int, _ bool) { dst = append(dst, id) })
	return dst
}

// Export leaves out the words of the path: the index's importer adds
// those of the path it finds the file at.
func (*Kind) Export(dst, rec []byte, nstrs uint64, m func(uint32) uint32) ([]byte, error) {
	return appendRemapCode(dst, rec, nstrs, m, nil, true)
}

// PathStrings lists the words of the path (pathWords).
func (*Kind) PathStrings(path string, dst [][]byte) [][]byte {
	forCodeWords([]byte(pathWords(path)), nil, func(w []byte) { dst = append(dst, slices.Clone(w)) })
	return dst
}

// Import adds back the words of the path, pathIDs.
func (*Kind) Import(dst, rec []byte, nstrs uint64, m func(uint32) uint32, pathIDs []uint32) ([]byte, error) {
	return appendRemapCode(dst, rec, nstrs, m, pathIDs, false)
}

// Spill keeps the records in the index's spill file (see
// [index.SpillKind]), not in memory: on Linux 6.12 they are 81 MiB, a
// fifth of the index's heap, and a call reads back only the records of
// the files holding its words, from the page cache (one pread each:
// find_code's scoring on the Go tree 3.2-3.5 ms -> 3.7-3.9 ms median,
// on Linux 17.7-19.9 ms -> 19.3 ms).
func (*Kind) Spill() bool { return true }

// Count sums the record up in the stats.
func (c *Kind) Count(rec []byte, n int) { c.add(rec, n) }

var codeWordScratch = sync.Pool{New: func() any { return new([]codeWord) }}

// appendRemapCode appends to dst find_code's record rec re-encoded, its
// word ids (below nstrs) mapped by m. For export it leaves the path out:
// words only the path holds are dropped and no word is marked as the
// path's; otherwise path lists the (mapped) ids of the path's words,
// marked and added.
func appendRemapCode(dst, rec []byte, nstrs uint64, m func(uint32) uint32, path []uint32, export bool) ([]byte, error) {
	r := diskcache.NewReader(rec)
	h := readCodeHead(r)
	r.Skip(2 * h.defs)
	headEnd := r.Offset()
	n := r.Count()
	sw := codeWordScratch.Get().(*[]codeWord)
	defer codeWordScratch.Put(sw)
	words := (*sw)[:0]
	defer func() { *sw = words }()
	var id, at uint64
	for range n {
		id += r.Uvarint()
		l := r.Uvarint()
		if r.Err() != nil {
			return dst, r.Err()
		}
		if id >= nstrs {
			return dst, errBadCode
		}
		size := int(l >> 1)
		inPath := l&1 != 0
		if export && inPath && size == 0 {
			at += uint64(size)
			continue
		}
		words = append(words, codeWord{id: m(uint32(id)), off: int(at), len: size})
		at += uint64(size)
	}
	lists := r.Rest()
	if r.Err() != nil || at != uint64(len(lists)) {
		return dst, errBadCode
	}
	slices.SortFunc(words, func(a, b codeWord) int { return int(a.id) - int(b.id) })
	for _, p := range path {
		i, ok := slices.BinarySearchFunc(words, p, func(w codeWord, id uint32) int { return int(w.id) - int(id) })
		if !ok {
			words = slices.Insert(words, i, codeWord{id: p})
		}
		words[i].path = true
	}
	out := append(dst, rec[:headEnd]...)
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
	return out, nil
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
