package resolve

import (
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/search/resolve/factrec"
)

// Kind is the index's record kind of Go files' facts (factrec.Kind).
type Kind = factrec.Kind[goFacts]

// NoKind is Kind without records (an index without the resolver's facts,
// to measure what they cost).
type NoKind = factrec.NoKind[goFacts]

var (
	_ index.RecordKind    = Kind{}
	_ index.TreeKind      = Kind{}
	_ index.InterningKind = Kind{}
	_ index.SpillKind     = Kind{}
)

// goFacts is Go's side of Kind.
type goFacts struct{}

func (goFacts) Reads(path string) bool { return IsGo(path) }

func (goFacts) Versions() (enc, ids byte) { return encVersion, idsVersion }

// Tree reads the facts of a Go file from root.
func (goFacts) Tree(_ string, data []byte, lang *grammar.Language, root *sitter.Node) []byte {
	if lang.Name != "go" {
		return nil
	}
	return Encode(GoFacts(lang.Sitter(), root, data))
}

// Plain parses the Go file for its facts.
func (goFacts) Plain(_ string, data []byte) []byte {
	if f := Parse(data); f != nil {
		return Encode(f)
	}
	return nil
}
