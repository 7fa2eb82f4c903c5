package findcode

import (
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
)

// Index is what find_code reads of a project's index: the engine (package
// internal/index) among whose kinds of records are find_code's (Kind) and
// the definitions' (package search/internal/defrec), the postings of
// find_code's words, and the files, for the lines it shows.
type Index struct {
	*index.Index
	// Src reads the files of the definitions found.
	Src project.Source
	// Kind is find_code's kind of record, as handed to the engine, and
	// CodeKind its number; DefsKind is the definitions' number.
	Kind               *Kind
	CodeKind, DefsKind int
	// Post lists the files holding each of find_code's words: the
	// engine's postings of Kind.
	Post *index.Postings
}
