package index

import (
	"encoding/binary"
	"runtime"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
)

// The index keeps, beside each file's words, the records the searches
// ask of it: one per record kind (the definitions, find_code's words),
// each declared by the search that owns it and handed to the index when
// it is made (see NewIndex). The index knows no kind's layout: it asks a
// kind to make a parsed file's record, to list the keys the record is
// found by (each kind has its own postings), and to re-encode the record
// with another numbering of its strings for the store (index_store.go).

// A recordKind is one kind of per-file record. Its records hold strings
// as vocab ids; the methods may be called by many goroutines at once.
type RecordKind interface {
	// Make returns the record of the file at path whose bytes are data
	// and whose definitions are defs (in outline order, not empty),
	// interning its strings in v; the caller holds v's lock. nil for no
	// record.
	Make(path string, data []byte, defs []outline.Definition, v *Vocab) []byte
	// Keys appends to dst the keys rec is found by (vocab ids), in
	// increasing order and without repeats.
	Keys(rec []byte, dst []uint32) []uint32
	// Export appends to dst rec re-encoded for the store: its string ids
	// (below nstrs) mapped by m, leaving out what Import adds back for
	// the path.
	Export(dst, rec []byte, nstrs uint64, m func(uint32) uint32) ([]byte, error)
	// PathStrings appends to dst the strings of path that an exported
	// record leaves out, for Import.
	PathStrings(path string, dst [][]byte) [][]byte
	// Import appends to dst an exported record re-encoded for the index:
	// its string ids (below nstrs) mapped by m, and the ids of the
	// strings PathStrings listed added back as pathIDs.
	Import(dst, rec []byte, nstrs uint64, m func(uint32) uint32, pathIDs []uint32) ([]byte, error)
}

// A PlainKind is a record kind whose records hold no vocab ids (their
// strings are in them): the index makes them with MakePlain, outside the
// vocab's lock, instead of Make, since making one may take a parse of
// its own (a resolver's facts).
type PlainKind interface {
	MakePlain(path string, data []byte, defs []outline.Definition) []byte
}

// A TreeKind is a plain kind that makes its record from the syntax tree
// the index's own outline of the file parsed (outline.ParseTree), before
// that tree is freed: a kind that reads more of a file than its
// definitions (a resolver's facts: imports, selectors, types, for any
// language) then costs a walk of the tree instead of a second parse.
//
// MakeTree returns the record of the file at path whose bytes are data
// and whose definitions are defs (not empty), read from root, the root of
// the tree lang's grammar parsed of data (of lang.Prepare(data) where
// lang has a Prepare, which moves no byte: nodes' offsets are data's).
// root and every node under it are valid only during the call: keep no
// node. nil for no record. It is called for every parsed file with
// definitions, whatever its language, from many goroutines at once and
// outside the vocab's lock: a kind answers nil at once for the languages
// it does not read (by lang or path).
//
// Where the index has no tree of the file, it calls MakePlain instead,
// which parses the file itself; both must make the same record.
type TreeKind interface {
	PlainKind
	MakeTree(path string, data []byte, defs []outline.Definition, lang *grammar.Language, root *sitter.Node) []byte
}

// An InterningKind is a plain kind whose records hold vocab ids after
// all: the index hands Intern, under the vocab's lock, each record
// MakePlain or MakeTree made (its strings in it) and keeps what Intern
// returns, the same record with its strings interned in v (then Export
// and Import map its ids as any kind's). The long part, making the
// record (a parse, a tree walk), stays outside the lock; only the
// interning is in it. A string in many files is kept once (the
// resolvers' facts: a file's names as ids instead of their bytes).
type InterningKind interface {
	PlainKind
	Intern(rec []byte, v *Vocab) []byte
}

// A recordCounter is a record kind that sums up the live records of its
// kind: Count is called, under the index's lock, with n 1 when a record
// becomes live and -1 when it dies.
type recordCounter interface {
	Count(rec []byte, n int)
}

// records are a file's records, one per kind in the index's order, in one
// array: each as its length (uvarint) and its bytes. nil when every
// record is empty. Read-only: shared between indexes (shareBytes).
type records []byte

// PackRecords lays out recs (one per kind) as records, in memory of
// their size.
func PackRecords(recs [][]byte) records {
	size := 0
	for _, r := range recs {
		size += uvarintLen(uint64(len(r))) + len(r)
	}
	if size == len(recs) {
		return nil
	}
	b := make([]byte, 0, size)
	for _, r := range recs {
		b = binary.AppendUvarint(b, uint64(len(r)))
		b = append(b, r...)
	}
	return b
}

// Get returns the record of kind k; nil when empty. The slice has no
// spare capacity.
func (p records) Get(k int) []byte {
	for i := 0; len(p) > 0; i++ {
		n, w := binary.Uvarint(p)
		if w <= 0 || uint64(len(p)-w) < n {
			return nil
		}
		if i == k {
			if n == 0 {
				return nil
			}
			return p[w : w+int(n) : w+int(n)]
		}
		p = p[w+int(n):]
	}
	return nil
}

