package search

import (
	"encoding/binary"
	"unique"
	"unsafe"
)

// Shared is what the indexes of one process share, so that a second root
// whose files are mostly the first's (a git worktree, a copy) costs
// little memory (issue 31):
//
//   - the table of the words and names that their records and postings
//     number, so that a string is held once and has one id in every
//     index;
//   - with the ids the same, a file's records (its definitions and
//     find_code's words) are the same bytes in every root that has the
//     file at the same path, and are held once (shareRecords);
//   - the postings' blocks (which files hold a word, a name, a find_code
//     word: index_postings.go) are the same bytes in two roots whose
//     common files have the same ids (a copy or a worktree, walked in the
//     same order) for every block their differences leave alone, and are
//     held once (shareBytes).
//
// Give the same Shared to every index of a process
// (IndexOptions.Shared); it is safe for concurrent use. Its table only
// grows: the words of an index closed stay until the Shared is dropped.
type Shared struct {
	words *wordTable
}

// NewShared returns an empty Shared.
func NewShared() *Shared { return &Shared{words: newWordTable()} }

// shareRecords returns a file's records, defs and code, as parts of one
// string held once however many records have the same bytes: package
// unique keeps it while some record holds its handle h, so that a root's
// edit (a new record) leaves the other roots' records as they were. The
// records are read-only, as they always were; the parts have no spare
// capacity, so an append copies them.
func shareRecords(defs, code []byte) (h unique.Handle[string], d, c []byte) {
	if len(defs) == 0 && len(code) == 0 {
		return h, defs, code
	}
	b := make([]byte, 0, binary.MaxVarintLen64+len(defs)+len(code))
	b = binary.AppendUvarint(b, uint64(len(defs)))
	b = append(b, defs...)
	b = append(b, code...)
	h, all := shareBytes(b)
	n, k := binary.Uvarint(all)
	all = all[k:]
	if n > 0 {
		d = all[:n:n]
	}
	if len(all) > int(n) {
		c = all[n:len(all):len(all)]
	}
	return h, d, c
}

// shareBytes returns b as bytes held once however many callers share the
// same bytes (a file's records, a postings' block), kept while one of
// them holds the handle h; they are read-only. b itself may be garbage
// after.
func shareBytes(b []byte) (h unique.Handle[string], shared []byte) {
	// Make copies the string when it is new, so b may be garbage after.
	h = unique.Make(unsafe.String(unsafe.SliceData(b), len(b)))
	v := h.Value()
	return h, unsafe.Slice(unsafe.StringData(v), len(v))
}
