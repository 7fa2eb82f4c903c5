package factrec

import (
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/outline"
)

// Lang is a language's side of its facts' record kind: which files it
// reads, how their facts are read and encoded, and the record's
// versions. Its methods are called on its zero value.
type Lang interface {
	// Reads reports whether the language reads the file at path.
	Reads(path string) bool
	// Tree returns the encoded facts of the file at path whose bytes
	// are data, read from root, the root of the tree lang parsed (see
	// index.TreeKind); nil for no record.
	Tree(path string, data []byte, lang *grammar.Language, root *sitter.Node) []byte
	// Plain returns the encoded facts of the file at path from a parse
	// of its own; nil when it has none.
	Plain(path string, data []byte) []byte
	// Versions are the version bytes of a record with its strings in
	// it (Encoder.Record) and of one interned in the index (Intern).
	Versions() (enc, ids byte)
}

// Kind is the index's record kind of L's facts (see index.RecordKind):
// made from the tree the index's outline parsed (index.TreeKind) or,
// where the index has none, from a parse of its own (MakePlain), outside
// the vocabulary's lock, then its strings interned as vocab ids
// (index.InterningKind); found by no key, and kept in the index's spill
// file, not in memory (index.SpillKind).
type Kind[L Lang] struct{}

// Intern turns the table of strings of rec (MakeTree's or MakePlain's)
// into their ids in v; nil when rec is damaged.
func (Kind[L]) Intern(rec []byte, v *index.Vocab) []byte {
	var l L
	enc, ids := l.Versions()
	out, err := Intern(rec, enc, ids, v)
	if err != nil {
		return nil
	}
	return out
}

// MakeTree returns the encoded facts of a file L reads, read from the
// tree the outline parsed; nil for any other.
func (Kind[L]) MakeTree(path string, data []byte, _ []outline.Definition, lang *grammar.Language, root *sitter.Node) []byte {
	var l L
	if lang == nil || root == nil || !l.Reads(path) {
		return nil
	}
	return l.Tree(path, data, lang, root)
}

// MakePlain returns the encoded facts of a file L reads, parsed on its
// own (where the index has no tree of it); nil for any other.
func (Kind[L]) MakePlain(path string, data []byte, _ []outline.Definition) []byte {
	var l L
	if !l.Reads(path) {
		return nil
	}
	return l.Plain(path, data)
}

// Make is MakePlain, interned in v (the index calls MakeTree or
// MakePlain, then Intern).
func (k Kind[L]) Make(path string, data []byte, defs []outline.Definition, v *index.Vocab) []byte {
	if rec := k.MakePlain(path, data, defs); rec != nil {
		return k.Intern(rec, v)
	}
	return nil
}

// Keys lists none: the facts are read by path.
func (Kind[L]) Keys(_ []byte, dst []uint32) []uint32 { return dst }

// Export renumbers the table's ids.
func (Kind[L]) Export(dst, rec []byte, nstrs uint64, m func(uint32) uint32) ([]byte, error) {
	var l L
	_, ids := l.Versions()
	return Remap(dst, rec, ids, nstrs, m)
}

// Spill keeps the facts out of memory: only a resolved search reads
// them (see index.SpillKind).
func (Kind[L]) Spill() bool { return true }

// PathStrings lists none.
func (Kind[L]) PathStrings(_ string, dst [][]byte) [][]byte { return dst }

// Import renumbers the table's ids.
func (k Kind[L]) Import(dst, rec []byte, nstrs uint64, m func(uint32) uint32, _ []uint32) ([]byte, error) {
	return k.Export(dst, rec, nstrs, m)
}

// NoKind is Kind without records (an index without the resolver's facts,
// to measure what they cost).
type NoKind[L Lang] struct{ Kind[L] }

// MakeTree makes no record.
func (NoKind[L]) MakeTree(string, []byte, []outline.Definition, *grammar.Language, *sitter.Node) []byte {
	return nil
}

// MakePlain makes no record.
func (NoKind[L]) MakePlain(string, []byte, []outline.Definition) []byte { return nil }

// Make makes no record.
func (NoKind[L]) Make(string, []byte, []outline.Definition, *index.Vocab) []byte { return nil }
