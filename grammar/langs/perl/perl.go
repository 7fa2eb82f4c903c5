// Package perl links the Perl grammar (tree-sitter-perl, vendored from its
// npm package, its parser.c rewritten from ABI 15 to 14 by
// scripts/grammar-abi14; see VERSION) for the registry of package grammar.
package perl

// #cgo CFLAGS: -std=c11 -fPIC -I${SRCDIR}
// typedef struct TSLanguage TSLanguage;
// const TSLanguage *tree_sitter_perl(void);
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// Language returns the Perl grammar.
func Language() *sitter.Language {
	return sitter.NewLanguage(unsafe.Pointer(C.tree_sitter_perl()))
}
