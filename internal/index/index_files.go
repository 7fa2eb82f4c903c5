package index

import (
	"slices"
	"strings"

	"github.com/zumba-dev/zumba/internal/project"
)

// The index's answers about its files: which hold a word, which are
// live, whether all are parsed.

// Candidates lists, in path order, the files that may hold name as a
// whole word: those holding every word of name. A whole-word occurrence of
// name has each of its words bounded on both sides (inside the name by its
// own punctuation, at its ends by the boundary WordScanner requires beside
// a word character: "operate(" needs one before "operate"), so each is a
// word of the file. A name without words, or with one too long to be indexed,
// needs every file.
func (ix *Index) Candidates(name string) []project.Entry {
	ix.Mu.RLock()
	ids, all := ix.CandidateIDsLocked(name)
	var out []project.Entry
	if all {
		ids = ix.LiveIDsLocked()
	}
	out = make([]project.Entry, 0, len(ids))
	for _, f := range ids {
		out = append(out, ix.Files[f].Entry())
	}
	ix.Mu.RUnlock()
	return SortByPath(out)
}

// CandidateIDsLocked lists the live files holding every word of name, in
// id order; all is set when every file may hold it.
func (ix *Index) CandidateIDsLocked(name string) (ids []uint32, all bool) {
	var words [][]byte
	ForWords([]byte(name), func(w []byte) { words = append(words, w) })
	if len(words) == 0 {
		return nil, true
	}
	var keys []uint32
	for _, w := range words {
		if !IndexedWord(w) {
			return nil, true
		}
		id, ok := ix.Words.Lookup(w)
		if !ok {
			return nil, false
		}
		keys = append(keys, id)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	for i, k := range keys {
		if i == 0 {
			ids = ix.WordPost.List(k, nil)
			continue
		}
		ids = intersect(ids, ix.WordPost.List(k, nil))
	}
	return ix.liveLocked(ids), false
}

// liveLocked keeps the ids that have a record.
func (ix *Index) liveLocked(ids []uint32) []uint32 {
	out := ids[:0]
	for _, f := range ids {
		if int(f) < len(ix.Files) && ix.Files[f] != nil {
			out = append(out, f)
		}
	}
	return out
}

// LiveIDsLocked lists the ids that have a record, in id order. The
// caller holds ix.Mu.
func (ix *Index) LiveIDsLocked() []uint32 {
	out := make([]uint32, 0, ix.Live)
	for f, r := range ix.Files {
		if r != nil {
			out = append(out, uint32(f))
		}
	}
	return out
}

// SortByPath sorts entries by path. Most come in path order already (ids
// follow the walk), so the sorted run at the start is kept and only the
// rest sorted and merged in.
func SortByPath(es []project.Entry) []project.Entry {
	cmp := func(a, b project.Entry) int { return strings.Compare(a.Path, b.Path) }
	run := 1
	for run < len(es) && es[run-1].Path < es[run].Path {
		run++
	}
	if run >= len(es) {
		return es
	}
	rest := slices.Clone(es[run:])
	slices.SortFunc(rest, cmp)
	out := make([]project.Entry, 0, len(es))
	a := es[:run]
	for len(a) > 0 && len(rest) > 0 {
		if cmp(a[0], rest[0]) <= 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, rest = append(out, rest[0]), rest[1:]
		}
	}
	out = append(append(out, a...), rest...)
	return slices.CompactFunc(out, func(a, b project.Entry) bool { return a.Path == b.Path })
}

// entries lists the indexed files in path order.
func (ix *Index) entries() []project.Entry {
	ix.Mu.RLock()
	out := make([]project.Entry, 0, ix.Live)
	for _, r := range ix.Files {
		if r != nil {
			out = append(out, r.Entry())
		}
	}
	ix.Mu.RUnlock()
	return SortByPath(out)
}

// ParsedFiles counts the files whose definitions the index holds.
func (ix *Index) ParsedFiles() int {
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	n := 0
	for _, r := range ix.Files {
		if r != nil && r.Parsed {
			n++
		}
	}
	return n
}

// AllParsed reports whether every file's definitions are known. Once
// they are, calls learn it without a look at every record until the
// index changes.
func (ix *Index) AllParsed() bool {
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	return ix.AllParsedLocked()
}

// AllParsedLocked is allParsed for a caller holding ix.mu.
func (ix *Index) AllParsedLocked() bool {
	if ix.parsedGen.Load() == ix.gen+1 {
		return true
	}
	for _, r := range ix.Files {
		if r != nil && !r.Dead && !r.Parsed && !r.Failed {
			return false
		}
	}
	ix.parsedGen.Store(ix.gen + 1)
	return true
}

// Gen is the index's generation: it changes with every change to its
// records (a file read, parsed, removed), so that what a search keeps
// of them can tell when it is stale.
func (ix *Index) Gen() uint64 {
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	return ix.gen
}

// FilesGen counts the changes to the index's files (one read, re-read
// or removed), not their parses: an answer that needed no file parsed
// that was not (a complete one) holds while it stays the same.
func (ix *Index) FilesGen() uint64 {
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	return ix.filesGen
}

// Complete reports whether the index is complete: every file's words and
// definitions are in.
func (ix *Index) Complete() bool { return ix.symbolsReady.Load() }
