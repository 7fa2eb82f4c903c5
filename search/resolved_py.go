package search

import (
	"github.com/zumba-dev/zumba/search/resolve"
	"github.com/zumba-dev/zumba/search/resolve/pyres"
)

// Python's row of resolvedLangs: the resolver of package
// search/resolve/pyres over the index's records of kindPyFacts, or over
// files read afresh.

// pyOfIndex is the Python resolver over the index.
func pyOfIndex(ix *Index) resolve.Lang {
	parse := func(_ string, data []byte) *pyres.File { return pyres.Parse(data) }
	return pyres.NewResolver(newLangFacts(ix, kindPyFacts, pyres.IsPython, pyres.DecodeIn, parse))
}

// pyOfFiles is the Python resolver over files read afresh.
func pyOfFiles(paths []string, read func(p string) ([]byte, error)) (resolve.Lang, func(p string)) {
	src := pyres.NewFiles(paths, read)
	return pyres.NewResolver(src), func(p string) { src.Facts(p) }
}
