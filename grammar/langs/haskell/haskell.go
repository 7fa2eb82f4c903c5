// Package haskell links the tree-sitter grammar of Haskell (vendored from
// the npm package tree-sitter-haskell 0.23.1; see README and LICENSE).
package haskell

// #cgo CFLAGS: -std=c11 -fPIC -I${SRCDIR}
// #include "tree_sitter/parser.h"
// const TSLanguage *tree_sitter_haskell(void);
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// Language returns the Haskell grammar.
func Language() *sitter.Language {
	return sitter.NewLanguage(unsafe.Pointer(C.tree_sitter_haskell()))
}
