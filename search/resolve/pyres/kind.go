package pyres

import (
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/search/resolve/factrec"
)

// Kind is the index's record kind of Python files' facts
// (factrec.Kind).
type Kind = factrec.Kind[pyFacts]

// NoKind is Kind without records (an index without the resolver's
// facts, to measure what they cost).
type NoKind = factrec.NoKind[pyFacts]

var (
	_ index.RecordKind    = Kind{}
	_ index.TreeKind      = Kind{}
	_ index.InterningKind = Kind{}
)

// pyFacts is Python's side of Kind.
type pyFacts struct{}

func (pyFacts) Reads(path string) bool { return IsPython(path) }

func (pyFacts) Versions() (enc, ids byte) { return encVersion, idsVersion }

// Tree reads the facts of a Python file from root.
func (pyFacts) Tree(_ string, data []byte, _ *grammar.Language, root *sitter.Node) []byte {
	return Encode(Facts(root, data))
}

// Plain parses the Python file for its facts.
func (pyFacts) Plain(_ string, data []byte) []byte {
	if f := Parse(data); f != nil {
		return Encode(f)
	}
	return nil
}
