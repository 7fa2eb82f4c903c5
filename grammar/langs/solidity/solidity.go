// Package solidity links the Solidity grammar (tree-sitter-solidity,
// vendored from its npm package; see VERSION) for the registry of package
// grammar.
package solidity

// #cgo CFLAGS: -std=c11 -fPIC -I${SRCDIR}
// typedef struct TSLanguage TSLanguage;
// const TSLanguage *tree_sitter_solidity(void);
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// Language returns the Solidity grammar.
func Language() *sitter.Language {
	return sitter.NewLanguage(unsafe.Pointer(C.tree_sitter_solidity()))
}
