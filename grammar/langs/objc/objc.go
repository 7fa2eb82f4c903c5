// Package objc links the Objective-C grammar (tree-sitter-objc, vendored
// from its npm package; see VERSION) for the registry of package grammar.
package objc

// #cgo CFLAGS: -std=c11 -fPIC
// typedef struct TSLanguage TSLanguage;
// const TSLanguage *tree_sitter_objc(void);
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// Language returns the Objective-C grammar.
func Language() *sitter.Language {
	return sitter.NewLanguage(unsafe.Pointer(C.tree_sitter_objc()))
}
