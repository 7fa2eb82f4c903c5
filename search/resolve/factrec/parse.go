package factrec

import (
	"context"
	"sync"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
)

// ParseTimeout bounds one file's parse for its facts.
const ParseTimeout = 2 * time.Second

var parsers = sync.Pool{New: func() any { return sitter.NewParser() }}

// Parse parses src with lang, within ParseTimeout, and returns what facts
// reads from the tree's root (the tree is freed after): a file's facts
// where the index has no tree of it. The zero F when lang is nil or the
// parse does not end in time.
func Parse[F any](lang *sitter.Language, src []byte, facts func(root *sitter.Node) F) F {
	var zero F
	if lang == nil {
		return zero
	}
	p := parsers.Get().(*sitter.Parser)
	p.SetLanguage(lang)
	p.SetOperationLimit(int(ParseTimeout.Microseconds()))
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		// A parser stopped part-way is not reused.
		p.Close()
		return zero
	}
	parsers.Put(p)
	defer tree.Close()
	return facts(tree.RootNode())
}
