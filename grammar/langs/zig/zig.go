// Package zig links the tree-sitter grammar of Zig (vendored from
// @tree-sitter-grammars/tree-sitter-zig 1.1.2; see README and LICENSE).
package zig

// #cgo CFLAGS: -std=c11 -fPIC
// #include "tree_sitter/parser.h"
// const TSLanguage *tree_sitter_zig(void);
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// Language returns the Zig grammar.
func Language() *sitter.Language {
	return sitter.NewLanguage(unsafe.Pointer(C.tree_sitter_zig()))
}
