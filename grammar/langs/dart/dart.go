// Package dart links the tree-sitter grammar of Dart (vendored from
// UserNobody14/tree-sitter-dart, its parser.c rewritten from ABI 15 to 14;
// see README and LICENSE).
package dart

// #cgo CFLAGS: -std=c11 -fPIC -I${SRCDIR}
// #include "tree_sitter/parser.h"
// const TSLanguage *tree_sitter_dart(void);
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// Language returns the Dart grammar.
func Language() *sitter.Language {
	return sitter.NewLanguage(unsafe.Pointer(C.tree_sitter_dart()))
}
