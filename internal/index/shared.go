package index

import (
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
//   - with the ids the same, a file's records (one of each kind: its
//     definitions, find_code's words) are the same bytes in every root
//     that has the file at the same path, and are held once
//     (shareRecords);
//   - the postings' blocks (which files hold a word, a name, a find_code
//     word: index_postings.go) are the same bytes in two roots whose
//     common files have the same ids (a copy or a worktree, walked in the
//     same order) for every block their differences leave alone, and are
//     held once (shareBytes);
//   - the spill file of the records kept out of memory (index_spill.go),
//     each record written once however many roots have it, so that
//     their files' records are still the same bytes.
//
// Give the same Shared to every index of a process
// (Options.Shared); it is safe for concurrent use. Its table only
// grows: the words of an index closed stay until the Shared is dropped.
type Shared struct {
	words *wordTable
	// spill is the spill file of the indexes' spilled records
	// (index_spill.go).
	spill *spillFile
}

// NewShared returns an empty Shared.
func NewShared() *Shared { return &Shared{words: newWordTable(), spill: newSpillFile(true)} }

// ShareRecords returns a file's records as one string held once however
// many files have the same bytes: package unique keeps it while some
// record holds its handle h, so that a root's edit (a new record) leaves
// the other roots' records as they were. The records are read-only, as
// they always were.
func ShareRecords(recs records) (h unique.Handle[string], shared records) {
	if len(recs) == 0 {
		return h, recs
	}
	h, b := shareBytes(recs)
	return h, b[:len(b):len(b)]
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
