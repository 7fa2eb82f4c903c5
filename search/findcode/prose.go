package findcode

import (
	"strings"

	"github.com/zumba-dev/zumba/internal/project"
)

// Code before prose: a Markdown file's headings are definitions too, and
// a section that talks about a feature at length often holds more of a
// description's words than the code that does it (cobra's user guide
// stood six headings ahead of SuggestionsFor). find_code weighs
// documentation files' definitions down (codeWeights.prose) unless the
// query asks for documentation; a path that keeps only documentation
// files ranks them among themselves, unchanged.

// proseExts are the extensions of documentation files.
var proseExts = []string{".md", ".markdown", ".mdx", ".rst", ".adoc", ".txt"}

// proseFile reports whether the project path p is a documentation file.
func proseFile(p string) bool {
	base := strings.ToLower(project.Base(p))
	for _, e := range proseExts {
		if strings.HasSuffix(base, e) {
			return true
		}
	}
	return false
}

// proseWords are the words of a query that ask for documentation, as
// written (lowercased): matched before stemming, so that "document" and
// "doc" (an XML document, a doc comment) do not.
var proseWords = map[string]bool{
	"docs": true, "documentation": true, "readme": true, "markdown": true, "changelog": true,
	"tutorial": true, "tutorials": true, "guide": true, "guides": true, "manual": true, "heading": true, "headings": true,
}

// proseQuery reports whether terms, a query's words, ask for
// documentation (see proseWords).
func proseQuery(terms []codeTerm) bool {
	for _, t := range terms {
		if proseWords[strings.ToLower(t.word)] {
			return true
		}
	}
	return false
}
