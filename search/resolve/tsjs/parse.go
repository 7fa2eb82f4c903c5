package tsjs

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/search/resolve/factrec"
	// The facts are read from tree-sitter's trees: the grammars are
	// linked where the resolver is.
	_ "github.com/zumba-dev/zumba/grammar/langs"
)

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
	return factrec.Parse(lang, src, func(root *sitter.Node) *File { return Facts(lang, root, src) })
}
