package pyres

import (
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/outline"
)

// Kind is the index's record kind of Python files' facts (see
// index.RecordKind): made from the tree the outline parsed (MakeTree)
// or, where the index has none, from a parse of its own (MakePlain),
// outside the vocabulary's lock, then its strings interned as vocab ids
// (index.InterningKind); found by no key.
type Kind struct{}

var (
	_ index.RecordKind    = Kind{}
	_ index.TreeKind      = Kind{}
	_ index.InterningKind = Kind{}
)

// Intern turns the table of strings of rec (MakeTree's or MakePlain's)
// into their ids in v; nil when rec is damaged.
func (Kind) Intern(rec []byte, v *index.Vocab) []byte {
	out, err := Intern(rec, v)
	if err != nil {
		return nil
	}
	return out
}

// MakePlain returns the encoded facts of a Python file; nil for any
// other.
func (Kind) MakePlain(path string, data []byte, _ []outline.Definition) []byte {
	if !IsPython(path) {
		return nil
	}
	f := Parse(data)
	if f == nil {
		return nil
	}
	return Encode(f)
}

// MakeTree returns the encoded facts of a Python file read from the
// tree the outline parsed; nil for any other.
func (Kind) MakeTree(path string, data []byte, _ []outline.Definition, lang *grammar.Language, root *sitter.Node) []byte {
	if lang == nil || root == nil || !IsPython(path) {
		return nil
	}
	return Encode(Facts(root, data))
}

// Make is MakePlain, interned in v (the index calls MakeTree or
// MakePlain, then Intern).
func (k Kind) Make(path string, data []byte, defs []outline.Definition, v *index.Vocab) []byte {
	if rec := k.MakePlain(path, data, defs); rec != nil {
		return k.Intern(rec, v)
	}
	return nil
}

// Keys lists none: the facts are read by path.
func (Kind) Keys(_ []byte, dst []uint32) []uint32 { return dst }

// Export renumbers the table's ids.
func (Kind) Export(dst, rec []byte, nstrs uint64, m func(uint32) uint32) ([]byte, error) {
	return remap(dst, rec, nstrs, m)
}

// PathStrings lists none.
func (Kind) PathStrings(_ string, dst [][]byte) [][]byte { return dst }

// Import renumbers the table's ids.
func (Kind) Import(dst, rec []byte, nstrs uint64, m func(uint32) uint32, _ []uint32) ([]byte, error) {
	return remap(dst, rec, nstrs, m)
}

// NoKind is Kind without records (an index without the resolver's
// facts, to measure what they cost).
type NoKind struct{ Kind }

// MakePlain makes no record.
func (NoKind) MakePlain(string, []byte, []outline.Definition) []byte { return nil }

// MakeTree makes no record.
func (NoKind) MakeTree(string, []byte, []outline.Definition, *grammar.Language, *sitter.Node) []byte {
	return nil
}

// Make makes no record.
func (NoKind) Make(string, []byte, []outline.Definition, *index.Vocab) []byte { return nil }
