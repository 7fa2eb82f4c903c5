// Package filetier ranks a project's files in tiers, best first: the
// project's own, then its test files (grammar.IsTestFile), then vendored
// and generated code (grammar.IsVendoredFile), then the other files whose
// first lines say they are generated (grammar.IsGeneratedHead). The
// index keeps each file's tier beside its records (Record); every search
// ranks by it.
package filetier

import (
	"cmp"
	"strings"

	"github.com/zumba-dev/zumba/grammar"
)

// Tiers of files, best first.
const (
	Own uint8 = iota
	Test
	Vendored
	Generated
	Count // how many
)

// Of is the tier of the project path p.
func Of(p string) uint8 {
	switch {
	case grammar.IsVendoredFile(p):
		return Vendored
	case grammar.IsTestFile(p):
		return Test
	}
	return Own
}

// Data is the tier of the project file p whose contents are data.
func Data(p string, data []byte) uint8 {
	return Head(Of(p), grammar.IsGeneratedHead(data))
}

// Head is the tier of a file of path tier t, whose first lines say it
// is generated when generated is set.
func Head(t uint8, generated bool) uint8 {
	if generated && t < Vendored {
		return Generated
	}
	return t
}

// Record is the tier of an index record's file at path, generated or
// not: the rank the index keeps beside each record (index.Index.TierOf).
func Record(path string, generated bool) uint8 { return Head(Of(path), generated) }

// Compare orders two project paths as find_symbol lists exact matches:
// by tier (Of), then by path.
func Compare(a, b string) int {
	return cmp.Or(cmp.Compare(Of(a), Of(b)), strings.Compare(a, b))
}
