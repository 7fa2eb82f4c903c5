package tsjs

import (
	"context"
	"strings"
	"sync"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	// The facts are read from tree-sitter's trees: the grammars are
	// linked where the resolver is.
	_ "github.com/zumba-dev/zumba/grammar/langs"
)

// parseTimeout bounds one file's parse for its facts.
const parseTimeout = 2 * time.Second

var parsers = sync.Pool{New: func() any { return sitter.NewParser() }}

// exts are the extensions of the files the resolver reads.
var exts = []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

// Reads reports whether p is a TypeScript or JavaScript file.
func Reads(p string) bool {
	for _, e := range exts {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

// Parse returns the facts of the file at p whose bytes are src; nil
// when it cannot be parsed in time.
func Parse(p string, src []byte) *File {
	g := grammar.ForPath(p, src)
	if g == nil || !Reads(p) {
		return nil
	}
	lang := g.Sitter()
	parser := parsers.Get().(*sitter.Parser)
	parser.SetLanguage(lang)
	parser.SetOperationLimit(int(parseTimeout.Microseconds()))
	tree, err := parser.ParseCtx(context.Background(), nil, src)
	if err != nil {
		parser.Close()
		return nil
	}
	parsers.Put(parser)
	defer tree.Close()
	return Facts(lang, tree.RootNode(), src)
}