// recKeys appends to keys[k] the keys the record of kind k is found by,
// for each kind (keys has one list per kind), when r is parsed.
func (ix *Index) recKeys(r *FileRec, keys [][]uint32) {
	if !r.Parsed {
		return
	}
	for k, kind := range ix.kinds {
		if rec := ix.liveRecord(r, k); len(rec) > 0 {
			keys[k] = kind.Keys(rec, keys[k])
		}
	}
}

// liveRecord is r's record of kind k (Record), for the index's own
// bookkeeping: nil, logged, when a spilled one cannot be read back.
func (ix *Index) liveRecord(r *FileRec, k int) []byte {
	rec, err := ix.Record(k, r.Recs.Get(k))
	if err != nil {
		ix.Logf("%s: %v", r.Path, err)
	}
	return rec
}

// countLocked counts r's records in (n 1) or out (-1) of the kinds that
// sum them up. The caller holds ix.mu.
func (ix *Index) countLocked(r *FileRec, n int) {
	for k, kind := range ix.kinds {
		if c, ok := kind.(recordCounter); ok {
			if rec := ix.liveRecord(r, k); len(rec) > 0 {
				c.Count(rec, n)
			}
		}
	}
}

// hasTreeKind reports whether a kind of ix is a TreeKind.
func (ix *Index) hasTreeKind() bool {
	for _, kind := range ix.kinds {
		if _, ok := kind.(TreeKind); ok {
			return true
		}
	}
	return false
}

// treeRecords makes the records of the tree kinds of the file at path
// from the tree lang's grammar parsed of its bytes data, whose root is
// root and whose definitions are defs, for makeRecords: one entry per
// kind, those of the other kinds nil.
func (ix *Index) treeRecords(path string, data []byte, defs []outline.Definition, lang *grammar.Language, root *sitter.Node) [][]byte {
	recs := make([][]byte, len(ix.kinds))
	if len(defs) == 0 {
		return recs
	}
	for k, kind := range ix.kinds {
		if t, ok := kind.(TreeKind); ok {
			recs[k] = t.MakeTree(path, data, defs, lang, root)
		}
	}
	return recs
}

// makeRecords makes the records of every kind of the file at path, whose
// bytes are data and whose definitions are defs. fromTree, when not nil,
// holds the records treeRecords made (the tree kinds' are not made again).
func (ix *Index) makeRecords(path string, data []byte, defs []outline.Definition, fromTree [][]byte) records {
	if len(defs) == 0 {
		return nil
	}
	recs := fromTree
	if recs == nil {
		recs = make([][]byte, len(ix.kinds))
	}
	for k, kind := range ix.kinds {
		if _, ok := kind.(TreeKind); ok && fromTree != nil {
			continue
		}
		if p, ok := kind.(PlainKind); ok {
			recs[k] = p.MakePlain(path, data, defs)
		}
	}
	ix.Words.Write(func(v *Vocab) {
		for k, kind := range ix.kinds {
			switch kind := kind.(type) {
			case InterningKind:
				if recs[k] != nil {
					recs[k] = kind.Intern(recs[k], v)
				}
			case PlainKind:
			default:
				recs[k] = kind.Make(path, data, defs, v)
			}
		}
	})
	ix.spillRecs(recs)
	return PackRecords(recs)
}

// compactChunk is the size of the arenas compactRecords moves records
// to; a record over an eighth of it stays where it is. compactBatch is
// how many bytes of records it moves at a time under the index's lock,
// collecting the garbage they leave after each batch.
const (
	compactChunk = 4 << 20
	compactBatch = 32 << 20
)

// compactRecords moves the records of every file into arenas of
// compactChunk bytes, once the index is complete. Each was allocated on
// its own as its file was parsed, among the parse's garbage: once that
// is collected, the spans holding a few records each stay in use (after
// the kernel's cold build, the heap in use was ~90 MiB more than the
// same index loaded from its image, whose records lie in one array). A
// batch at a time, the garbage collected after each, so that the moves
// do not add the records' size to the peak. A record replaced later
// keeps its arena alive while others in it live: at most the records'
// size once more. Records in an arena already (the image's) stay, and
// shared records (a Shared given) stay where package unique keeps them.
func (ix *Index) compactRecords() {
	if ix.opts.Shared != nil {
		return
	}
	var arena []byte
	for from := 0; ; {
		moved := 0
		ix.Mu.Lock()
		n := len(ix.Files)
		for ; from < n && moved < compactBatch; from++ {
			r := ix.Files[from]
			if r == nil || r.packed || len(r.Recs) == 0 || len(r.Recs) > compactChunk/8 {
				continue
			}
			m := len(r.Recs)
			if cap(arena)-len(arena) < m {
				arena = make([]byte, 0, compactChunk)
			}
			arena = append(arena, r.Recs...)
			r.Recs, r.packed = arena[len(arena)-m:len(arena):len(arena)], true
			moved += m
		}
		ix.Mu.Unlock()
		if from >= n {
			return
		}
		runtime.GC()
	}
}
