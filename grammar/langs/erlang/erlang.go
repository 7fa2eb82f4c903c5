// Package erlang links the Erlang grammar (WhatsApp/tree-sitter-erlang,
// vendored from its repository; see VERSION) for the registry of package
// grammar.
package erlang

// #cgo CFLAGS: -std=c11 -fPIC -I${SRCDIR}
// typedef struct TSLanguage TSLanguage;
// const TSLanguage *tree_sitter_erlang(void);
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// Language returns the Erlang grammar.
func Language() *sitter.Language {
	return sitter.NewLanguage(unsafe.Pointer(C.tree_sitter_erlang()))
}
