package resolve

import (
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/outline"
)

// Kind is the index's record kind of Go files' facts (see
// index.RecordKind): read from the tree the index's outline parsed
// (index.TreeKind), outside the vocabulary's lock, its strings in the
// record itself, found by no key.
type Kind struct{}

var (
	_ index.RecordKind = Kind{}
	_ index.TreeKind   = Kind{}
)

// MakeTree returns the encoded facts of a Go file read from root, the
// root of its tree; nil for any other file.
func (Kind) MakeTree(path string, data []byte, _ []outline.Definition, lang *grammar.Language, root *sitter.Node) []byte {
	if !IsGo(path) || lang == nil || lang.Name != "go" {
		return nil
	}
	return Encode(GoFacts(lang.Sitter(), root, data))
}

// MakePlain returns the encoded facts of a Go file, parsed on its own
// (where the index has no tree of it); nil for any other.
func (Kind) MakePlain(path string, data []byte, _ []outline.Definition) []byte {
	if !IsGo(path) {
		return nil
	}
	f := Parse(data)
	if f == nil {
		return nil
	}
	return Encode(f)
}

// Make is MakePlain (the index calls MakePlain for this kind).
func (k Kind) Make(path string, data []byte, defs []outline.Definition, _ *index.Vocab) []byte {
	return k.MakePlain(path, data, defs)
}

// Keys lists none: the facts are read by path.
func (Kind) Keys(_ []byte, dst []uint32) []uint32 { return dst }

// Export copies rec: it holds no vocabulary ids.
func (Kind) Export(dst, rec []byte, _ uint64, _ func(uint32) uint32) ([]byte, error) {
	return append(dst, rec...), nil
}

// PathStrings lists none.
func (Kind) PathStrings(_ string, dst [][]byte) [][]byte { return dst }

// Import copies rec.
func (Kind) Import(dst, rec []byte, _ uint64, _ func(uint32) uint32, _ []uint32) ([]byte, error) {
	return append(dst, rec...), nil
}

// NoKind is Kind without records (an index without the resolver's facts,
// to measure what they cost).
type NoKind struct{ Kind }

// MakeTree makes no record.
func (NoKind) MakeTree(string, []byte, []outline.Definition, *grammar.Language, *sitter.Node) []byte {
	return nil
}

// MakePlain makes no record.
func (NoKind) MakePlain(string, []byte, []outline.Definition) []byte { return nil }

// Make makes no record.
func (NoKind) Make(string, []byte, []outline.Definition, *index.Vocab) []byte { return nil }
