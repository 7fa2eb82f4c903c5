package tsjs

import (
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/search/resolve/factrec"
)

// Kind is the index's record kind of TypeScript and JavaScript files'
// facts (factrec.Kind).
type Kind = factrec.Kind[tsFacts]

// NoKind is Kind without records (an index without the resolver's facts,
// to measure what they cost).
type NoKind = factrec.NoKind[tsFacts]

var (
	_ index.RecordKind    = Kind{}
	_ index.TreeKind      = Kind{}
	_ index.InterningKind = Kind{}
)

// tsFacts is TypeScript's and JavaScript's side of Kind.
type tsFacts struct{}

func (tsFacts) Reads(path string) bool { return Reads(path) }

func (tsFacts) Versions() (enc, ids byte) { return encVersion, idsVersion }

// Tree reads the facts of a TypeScript or JavaScript file from root.
func (tsFacts) Tree(_ string, data []byte, lang *grammar.Language, root *sitter.Node) []byte {
	return Encode(Facts(lang.Sitter(), root, data))
}

// Plain parses the file for its facts.
func (tsFacts) Plain(path string, data []byte) []byte {
	if f := Parse(path, data); f != nil {
		return Encode(f)
	}
	return nil
}
